// Tests of GameRules.
