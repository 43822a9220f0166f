#!/usr/bin/env bash
# Fault injection: SIGKILLs at random moments and the instant a move is shown (plain mode and
# full screen under tmux), a file system that fills up mid-game, a page-damaged database and
# two sessions on one database. Prints "moves acknowledged / moves stored: A / S" and fails
# unless they are equal. Mounting a small tmpfs needs root; elsewhere that part is skipped
# with a message. Usage: bash Scripts/e2e/faults.sh PATH_TO_TICTACTOE [--quick]
set -euo pipefail
export LC_ALL=C.UTF-8
binary=$(realpath "${1:?usage: faults.sh PATH_TO_TICTACTOE [--quick]}")
shift
command -v python3 >/dev/null || { echo "faults.sh: python3 is not installed" >&2; exit 1; }
exec python3 "$(dirname "$0")/faults.py" "$binary" "$@"
