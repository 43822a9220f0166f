// Tests of TwoFactorCore.
