#!/usr/bin/env bash
# A game killed with SIGKILL loses no completed move: the next start offers to resume it with
# every move played so far.
# Usage: bash Scripts/e2e/resume.sh PATH_TO_TICTACTOE
set -euo pipefail
export LC_ALL=C.UTF-8

binary=$(realpath "${1:?usage: resume.sh PATH_TO_TICTACTOE}")
command -v tmux >/dev/null || { echo "resume.sh: tmux is not installed" >&2; exit 1; }
work=$(mktemp -d)
socket="tictactoe-resume-$$"
cleanup() {
  tmux -L "$socket" kill-server 2>/dev/null || true
  tmux -L "$socket-again" kill-server 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
t() { tmux -L "$socket" "$@"; }
pane() { t capture-pane -p -t game; }

# Waits up to $2 seconds for the pane to show the pattern $1.
wait_for() {
  local deadline=$((SECONDS + $2))
  while ((SECONDS < deadline)); do
    pane | grep -q -- "$1" && return 0
    sleep 0.2
  done
  echo "resume.sh: timed out waiting for \"$1\"; the pane shows:" >&2
  pane >&2
  exit 1
}

# Starts the app in a fresh pane; the shell records the app's process id, then becomes the app.
launch() {
  t new-session -d -s game -x 80 -y 24 \
    "sh -c 'echo \$\$ > \"$work/pid\"; exec env TERM=tmux-256color LANG=C.UTF-8 \
     TICTACTOE_DATABASE=\"$work/games.sqlite\" \"$binary\" $*'; sleep 600"
}

# Two people at one keyboard, so nothing but our keys moves.
launch play --computer none --x Ada --o Bob
wait_for "Ada, place your X" 10
for key in 5 1 9; do
  t send-keys -t game "$key"
  sleep 0.3
done
wait_for "Bob, place your O" 5
kill -KILL "$(cat "$work/pid")"
t kill-server
# A server of its own for the next start: one started on the socket just killed can find it
# still closing and exit at once.
socket="$socket-again"

# The next start, as a guest, offers the game with its three moves.
launch
wait_for "Sign in" 10
t send-keys -t game C-g
wait_for "Resume Ada vs Bob (3 moves played)?" 10

# Tab to the Resume button, whichever items come before it, and press it.
for _ in $(seq 20); do
  pane | grep -q "> < Resume >" && break
  t send-keys -t game Tab
  sleep 0.1
done
t send-keys -t game Enter
wait_for "Bob, place your O" 10
board=$(pane)
grep -q "1 │ O │   │   │" <<<"$board" || { echo "resume.sh: a1 is not O" >&2; echo "$board" >&2; exit 1; }
grep -q "2 │   │.X.│   │" <<<"$board" || { echo "resume.sh: b2 is not X" >&2; echo "$board" >&2; exit 1; }
grep -q "3 │   │   │.X.│" <<<"$board" || { echo "resume.sh: c3 is not X" >&2; echo "$board" >&2; exit 1; }
echo "resume.sh: the killed game came back with all 3 moves"
