#!/usr/bin/env bash
# End to end for the desktop front end, through AT-SPI only (no coordinates):
#
#   xvfb-run -a -s "-screen 0 1024x768x24" dbus-run-session -- \
#     bash Scripts/gtk-e2e.sh PATH_TO_TICTACTOE_GTK PATH_TO_TICTACTOE
#
# Plays as a guest against Unbeatable by cell names, checks 3×3 and 7×7 boards, plays from the
# keyboard (as assistive technologies synthesise it), sees a database it cannot open and a move
# it cannot store said in a message dialog, signs in with an account and two-factor
# made by the command line, measures responsiveness on 15×15, and goes round the window: the
# primary menu, About, the keyboard shortcuts, Preferences, a whole game with its toast, Stats;
# then an online game against a real server, watched by a guest on a second desktop, with
# the opponent's client killed and back.
# Uses a temporary database. Exits non-zero with a sentence on the first failed check.
set -euo pipefail
cd "$(dirname "$0")/.."

usage="usage: bash Scripts/gtk-e2e.sh PATH_TO_TICTACTOE_GTK PATH_TO_TICTACTOE"
gtk=${1:?$usage}
cli=${2:?$usage}
gtk=$(cd "$(dirname "$gtk")" && pwd)/$(basename "$gtk")
cli=$(cd "$(dirname "$cli")" && pwd)/$(basename "$cli")
[[ -n ${DISPLAY:-} ]] || { echo "gtk-e2e.sh: no DISPLAY; run it under xvfb-run" >&2; exit 2; }
[[ -n ${DBUS_SESSION_BUS_ADDRESS:-} ]] || {
  echo "gtk-e2e.sh: no session bus; run it under dbus-run-session" >&2
  exit 2
}
source Scripts/dogtail-python.sh

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Cheap password hashing for accounts made here; the hash records its own cost.
export TICTACTOE_PASSWORD_COST=test
database="$work/tictactoe.sqlite"
user=alice
password='correct horse battery'

fail() {
  echo "gtk-e2e.sh: FAILED: $*" >&2
  exit 1
}

check() {
  echo "-- a11y_check.py $1"
  "$python" Scripts/a11y_check.py "$@" || fail "a11y_check.py $1"
}

# A scenario ended mid-game leaves its game saved, and the next start on the same database
# offers that game before anything else: each scenario gets a database of its own.
check guest "$gtk" "$work/guest.sqlite"
check board "$gtk" "$work/board3.sqlite" 3
check board "$gtk" "$work/board7.sqlite" 7
check keys "$gtk" "$work/keys.sqlite"
mkdir "$work/failure"
check failure "$gtk" "$work/failure"

echo "-- an account with two-factor, made by the command line"
printf '%s\n' "$password" | "$cli" account create "$user" --password-stdin --database "$database" \
  >"$work/create.out" 2>&1 || fail "tictactoe account create: $(cat "$work/create.out")"
# 2fa-enable prints the secret and URI, then reads one code computed from them.
coproc ENABLE {
  "$cli" account 2fa-enable "$user" --password-stdin --database "$database" 2>"$work/enable.err"
}
enable_pid=$ENABLE_PID
printf '%s\n' "$password" >&"${ENABLE[1]}"
IFS= read -r -t 30 secret_line <&"${ENABLE[0]}" || fail "2fa-enable printed no secret"
IFS= read -r -t 30 uri_line <&"${ENABLE[0]}" || fail "2fa-enable printed no URI"
secret=${secret_line#Secret: }
[[ $secret =~ ^[A-Z2-7]+$ ]] || fail "2fa-enable printed $secret_line"
[[ $uri_line == "URI: otpauth://totp/"* ]] || fail "2fa-enable printed $uri_line"
code=$("$python" -c 'import sys; sys.path.insert(0, "Scripts"); import a11y_check as a; print(a.totp(sys.argv[1]))' "$secret")
printf '%s\n' "$code" >&"${ENABLE[1]}"
exec {ENABLE[1]}>&-
cat <&"${ENABLE[0]}" >"$work/enable.out"
wait "$enable_pid" || fail "2fa-enable failed: $(cat "$work/enable.err")"
echo "ok - $user has two-factor on"

check signin "$gtk" "$database" "$user" "$password" "$secret"
check responsive "$gtk" "$work/responsive.sqlite" "${RESPONSIVE_SECONDS:-8}"
check chrome "$gtk" "$work/chrome.sqlite"
# An online game against tictactoe serve on a loopback port, the opponent on the command line.
mkdir "$work/online"
check online "$gtk" "$cli" "$work/online"
echo "gtk-e2e.sh: all checks passed"
