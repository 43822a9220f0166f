// Tests of GameAI.
