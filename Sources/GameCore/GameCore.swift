// The GameCore module.
