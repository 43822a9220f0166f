// Tests of GameCore.
