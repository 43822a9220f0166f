#!/usr/bin/env bash
# Makes the desktop's screenshots under Xvfb, reaching each screen through AT-SPI:
#
#   bash Scripts/screenshot.sh PATH_TO_TICTACTOE_GTK PATH_TO_TICTACTOE [FOLDER]
#
# FOLDER defaults to docs/screenshots. Writes game.png (a won game), game-dark.png,
# game-15x15.png, sign-in.png, new-game.png, stats.png and replay.png, and fails unless each
# shows what it must (see Scripts/screenshot.py). Without a DISPLAY it runs itself under
# xvfb-run and dbus-run-session. Needs xdotool, ImageMagick and python3-dogtail.
set -euo pipefail

if [[ -z ${DISPLAY:-} ]]; then
  exec xvfb-run -a -s "-screen 0 1024x768x24" dbus-run-session -- bash "$0" "$@"
fi
if [[ -z ${DBUS_SESSION_BUS_ADDRESS:-} ]]; then
  exec dbus-run-session -- bash "$0" "$@"
fi
cd "$(dirname "$0")/.."
usage="usage: bash Scripts/screenshot.sh PATH_TO_TICTACTOE_GTK PATH_TO_TICTACTOE [FOLDER]"
gtk=${1:?$usage}
cli=${2:?$usage}
folder=${3:-docs/screenshots}
gtk=$(cd "$(dirname "$gtk")" && pwd)/$(basename "$gtk")
cli=$(cd "$(dirname "$cli")" && pwd)/$(basename "$cli")

source Scripts/dogtail-python.sh
# English everywhere, and cheap password hashing for the accounts made here.
export LANG=C.UTF-8 TICTACTOE_PASSWORD_COST=test

"$python" Scripts/screenshot.py "$gtk" "$cli" "$folder" || {
  echo "screenshot.sh: FAILED" >&2
  exit 1
}
echo "screenshot.sh: saved the screenshots in $folder"
