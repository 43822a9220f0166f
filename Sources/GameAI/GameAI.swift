// The GameAI module.
