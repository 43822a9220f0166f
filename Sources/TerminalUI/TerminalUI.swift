// The TerminalUI module.
