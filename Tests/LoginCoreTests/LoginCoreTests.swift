// Tests of LoginCore.
