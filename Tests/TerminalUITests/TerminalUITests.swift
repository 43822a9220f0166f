// Tests of TerminalUI.
