#!/usr/bin/env bash
# The load benchmark's arguments and its server process: a bad argument stops it at once with
# one sentence and exit code 2, too low a limit of open files with one sentence and exit code 1,
# --help lists the options, and the server it starts never
# outlives it, whether it is stopped by SIGTERM or SIGINT (which also remove its temporary
# folder) or killed; a short run still prints its figures.
# Usage: bash Scripts/e2e/load-benchmark.sh PATH/TO/tictactoe
#   (tictactoe-load is expected beside it, from `swift build -c release`)
set -euo pipefail
load="$(dirname "$1")/tictactoe-load"
[ -x "$load" ] || { echo "load-benchmark: $load is not built"; exit 1; }
work=$(mktemp -d)
# The benchmark makes its folder, tictactoe-load-PID, here, so that its processes are known.
export TMPDIR="$work/tmp"
mkdir "$TMPDIR"

# The processes of a benchmark started here that are still running: its servers, which name
# their database in $TMPDIR, and benchmarks still running.
leftovers() { pgrep -f -- "$TMPDIR/tictactoe-load-" || true; }
cleanup() {
  local pid
  for pid in $(leftovers) ${started:-}; do kill -KILL "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

failures=0
tried=0
fail() {
  echo "load-benchmark: FAILED: $*"
  failures=$((failures + 1))
}

# Runs the benchmark with ARGUMENTS for at most 20 seconds; sets code, out and err.
bounded() {
  code=0
  "$load" "$@" >"$work/out" 2>"$work/err" &
  started=$!
  local waited=0
  while kill -0 "$started" 2>/dev/null && [ $waited -lt 200 ]; do
    sleep 0.1
    waited=$((waited + 1))
  done
  if kill -0 "$started" 2>/dev/null; then
    kill -KILL "$started"
    code=timeout
  fi
  local status=0
  { wait "$started"; } 2>/dev/null || status=$?
  [ "$code" = timeout ] || code=$status
  started=
  out=$(cat "$work/out")
  err=$(cat "$work/err")
}

bad() {
  tried=$((tried + 1))
  local expected=$1
  shift
  bounded "$@"
  local lines
  lines=$(printf '%s' "$err" | grep -c '' || true)
  if [ "$code" != 2 ] || [ -n "$out" ] || [ "$lines" != 1 ] ||
    LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f\x80-\xff]' "$work/err" ||
    ! grep -qF -- "$expected" "$work/err" || [ -n "$(ls -A "$TMPDIR")" ]; then
    fail "$(printf '%q ' "$@" | cut -c 1-200): exit $code, stdout [$out], stderr [$(cat -v "$work/err")]"
    echo "  expected exit 2, one line with: $expected, and nothing started"
  fi
}

bad "unknown option --frobnicate; run tictactoe-load --help for the options." --frobnicate
bad "--games takes its value as the next argument, not after =." --games=5
bad "--seconds takes its value as the next argument, not after =." --games 1 --seconds=1
bad "--games takes a whole number of at least 0." --games -5
bad "--games takes a whole number of at least 0." --games abc
bad "--saturate takes a whole number of at least 0." --saturate
bad "--think takes a whole number of at least 0." --think 1.5
bad "--games is given twice; give it once." --games 1 --games 2
bad 'unknown option "" (an empty argument)' ""
bad 'unknown option --x\u{1B}[2J' $'--x\033[2J'
bad "--serve DATABASE PID is how the benchmark starts its server" --serve
bad "--serve DATABASE PID is how the benchmark starts its server" --serve "$work/x.sqlite"

for help in --help -h; do
  tried=$((tried + 1))
  bounded $help --games 5
  if [ "$code" != 0 ] || [ -n "$err" ] || ! grep -q '^  --games N ' <<<"$out" ||
    ! grep -q '^  --help, -h ' <<<"$out" || [ -n "$(ls -A "$TMPDIR")" ]; then
    fail "$help: exit $code, stderr [$err], stdout [$out]"
  fi
done

# Starts a long run and waits (at most a minute) until its server answers. SIGINT is given its
# default action, which a shell takes from the commands it starts in the background.
start_run() {
  # Emptied first: the shell opens the output in the background, after the wait below begins.
  : >"$work/out"
  env --default-signal=INT "$load" --games 2 --seconds 60 --saturate 0 >"$work/out" 2>"$work/err" &
  started=$!
  local waited=0
  until grep -q '^Load benchmark:' "$work/out" || [ $waited -ge 600 ]; do
    sleep 0.1
    waited=$((waited + 1))
  done
  grep -q '^Load benchmark:' "$work/out" || fail "the run did not start: $(cat "$work/out" "$work/err")"
  [ -n "$(leftovers)" ] || fail "no server process was seen"
}

# Each stop must leave no server running; SIGTERM and SIGINT must also remove the folder.
for stop in TERM INT KILL; do
  tried=$((tried + 1))
  start_run
  folder="$TMPDIR/tictactoe-load-$started"
  [ -d "$folder" ] || fail "SIG$stop: no folder $folder while running"
  kill -s "$stop" "$started"
  code=0
  { wait "$started"; } 2>/dev/null || code=$?
  started=
  case $stop in
  TERM) [ "$code" = 143 ] || fail "SIGTERM: exit $code, not 143" ;;
  INT) [ "$code" = 130 ] || fail "SIGINT: exit $code, not 130" ;;
  KILL) [ "$code" = 137 ] || fail "SIGKILL: exit $code, not 137" ;;
  esac
  waited=0
  while [ -n "$(leftovers)" ] && [ $waited -lt 50 ]; do
    sleep 0.1
    waited=$((waited + 1))
  done
  if [ -n "$(leftovers)" ]; then
    fail "SIG$stop: the server outlived the benchmark: $(ps -o pid=,ppid=,args= -p "$(leftovers | paste -sd,)")"
    for leftover in $(leftovers); do kill -KILL "$leftover" 2>/dev/null || true; done
  fi
  if [ "$stop" != KILL ] && [ -e "$folder" ]; then
    fail "SIG$stop: $folder was left behind"
  fi
  rm -rf "$folder"
done

# Too few open files for the games asked for: one sentence and exit 1 before anything starts,
# not a crash.
tried=$((tried + 1))
(
  ulimit -n 40
  bounded --games 2 --seconds 3 --saturate 0
  printf '%s\n' "$code" >"$work/code"
)
code=$(cat "$work/code")
err=$(cat "$work/err")
if [ "$code" != 1 ] || [ -s "$work/out" ] || [ "$(grep -c '' "$work/err")" != 1 ] ||
  ! grep -qF "tictactoe-load: 2 games need 68 open files in each of the benchmark's two processes, and the limit here is 40 (ulimit -n); ask for fewer with --games." "$work/err" ||
  [ -n "$(ls -A "$TMPDIR")" ] || [ -n "$(leftovers)" ]; then
  fail "too few open files: exit $code, stdout [$(cat "$work/out")], stderr [$err]"
fi

# Found on the PATH and run from another folder: it starts its server all the same.
tried=$((tried + 1))
code=0
folder=$(cd "$(dirname "$load")" && pwd)
(cd "$work" && PATH="$folder:$PATH" timeout 60 tictactoe-load \
  --games 2 --seconds 1 --saturate 0 >"$work/out" 2>"$work/err") || code=$?
if [ "$code" != 0 ] || ! grep -q 'no move lost\.$' "$work/out" || [ -s "$work/err" ] ||
  [ -n "$(ls -A "$TMPDIR")" ] || [ -n "$(leftovers)" ]; then
  fail "run from the PATH: exit $code, stdout [$(cat "$work/out")], stderr [$(cat "$work/err")]"
fi

tried=$((tried + 1))
bounded --games 2 --seconds 3 --saturate 0
if [ "$code" != 0 ] || ! grep -q '^Players who think .* moves/s' <<<"$out" ||
  ! grep -q 'no move lost\.$' <<<"$out" || [ -n "$(ls -A "$TMPDIR")" ] || [ -n "$(leftovers)" ]; then
  fail "a short run: exit $code, stdout [$out], stderr [$err]"
fi

[ "$failures" = 0 ] || { echo "load-benchmark: $failures FAILED"; exit 1; }
echo "load-benchmark: $tried runs: bad arguments refused, help printed, no server left behind, figures printed"
