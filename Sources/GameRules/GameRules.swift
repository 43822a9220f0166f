// The GameRules module.
