// The DatabaseClient module.
