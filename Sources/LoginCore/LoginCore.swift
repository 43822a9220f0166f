// The LoginCore module.
