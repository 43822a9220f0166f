#!/usr/bin/env bash
# The match script started from a file of positions: each position is played twice with the
# colours swapped, and the summary counts each brain's wins with the side to move. Black, to
# move, completes five at 0,0, the first empty cell, so the brain that plays the first empty
# cell converts and the one that plays the last does not. Then bad files: each must stop the
# script with one sentence on standard error, exit code 2 and no control character.
# Usage: bash Scripts/e2e/match-positions.sh [ANY]   (the argument, a tictactoe binary, is unused)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
first="$here/settling_brain.py"
last="$here/settling_brain.py --last"
match() {
  python3 "$here/../pbrain_match.py" "$first" "$last" --size 7 --time-ms 100 \
    --name-a first --name-b last --positions "$@"
}
printf '# black to move, four on the top row\nlabel +M1 1,0 0,6 2,0 1,6 3,0 2,6 4,0 6,5\n\n' \
  >"$work/good.txt"
output=$(match "$work/good.txt") || { echo "$output"; echo "match-positions: faults"; exit 1; }
expect() {
  grep -qF -- "$1" <<<"$output" || {
    echo "$output"
    echo "match-positions: no line with '$1'"
    exit 1
  }
}
expect "game 1 (opening 1, first black): first wins, five in a row, 9 stones: 1,0 0,6 2,0 1,6 3,0 2,6 4,0 6,5 0,0"
expect "game 2 (opening 1, last black): first wins"
expect "with the side to move after the opening, won 1 of 1"
expect "with the side to move after the opening, won 0 of 1"
[ "$(grep -c '^game ' <<<"$output")" = 2 ] || { echo "$output"; echo "match-positions: not 2 games"; exit 1; }
# Every position of a file is played unless --openings takes fewer.
sed -n 2p "$work/good.txt" >>"$work/good.txt"
games=$(match "$work/good.txt" | grep -c '^game ')
[ "$games" = 4 ] || { echo "match-positions: $games games from 2 positions, expected 4"; exit 1; }
games=$(match "$work/good.txt" --openings 1 | grep -c '^game ')
[ "$games" = 2 ] || { echo "match-positions: $games games with --openings 1, expected 2"; exit 1; }

refused=0
refuse() {
  local reason=$1 file=$2
  local status=0
  match "$file" >"$work/out" 2>"$work/err" || status=$?
  if [ "$status" != 2 ] || [ "$(wc -l <"$work/err")" != 1 ] || [ -s "$work/out" ] ||
    ! grep -qF -- "$reason" "$work/err" || LC_ALL=C grep -q '[[:cntrl:]]' <(tr -d '\n' <"$work/err"); then
    echo "match-positions: expected exit 2 and one line with '$reason', got exit $status:"
    cat "$work/err" "$work/out"
    exit 1
  fi
  refused=$((refused + 1))
}
printf '3,3 3,9\n' >"$work/off.txt"
refuse "line 1, word 2 of the positions file is off the 7×7 board" "$work/off.txt"
printf '3,3 4,4\n3,3 3,3\n' >"$work/taken.txt"
refuse "line 2, word 2 of the positions file plays on a taken cell" "$work/taken.txt"
printf '0,0 0,1 1,0 1,1 2,0 2,1 3,0 3,1 4,0\n' >"$work/five.txt"
refuse "line 1 of the positions file already has five in a row" "$work/five.txt"
printf '0,0 0,1 1,0 1,1 2,0 2,1 3,0 3,1 4,0 4,1\n' >"$work/after.txt"
refuse "line 1, word 10 of the positions file comes after five in a row" "$work/after.txt"
printf '3,3 \033[2J4,\033]0;x\a4\n' >"$work/escape.txt"
refuse "line 1, word 2 of the positions file is not a move x,y" "$work/escape.txt"
printf '3,3 %s,1\n' "$(head -c 100000 /dev/zero | tr '\0' 9)" >"$work/long.txt"
refuse "line 1, word 2 of the positions file is off the 7×7 board" "$work/long.txt"
printf 'a label alone\n' >"$work/label.txt"
refuse "line 1 of the positions file holds no move x,y" "$work/label.txt"
printf '# nothing\n\n' >"$work/empty.txt"
refuse "the positions file holds no position" "$work/empty.txt"
printf '3,3 \xff\xfe\n' >"$work/binary.txt"
refuse "cannot read the positions file (not UTF-8)" "$work/binary.txt"
refuse "cannot read the positions file (No such file or directory)" "$work/missing.txt"
refuse "cannot read the positions file (Is a directory)" "$work"
echo "match-positions: a position converted by the first brain and not the last; $refused bad files refused in one sentence each"
