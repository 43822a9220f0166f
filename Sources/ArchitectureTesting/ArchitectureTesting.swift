// The ArchitectureTesting module.
