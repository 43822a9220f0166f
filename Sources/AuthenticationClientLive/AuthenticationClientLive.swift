// The AuthenticationClientLive module.
