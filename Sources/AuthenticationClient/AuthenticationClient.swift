// The AuthenticationClient module.
