#!/usr/bin/env bash
# Online play against a fake server that goes silent, sends what is not a message or a move that
# cannot be, or picks a version not offered; about a minute, the client's own timeouts.
# Usage: bash Scripts/e2e/online-faulty-server.sh BINARY
set -euo pipefail
binary=${1:?usage: online-faulty-server.sh PATH_TO_TICTACTOE}
exec python3 "$(dirname "$0")/online-faulty-server.py" "$binary"
