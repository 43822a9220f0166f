// Tests of Architecture.
