#!/usr/bin/env bash
# Plays a game to a win with the keyboard under Xvfb and saves a screenshot of the window:
#
#   bash Scripts/screenshot.sh PATH_TO_TICTACTOE_GTK [OUTPUT.png]
#
# OUTPUT defaults to docs/screenshots/game.png. Without a DISPLAY it runs itself under xvfb-run.
# Needs xdotool and ImageMagick's import and convert. Fails unless the winning line shows.
set -euo pipefail

if [[ -z ${DISPLAY:-} ]]; then
  exec xvfb-run -a -s "-screen 0 1024x768x24" bash "$0" "$@"
fi
cd "$(dirname "$0")/.."
gtk=${1:?usage: bash Scripts/screenshot.sh PATH_TO_TICTACTOE_GTK [OUTPUT.png]}
output=${2:-docs/screenshots/game.png}
mkdir -p "$(dirname "$output")"

work=$(mktemp -d)
app_pid=
cleanup() {
  [[ -n $app_pid ]] && kill "$app_pid" 2>/dev/null && wait "$app_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

fail() {
  echo "screenshot.sh: FAILED: $*" >&2
  exit 1
}

# Two people at one keyboard, so the moves are ours; a fresh database in the work folder.
"$gtk" play --computer none --x Ann --o Bob --database "$work/tictactoe.sqlite" \
  >"$work/app.log" 2>&1 &
app_pid=$!

window=
for _ in $(seq 1 100); do
  window=$(xdotool search --onlyvisible --name '^Tic-Tac-Toe$' 2>/dev/null | head -n 1) || true
  [[ -n $window ]] && break
  sleep 0.1
done
[[ -n $window ]] || fail "no Tic-Tac-Toe window appeared: $(cat "$work/app.log")"
sleep 1
# Xvfb has no window manager: keys go to the window under the pointer.
eval "$(xdotool getwindowgeometry --shell "$window")"
xdotool mousemove $((X + WIDTH - 5)) $((Y + 5))
xdotool windowfocus --sync "$window" 2>/dev/null || true

# The focus starts on a1. X a1, O a2, X b1, O b2, then X c1 wins along the top row.
keys=(Return Down Return Up Right Return Down Return Up Right)
for key in "${keys[@]}"; do
  xdotool key --delay 80 "$key"
  sleep 0.15
done
sleep 0.5
import -window "$window" "$work/before.png"
xdotool key Return
sleep 0.8
import -window "$window" "$output"

# The winning move adds one mark, and the highlight repaints three whole cells: whatever the
# theme, a large share of the window changes.
changed=$(compare -metric AE -fuzz 10% "$work/before.png" "$output" null: 2>&1) || true
total=$(identify -format "%[fx:w*h]" "$output")
share=$(awk -v changed="${changed%% *}" -v total="$total" 'BEGIN { printf "%.3f", changed / total }')
awk -v share="$share" 'BEGIN { exit !(share > 0.1) }' ||
  fail "the winning line is not highlighted in $output (changed share $share)"
echo "screenshot.sh: saved $output (the winning move repainted $share of the window)"
