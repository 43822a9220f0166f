#!/usr/bin/env bash
# Full-screen online play end to end under tmux: two players and a spectator against a real
# server, a complete game, a client and the server killed mid-game.
# Usage: bash Scripts/e2e/online-fullscreen.sh BINARY
set -euo pipefail
binary=${1:?usage: online-fullscreen.sh PATH_TO_TICTACTOE}
command -v tmux >/dev/null || { echo "online-fullscreen.sh: tmux is not installed" >&2; exit 1; }
exec python3 "$(dirname "$0")/online-fullscreen.py" "$binary"
