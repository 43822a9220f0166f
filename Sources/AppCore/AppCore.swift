// The AppCore module.
