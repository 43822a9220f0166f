// The AppLive module.
