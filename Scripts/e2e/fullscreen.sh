#!/usr/bin/env bash
# Full-screen mode end to end under tmux: a whole game against Unbeatable with keystrokes,
# undo, hint, help, mouse, resize, quit with confirmation, and the terminal restored after q,
# Ctrl-C, SIGTERM and SIGHUP.
# Usage: bash Scripts/e2e/fullscreen.sh PATH_TO_TICTACTOE
set -euo pipefail
export LC_ALL=C.UTF-8

binary=$(realpath "${1:?usage: fullscreen.sh PATH_TO_TICTACTOE}")
command -v tmux >/dev/null || { echo "fullscreen.sh: tmux is not installed" >&2; exit 1; }

work=$(mktemp -d)
socket="tictactoe-e2e-$$"
failures=0
session=""

cleanup() {
  tmux -L "$socket" kill-server 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

fail() {
  echo "FAIL: $1" >&2
  failures=$((failures + 1))
}

t() { tmux -L "$socket" "$@"; }

# A session that lives as long as the server, so that killing a game's session never empties
# the server: when the last session goes, tmux 3.3a's client can fail the kill with "server
# exited unexpectedly".
t new-session -d -s keep -x 80 -y 24 "sleep 3600"

# Starts the app in a fresh 80×24 pane. The pane's shell records the terminal mode before and
# after, and the app's exit status.
start() {
  session="s$((RANDOM))"
  rm -f "$work/before" "$work/after" "$work/status"
  t new-session -d -s "$session" -x 80 -y 24 \
    "stty -g > '$work/before'; env TERM=tmux-256color LANG=C.UTF-8 ${START_ENV:-} \
     TICTACTOE_DATABASE='$work/$session.sqlite' '$binary' play $*; \
     echo \$? > '$work/status'; stty -g > '$work/after'; sleep 600"
  wait_for "place your X\|is thinking" 10 || fail "start: the game did not appear"
}

screen() { t capture-pane -p -t "$session"; }

# Waits until the pane shows a line matching the grep pattern.
wait_for() {
  local pattern=$1 seconds=${2:-10}
  local tries=$((seconds * 20))
  while ((tries-- > 0)); do
    if screen | grep -q -- "$pattern"; then return 0; fi
    sleep 0.05
  done
  return 1
}

wait_gone() {
  local pattern=$1 tries=200
  while ((tries-- > 0)); do
    if ! screen | grep -q -- "$pattern"; then return 0; fi
    sleep 0.05
  done
  return 1
}

wait_exit() {
  local tries=200
  while ((tries-- > 0)); do
    [[ -s $work/after ]] && return 0
    sleep 0.05
  done
  return 1
}

# Esc on New game asks before leaving; y leaves.
leave_from_new_game() {
  t send-keys -t "$session" Escape
  wait_for "Leave Tic-Tac-Toe?" 5 || fail "$1: no question before leaving"
  t send-keys -t "$session" y
}

check_restored() {
  local name=$1
  if ! wait_exit; then
    fail "$name: the app did not exit"
    return
  fi
  if ! cmp -s "$work/before" "$work/after"; then
    fail "$name: terminal mode not restored: $(cat "$work/before") became $(cat "$work/after")"
  fi
  if screen | grep -q "┌───"; then
    fail "$name: the alternate screen was not left"
  fi
}

expect_screen() {
  local name=$1 pattern=$2
  screen | grep -q -- "$pattern" || fail "$name: no \"$pattern\" on screen:"$'\n'"$(screen)"
}

# The mark in a cell of a 3×3 grid: row and column from 0.
cell() {
  local row=$1 column=$2
  local line
  line=$(screen | grep "^ $((row + 1)) │" | head -n 1)
  printf '%s' "${line:$((5 + 4 * column)):1}"
}

# How many of a mark are on the board.
count() {
  local mark=$1 total=0 row column
  for row in 0 1 2; do
    for column in 0 1 2; do
      [[ $(cell $row $column) == "$mark" ]] && total=$((total + 1))
    done
  done
  echo $total
}

# Waits until the computer (O) has answered X's last move, or the game is over.
wait_for_reply() {
  local tries=200
  while ((tries-- > 0)); do
    if screen | grep -q "^ Winner!\|^ Tied game!"; then return 0; fi
    if [[ $(count X) -eq $(count O) ]] && screen | grep -q "^ Ada, place your X"; then
      return 0
    fi
    sleep 0.05
  done
  return 1
}

# ---------------------------------------------------------------------------------------------
# A whole game against Unbeatable, with the arrows, Enter and digits.

start --x Ada --computer o --difficulty unbeatable
expect_screen "title" "^ Ada, place your X"
expect_screen "buttons" "\[u\] Undo  \[r\] Redo  \[h\] Hint  \[e\] Analysis  \[n\] New game  \[q\] Quit  \[?\] Help"
# e shows every empty cell's value over the board; any key closes it.
t send-keys -t "$session" e
wait_for "^ X to move: draw\. Best: " 5 || fail "analysis: no summary"
expect_screen "analysis values" "a1 D    b1 D    c1 D"
t send-keys -t "$session" Escape
sleep 0.5
! screen | grep -q "Any key closes the analysis" || fail "analysis: a key did not close it"
[[ $(cell 1 1) == " " ]] || fail "analysis: closing it played a move"
# The cursor starts in the middle; up then down comes back; Enter plays b2.
t send-keys -t "$session" Up Down Enter
wait_for "^ X plays b2\.\|^ O plays" 5 || fail "game: Enter did not play"
wait_for_reply || fail "game: the computer did not answer"
[[ $(cell 1 1) == X ]] || fail "game: Enter did not play b2:"$'\n'"$(screen)"
moves=1
while ! screen | grep -q "^ Winner!\|^ Tied game!"; do
  played=false
  for digit in 1 2 3 4 5 6 7 8 9; do
    row=$(((digit - 1) / 3))
    column=$(((digit - 1) % 3))
    if [[ $(cell $row $column) == " " ]]; then
      t send-keys -t "$session" "$digit"
      played=true
      break
    fi
  done
  $played || { fail "game: no empty cell but no result"; break; }
  moves=$((moves + 1))
  wait_for_reply || { fail "game: stuck"; break; }
  ((moves < 6)) || { fail "game: too many moves"; break; }
done
if screen | grep -q "^ Winner! Congrats Ada!"; then
  fail "game: Unbeatable lost:"$'\n'"$(screen)"
fi
if screen | grep -q "^ Tied game!"; then
  expect_screen "tie" "^ Tied game\.$"
else
  expect_screen "loss" "^ Winner! Congrats Computer!"
  expect_screen "loss" "^ O wins with [a-c][1-3], [a-c][1-3], [a-c][1-3]\.$"
  expect_screen "loss" "<O>"
fi
expect_screen "game over" "\[n\] Play again"

# Play again: an empty board.
t send-keys -t "$session" n
wait_gone "Play again" || fail "play again: still over"
expect_screen "play again" "^ Ada, place your X"
[[ $(cell 0 0)$(cell 1 1)$(cell 2 2) == "   " ]] || fail "play again: board not empty"

# Undo takes back the computer's reply and the move.
t send-keys -t "$session" 5
wait_for "^ O plays" 10 || fail "undo: the computer did not answer"
t send-keys -t "$session" u
wait_gone "^ O plays" || fail "undo: nothing undone"
[[ $(cell 1 1) == "[" || $(cell 1 1) == " " ]] || true
if screen | grep -q "│ X │\|│(X)│\|│[X]│\|│ O │\|│(O)│"; then
  fail "undo: marks left on the board:"$'\n'"$(screen)"
fi
# Redo brings them back.
t send-keys -t "$session" r
wait_for "(O)" 5 || fail "redo: the computer's move did not come back"

# Hint shows a + on the board.
t send-keys -t "$session" h
wait_for "│ + │\|│\[+\]│" 10 || fail "hint: no hint shown:"$'\n'"$(screen)"

# A click on a cell plays there (SGR mouse report, columns and rows from 1).
before_click=$(screen)
empty_click=""
for digit in 1 3 7 9 2 4 6 8; do
  row=$(((digit - 1) / 3))
  column=$(((digit - 1) % 3))
  mark=$(cell $row $column)
  if [[ $mark == " " || $mark == "+" ]]; then
    empty_click="$row $column"
    break
  fi
done
if [[ -n $empty_click ]]; then
  read -r row column <<<"$empty_click"
  # Line 2 + 2 × row + 2 holds the row (0-based: title, blank, letters, top border).
  y=$((4 + 2 * row + 1))
  x=$((5 + 4 * column + 1))
  t send-keys -t "$session" -l $'\e'"[<0;${x};${y}M"$'\e'"[<0;${x};${y}m"
  wait_for "^ Ada, place your X\|^ Winner\|^ Tied" 10 || true
  sleep 0.3
  [[ $(cell "$row" "$column") == X || $(cell "$row" "$column") == "(" ]] ||
    [[ $(screen | grep "^ $((row + 1)) │" | cut -c1-80) == *X* ]] ||
    fail "mouse: click did not play:"$'\n'"$before_click"$'\n'"$(screen)"
fi

# The help covers the board; any key closes it.
t send-keys -t "$session" "?"
wait_for "^ Keys" 5 || fail "help: not shown"
t send-keys -t "$session" Escape
wait_gone "^ Keys" || fail "help: not closed"

# A too small terminal says so; enlarging redraws.
t resize-window -t "$session" -x 30 -y 10
wait_for "Terminal too small" 5 || fail "resize: no too-small notice:"$'\n'"$(screen)"
t resize-window -t "$session" -x 80 -y 24
wait_for "┌───┬───┬───┐" 5 || fail "resize: board not redrawn"

# Quit asks while the game is on; n keeps playing, q y quits.
if ! screen | grep -q "^ Winner\|^ Tied"; then
  t send-keys -t "$session" q
  wait_for "Quit this game?" 5 || fail "quit: no confirmation"
  t send-keys -t "$session" n
  wait_gone "Quit this game?" || fail "quit: n did not keep playing"
  expect_screen "quit" "┌───┬───┬───┐"
fi
t send-keys -t "$session" q
if wait_for "Quit this game?" 2; then
  t send-keys -t "$session" y
fi
# Quit leads to New game with the names kept; Esc there leaves the program, once confirmed.
wait_for "^ New game" 5 || fail "quit: no New game screen:"$'\n'"$(screen)"
expect_screen "quit" "X name .*\[Ada "
leave_from_new_game "Esc"
check_restored "q"
[[ $(cat "$work/status" 2>/dev/null) == 0 ]] || fail "q: exit status $(cat "$work/status")"
t kill-session -t "$session"

# ---------------------------------------------------------------------------------------------
# Without options the app opens at Sign in; a guest is one key away.

start_at_sign_in() {
  session="s$((RANDOM))"
  rm -f "$work/before" "$work/after" "$work/status"
  t new-session -d -s "$session" -x 80 -y 24 \
    "stty -g > '$work/before'; env TERM=tmux-256color LANG=C.UTF-8 \
     TICTACTOE_DATABASE='$work/$session.sqlite' '$binary'; \
     echo \$? > '$work/status'; stty -g > '$work/after'; sleep 600"
  wait_for "^ Sign in" 10 || fail "sign in: not shown:"$'\n'"$(screen)"
}

start_at_sign_in
expect_screen "sign in" "< Play as guest >"
t send-keys -t "$session" C-g
wait_for "^ New game" 5 || fail "guest: no New game screen"
expect_screen "guest" "Playing as a guest"
t send-keys -t "$session" -l "Grace"
t send-keys -t "$session" Enter
wait_for "^ Grace, place your X" 5 || fail "guest: the game did not start:"$'\n'"$(screen)"
t send-keys -t "$session" C-c
check_restored "guest Ctrl-C"
t kill-session -t "$session"

# Create an account: a short password is refused, a good one signs in.
start_at_sign_in
t send-keys -t "$session" -l "ada"
t send-keys -t "$session" Tab
t send-keys -t "$session" -l "short"
t send-keys -t "$session" Tab Tab
wait_for "^ > < Create account >" 5 || fail "create account: focus not on the button"
t send-keys -t "$session" Enter
wait_for "at least 8" 5 || fail "create account: short password accepted:"$'\n'"$(screen)"
# The refused password is forgotten, as at every failure.
[[ $(screen) == *"Password   [                            ]"* ]] ||
  fail "create account: the refused password was kept:"$'\n'"$(screen)"
t send-keys -t "$session" BTab BTab
t send-keys -t "$session" -l "long enough"
t send-keys -t "$session" Tab Tab
t send-keys -t "$session" Enter
# The password is asked for twice; Enter in the second field creates the account.
wait_for "Type the password again" 5 || fail "create account: the password was asked once"
t send-keys -t "$session" -l "long enough"
t send-keys -t "$session" Enter
wait_for "Signed in as ada" 15 || fail "create account: not signed in:"$'\n'"$(screen)"
expect_screen "create account" "X name .*\[ada "
leave_from_new_game "create account Esc"
check_restored "create account Esc"
t kill-session -t "$session"

# ---------------------------------------------------------------------------------------------
# Ctrl-C, SIGTERM and SIGHUP restore the terminal.

start --x Ada --computer none
t send-keys -t "$session" 5 C-c
check_restored "Ctrl-C"
[[ $(cat "$work/status") == 130 ]] || fail "Ctrl-C: exit status $(cat "$work/status")"
t kill-session -t "$session"

for signal in TERM HUP; do
  start --x Ada --computer none
  t send-keys -t "$session" 5
  shell=$(t display -p -t "$session" '#{pane_pid}')
  app=$(pgrep -P "$shell" | head -n 1)
  [[ -n $app ]] || { fail "SIG$signal: app not found"; continue; }
  kill -s "$signal" "$app"
  check_restored "SIG$signal"
  t kill-session -t "$session"
done

# ---------------------------------------------------------------------------------------------
# Colour by default; none with NO_COLOR or --no-color (bold and reverse stay).

colour_codes() { t capture-pane -e -p -t "$session" | grep -c $'\e\\[[34][0-7]m' || true; }

# Plays one move in a fresh game with these start options, then counts the colour codes shown.
colours_after_a_move() {
  local name=$1 expected=$2
  shift 2
  start --x Ada --computer none "$@"
  t send-keys -t "$session" 5
  wait_for "(X)\|\[X\]" 5 || fail "$name: no move"
  if [[ $expected == some ]]; then
    [[ $(colour_codes) -gt 0 ]] || fail "$name: no colours by default"
  else
    [[ $(colour_codes) -eq 0 ]] || fail "$name: colours shown"
  fi
  t send-keys -t "$session" C-c
  check_restored "$name"
  t kill-session -t "$session"
}

colours_after_a_move "colour" some
colours_after_a_move "--no-color" none --no-color
START_ENV="NO_COLOR=1" colours_after_a_move "NO_COLOR" none

# Ctrl-Z suspends to the shell, which then holds the terminal, and fg brings the game back.
session="z$((RANDOM))"
t new-session -d -s "$session" -x 80 -y 24 "env TERM=tmux-256color PS1='shell> ' bash --norc -i"
wait_for "shell>" 5 || fail "suspend: no shell"
t send-keys -t "$session" "TICTACTOE_DATABASE='$work/z.sqlite' '$binary' play --computer none" Enter
wait_for "place your X" 10 || fail "suspend: the game did not appear"
t send-keys -t "$session" 5
wait_for "X plays b2" 5 || fail "suspend: no move"
t send-keys -t "$session" C-z
state() {
  ps -o stat= -o args= -t "$(t display -p -t "$session" '#{pane_tty}')" | grep "$binary" || true
}
tries=100
until [[ $(state) == T* ]] || ((tries-- == 0)); do sleep 0.05; done
[[ $(state) == T* ]] || fail "suspend: Ctrl-Z did not stop the game ($(state))"
wait_for "Stopped" 5 || fail "suspend: the shell did not take the terminal back"
# Continued in the background, the game leaves the terminal to the shell and stops again.
t send-keys -t "$session" "stty -g > '$work/z0'; kill -CONT %1; sleep 1; stty -g > '$work/z1'" Enter
tries=100
until [[ -s $work/z1 ]] || ((tries-- == 0)); do sleep 0.05; done
[[ $(state) == T* ]] || fail "suspend: continued in the background, the game runs ($(state))"
cmp -s "$work/z0" "$work/z1" || fail "suspend: continued in the background, the game took the terminal"
t send-keys -t "$session" "fg" Enter
wait_for "X plays b2" 5 || fail "suspend: fg did not bring the game back"
[[ $(state) == S* ]] || fail "suspend: the game is not running after fg ($(state))"
# Stopped from outside (kill -TSTP), the game leaves the terminal as Ctrl-Z does; stopped where
# it cannot see it (SIGSTOP), it takes raw mode back when continued: keys still play at once.
game_pid=$(ps -o pid= -o args= -t "$(t display -p -t "$session" '#{pane_tty}')" |
  awk -v binary="$binary" 'index($0, binary) { print $1; exit }')
kill -TSTP "$game_pid"
tries=100
until [[ $(state) == T* ]] || ((tries-- == 0)); do sleep 0.05; done
wait_for "Stopped" 5 || fail "kill -TSTP: the shell did not take the terminal back"
[[ $(t display -p -t "$session" '#{alternate_on}') == 0 ]] ||
  fail "kill -TSTP: the alternate screen stayed on at the shell prompt"
t send-keys -t "$session" "fg" Enter
wait_for "X plays b2" 5 || fail "kill -TSTP: fg did not bring the game back"
t send-keys -t "$session" 1
wait_for "O plays a1" 5 || fail "kill -TSTP: a key after fg did not play:"$'\n'"$(screen)"
kill -STOP "$game_pid"
sleep 0.3
t send-keys -t "$session" "fg" Enter
sleep 0.5
t send-keys -t "$session" 3
wait_for "X plays c1" 5 || fail "SIGSTOP: a key after fg did not play:"$'\n'"$(screen)"
t send-keys -t "$session" q
t kill-session -t "$session"

# Where no shell with job control started it (here the pane's own sh -c), a stop would be
# discarded: Ctrl-Z says so, the game plays on, and the next key takes the sentence away.
start --x Ada --computer none
t send-keys -t "$session" 5
wait_for "X plays b2" 5 || fail "no job control: no move"
t send-keys -t "$session" C-z
wait_for "Ctrl-Z cannot suspend the game here" 5 ||
  fail "no job control: Ctrl-Z said nothing:"$'\n'"$(screen)"
t send-keys -t "$session" 1
wait_for "O plays a1" 5 || fail "no job control: a key after Ctrl-Z did not play:"$'\n'"$(screen)"
wait_gone "Ctrl-Z cannot suspend" || fail "no job control: the sentence stayed after a key"
t kill-session -t "$session"

if [[ $failures -gt 0 ]]; then
  echo "fullscreen.sh: $failures failure(s)" >&2
  exit 1
fi
echo "fullscreen.sh: all checks passed"
