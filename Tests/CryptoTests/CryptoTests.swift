// Tests of Crypto.
