// The NewGameCore module.
