#!/usr/bin/env bash
# The judging script against a stand-in judge whose evaluation is known (200 for each stone of
# the side to move in the first column, -400 in the last) and which, like a brain with a
# transposition table, favours the side to move in a position it judged before unless told to
# forget: two copies of one brain must score exactly alike, and a brain that plays the first
# empty cell (0,0) must beat one that plays the last, (14,14), by exactly 0.7311 - 0.1192 a
# position, every move of the latter a blunder (the positions start at 0.5).
# Usage: bash Scripts/e2e/judge.sh [ANY]   (the argument, a tictactoe binary, is unused)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/games.txt" <<'GAMES'
game 1 (opening 1, A black): A wins, five in a row, 12 stones: 7,7 8,8 6,7 8,7 6,6 8,6 5,5 4,4 7,5 9,7 7,6 9,9
game 2 (opening 1, B black): B wins, five in a row, 11 stones: 6,8 7,7 5,8 7,8 4,8 3,8 6,9 7,9 7,6 8,10 5,10
GAMES
first="$here/settling_brain.py"
last="$here/settling_brain.py --last"
output=$(python3 "$here/../pbrain_judge.py" "$here/judging_brain.py" "$first" "$first" "$last" \
  --games "$work/games.txt" --count 5 --time-ms 100 --positions "$work/positions.json") || {
  echo "$output"
  echo "judge: the script failed"
  exit 1
}
expect() {
  grep -qF -- "$1" <<<"$output" || { echo "$output"; echo "judge: no line with '$1'"; exit 1; }
}
expect "5 positions the judge does not call decided"
expect "E0 $first: mean score 0.7311 over 5 positions, 0 blunders"
expect "E2 $last: mean score 0.1192 over 5 positions, 5 blunders"
expect "E1 - E0: +0.0000 ± 0.0000 (standard error; the same move as E0 in 5 positions)"
expect "E2 - E0: -0.6119 ± 0.0000 (standard error; the same move as E0 in 0 positions)"
saved=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))))' \
  "$work/positions.json")
[ "$saved" = 5 ] || { echo "judge: $saved positions saved, expected 5"; exit 1; }
# A second run reads the saved positions instead of choosing them again.
again=$(python3 "$here/../pbrain_judge.py" "$here/judging_brain.py" "$first" \
  --games /dev/null --count 5 --time-ms 100 --positions "$work/positions.json")
grep -qF "E0 $first: mean score 0.7311 over 5 positions, 0 blunders" <<<"$again" ||
  { echo "$again"; echo "judge: the saved positions were not judged again"; exit 1; }
# Bad input: one sentence on standard error, exit code 2, nothing on standard output.
printf '[[1, 2]]\n' >"$work/bad.json"
printf 'game 1 (opening 1, A black): A wins, 2 stones: 7,7 \033[31m\n' >"$work/bad.txt"
for bad in "--games $work/missing.txt" "--games $work/bad.txt" \
  "--games $work/games.txt --positions $work/bad.json"; do
  status=0
  # shellcheck disable=SC2086
  python3 "$here/../pbrain_judge.py" "$here/judging_brain.py" "$first" $bad \
    >"$work/out" 2>"$work/err" || status=$?
  lines=$(wc -l <"$work/err")
  if [ "$status" != 2 ] || [ "$lines" != 1 ] || [ -s "$work/out" ] ||
    grep -q $'\033' "$work/err"; then
    cat "$work/out" "$work/err"
    echo "judge: $bad gave exit $status and $lines lines of error"
    exit 1
  fi
done
# A brain that plays a taken cell (7,7 opens both games) stops the run with one sentence.
cat >"$work/taken.py" <<'BRAIN'
#!/usr/bin/env python3
import sys
for line in sys.stdin:
    word = line.split()[0].upper() if line.split() else ""
    if word == "START":
        print("OK", flush=True)
    elif word == "DONE":
        print("7,7", flush=True)
    elif word == "END":
        break
BRAIN
chmod +x "$work/taken.py"
status=0
python3 "$here/../pbrain_judge.py" "$here/judging_brain.py" "$work/taken.py" \
  --games "$work/games.txt" --positions "$work/positions.json" >"$work/out" 2>"$work/err" ||
  status=$?
if [ "$status" != 1 ] || ! grep -qx 'pbrain_judge.py: E0 played 7,7, which is illegal' "$work/err"
then
  cat "$work/err"
  echo "judge: a brain playing a taken cell gave exit $status"
  exit 1
fi
echo "judge: 5 positions judged, identical brains alike, the better brain ahead by 0.6119" \
  "and the worse one's 5 blunders counted;" \
  "3 bad inputs refused in one sentence each, an illegal move stops the run"
