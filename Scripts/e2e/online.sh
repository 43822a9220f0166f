#!/usr/bin/env bash
# Online play end to end: a server on a loopback port, accounts, a game, a spectator, hostile
# connections, a client and the server killed mid-game. Usage: bash Scripts/e2e/online.sh BINARY
set -euo pipefail
binary=${1:?usage: online.sh PATH_TO_TICTACTOE}
exec python3 "$(dirname "$0")/online.py" "$binary"
