// The TwoFactorCore module.
