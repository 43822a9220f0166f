// The DatabaseClientLive module.
