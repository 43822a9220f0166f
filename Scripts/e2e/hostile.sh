#!/usr/bin/env bash
# Hostile input: control characters, escape sequences, overlong values, NUL, bytes that are not
# UTF-8 and the empty string in every option, argument, line of standard input, form field
# (full screen under tmux) and stored name. Refused input must exit 2 with one sentence, no raw
# control byte may reach stdout or stderr, and the database must stay unchanged.
# Usage: bash Scripts/e2e/hostile.sh PATH_TO_TICTACTOE
set -euo pipefail
export LC_ALL=C.UTF-8
binary=$(realpath "${1:?usage: hostile.sh PATH_TO_TICTACTOE}")
command -v python3 >/dev/null || { echo "hostile.sh: python3 is not installed" >&2; exit 1; }
exec python3 "$(dirname "$0")/hostile.py" "$binary"
