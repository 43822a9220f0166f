// The SQLite module.
