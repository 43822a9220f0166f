// Tests of NewGameCore.
