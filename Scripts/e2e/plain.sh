#!/usr/bin/env bash
# Plain mode end to end: moves piped in, sentences checked.
# Usage: bash Scripts/e2e/plain.sh PATH_TO_TICTACTOE
set -euo pipefail

binary=${1:?usage: plain.sh PATH_TO_TICTACTOE}
failures=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
runs=0

fail() {
  echo "FAIL: $1" >&2
  failures=$((failures + 1))
}

# Runs the binary with the given stdin text and arguments; sets $output and $status.
run() {
  local input=$1
  shift
  runs=$((runs + 1))
  set +e
  # Each run gets a database of its own, away from the player's.
  output=$(printf '%s' "$input" |
    TICTACTOE_DATABASE="$work/run$runs.sqlite" timeout 30 "$binary" "$@" 2>&1)
  status=$?
  set -e
}

expect_line() {
  local name=$1 line=$2
  if ! grep -qxF -- "$line" <<<"$output"; then
    fail "$name: no line \"$line\" in:"$'\n'"$output"
  fi
}

expect_status() {
  local name=$1 expected=$2
  [[ $status -eq $expected ]] || fail "$name: exit status $status, expected $expected"
}

# A win for X, two people at one keyboard.
run $'a1\nb1\nb2\nc1\nc3\n' play --plain --x Ada --o Bob --computer none
expect_status win 0
expect_line win "X plays a1."
expect_line win "O plays c1."
expect_line win "X wins with a1, b2, c3."
if grep -q "Winner! Congrats" <<<"$output"; then
  fail "win: the end of the game was announced twice:"$'\n'"$output"
fi
expect_line win "1 X O O"
expect_line win "2 . X ."
expect_line win "3 . . X"
if grep -q "cannot be saved\|could not be saved" <<<"$output"; then
  fail "win: the finished game was not saved:"$'\n'"$output"
fi

# A tie, with digits for cells.
run $'1\n2\n3\n5\n4\n6\n8\n7\n9\n' play --plain --x Ada --o Bob --computer none
expect_status tie 0
expect_line tie "X plays c3."
expect_line tie "Tied game."
if grep -q "Tied game!" <<<"$output"; then
  fail "tie: the end of the game was announced twice:"$'\n'"$output"
fi

# An illegal move and an unknown command, then the game goes on.
run $'b2\nb2\ndance\nz9\nb1\n' play --plain --x Ada --o Bob --computer none
expect_status illegal 0
expect_line illegal "b2 is taken."
expect_line illegal "z9 is not on the board."
expect_line illegal "O plays b1."
if ! grep -q '^Unknown command "dance"' <<<"$output"; then
  fail "unknown command: not reported in:"$'\n'"$output"
fi

# End of input in the middle of a game against the computer ends cleanly.
run $'b2\n' play --plain --x Ada --computer o --difficulty unbeatable
expect_status "end of input" 0
expect_line "end of input" "X plays b2."
if ! grep -q '^O plays [a-c][1-3]\.$' <<<"$output"; then
  fail "end of input: the computer did not answer in:"$'\n'"$output"
fi
expect_line "end of input" "Ada, place your X"

# Without a terminal, plain mode is chosen by itself.
run $'b2\nquit\nyes\n' play --x Ada --o Bob --computer none
expect_status "not a terminal" 0
expect_line "not a terminal" "X plays b2."
expect_line "not a terminal" "Quit this game? It will not be saved. Type yes or no."
expect_line "not a terminal" "The game was left unfinished and is not saved."

# Undo and hint.
run $'a1\nb2\nundo\nhint\n' play --plain --x Ada --o Bob --computer none
expect_status "undo and hint" 0
if ! grep -q '^Hint: [a-c][1-3]\.$' <<<"$output"; then
  fail "hint: no hint in:"$'\n'"$output"
fi
# After undo the board shows a1 only.
if ! grep -qxF "2 . . ." <<<"$(tail -n 8 <<<"$output")"; then
  fail "undo: b2 still on the board in:"$'\n'"$output"
fi

# A saved game is offered first; input that ends before the answer keeps it.
shared="$work/shared.sqlite"
run $'b2\na1\n' play --plain --computer none --x Ann --o Bob --database "$shared"
expect_line "save" "Input ended; the unfinished game is saved."
run $'c3\n' play --plain --computer o --database "$shared"
expect_status "unanswered offer" 0
expect_line "unanswered offer" \
  "Resume Ann vs Bob (2 moves played)? Type resume, or new to start a new game instead."
expect_line "unanswered offer" "Input ended; the saved game is kept for next time."
run $'quit\n' play --plain --database "$shared"
expect_status "quit at the offer" 0
expect_line "quit at the offer" "The saved game is kept for next time."
run $'resume\n' play --plain --database "$shared"
expect_line "resume" "O plays a1."

# Started with its output closed, a game would be played blind: nothing is played or stored.
blind="$work/blind.sqlite"
set +e
output=$(printf 'b2\n' | "$binary" play --plain --computer o --database "$blind" 2>&1 >&-)
status=$?
set -e
expect_status "closed output" 1
[[ $output == "tictactoe: The output is closed, so no game could be shown; nothing was played." ]] ||
  fail "closed output: said:"$'\n'"$output"
run $'quit\n' play --plain --database "$blind"
if grep -q "Resume" <<<"$output"; then fail "closed output: a game was stored:"$'\n'"$output"; fi

if [[ $failures -gt 0 ]]; then
  echo "plain.sh: $failures failure(s)" >&2
  exit 1
fi
echo "plain.sh: all checks passed"
