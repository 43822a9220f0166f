// The TestSupport module.
