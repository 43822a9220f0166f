#!/usr/bin/env bash
# The match script against a brain that drops a turn sent while its search still winds down
# after its move (as Rapfi 0.43 does for a few microseconds): paired with a brain that answers
# at once, every game must end without a fault, because the script waits a moment after a
# brain's answer before it sends that brain the next turn.
# Usage: bash Scripts/e2e/match-settle.sh [ANY]   (the argument, a tictactoe binary, is unused)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
slow="$here/settling_brain.py --settle 0.003"
quick="$here/settling_brain.py"
output=$(python3 "$here/../pbrain_match.py" "$slow" "$quick" --size 7 --openings 2 \
  --time-ms 100 --name-a settling --name-b quick) || {
  echo "$output"
  echo "match-settle: the match had faults"
  exit 1
}
games=$(grep -c '^game ' <<<"$output")
[ "$games" = 4 ] || { echo "$output"; echo "match-settle: $games games, expected 4"; exit 1; }
echo "match-settle: 4 games against a brain that drops early turns, no fault"
