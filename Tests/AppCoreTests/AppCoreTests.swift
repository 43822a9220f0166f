// Tests of AppCore.
