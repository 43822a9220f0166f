// The Crypto module.
