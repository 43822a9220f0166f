#!/usr/bin/env bash
# The benchmark executable's arguments, tried as a careless or hostile user would: each bad one
# must stop it at once with one sentence on standard error, exit code 2 (1 for a file that
# cannot be read), nothing on standard output and no control character repeated back; --help
# must list the options; good ones must still run.
# Usage: bash Scripts/e2e/benchmark-arguments.sh PATH/TO/tictactoe
#   (tictactoe-benchmarks is expected beside it, from `swift build -c release`)
set -euo pipefail
bench="$(dirname "$1")/tictactoe-benchmarks"
[ -x "$bench" ] || { echo "benchmark-arguments: $bench is not built"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '7,7 8,x\n' >"$work/letters.txt"
printf '7,7 7,7\n' >"$work/taken.txt"
printf '7,7 99,1\n' >"$work/outside.txt"
printf '7,7 -1,3\n' >"$work/negative.txt"
printf '7,7\033[2J,1 8,8\n' >"$work/escape.txt"
printf '7,7 8,8,9\n' >"$work/three.txt"
head -c 100000 /dev/zero | tr '\0' ',' >"$work/commas.txt"
printf '\377\376\n' >"$work/binary.txt"
# A name that would turn a terminal red and clear it, if it were repeated back as it is.
hostile=$'\033[31mred\xc2\x9b2J'
printf '7,7 8,x\n' >"$work/$hostile.txt"

failures=0
tried=0
# refused CODE TEXT ARGUMENTS...: one line on stderr holding TEXT, exit code CODE.
refused() {
  tried=$((tried + 1))
  local status=$1 expected=$2
  shift 2
  local out err code=0
  out=$("$bench" "$@" 2>"$work/err") || code=$?
  err=$(cat "$work/err")
  local lines
  lines=$(printf '%s' "$err" | grep -c '' || true)
  if [ "$code" != "$status" ] || [ -n "$out" ] || [ "$lines" != 1 ] ||
    LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$work/err" ||
    LC_ALL=C grep -q $'\xc2[\x80-\x9f]' "$work/err" ||
    ! grep -qF -- "$expected" "$work/err"; then
    echo "benchmark-arguments: FAILED for $(printf '%q ' "$@" | cut -c 1-200): exit $code, stdout [$out]"
    echo "  stderr: $(cat -v "$work/err")"
    echo "  expected exit $status and one line with: $expected"
    failures=$((failures + 1))
  fi
}
bad() { refused 2 "$@"; }
unreadable() { refused 1 "$@"; }

bad "--solve takes ROWSxCOLUMNS:K" --solve
bad "--solve takes ROWSxCOLUMNS:K" --solve 5x5
bad "--solve takes ROWSxCOLUMNS:K" --solve 5x5x5:4
bad "--solve takes ROWSxCOLUMNS:K" --solve x5:4
bad "it must be 3 to 5" --solve 5x5:9
bad "rows and columns must be 3 to 15" --win 99x9:4
bad "--threats takes a file" --threats
unreadable "cannot read $work/missing.txt." --threats "$work/missing.txt"
unreadable "cannot read $work." --threats "$work"
unreadable 'cannot read /tmp/\u{1B}[31mred\u{9B}2J.' --threats "/tmp/$hostile"
bad "binary.txt is not UTF-8 text." --threats "$work/binary.txt"
bad '\u{1B}[31mred\u{9B}2J.txt, line 1, word 2: not a move' --threats "$work/$hostile.txt"
bad "line 1, word 2: not a move" --threats "$work/letters.txt"
bad "line 1: 7,7: h8 is taken" --threats "$work/taken.txt"
bad "line 1, word 2: not a move" --threats "$work/outside.txt"
bad "line 1, word 2: not a move" --threats "$work/negative.txt"
bad "line 1, word 1: not a move" --threats "$work/escape.txt"
bad "line 1, word 2: not a move" --threats "$work/three.txt"
bad "line 1, word 1: not a move" --threats "$work/commas.txt"
bad "--threat-ms takes a whole number of at least 1" --threats "$work/taken.txt" --threat-ms 0
bad "--seed takes a whole number of at least 0" --seed
bad "--seed takes a whole number of at least 0" --seed -1
bad "--games takes a whole number of at least 1" --skip-4x4 --games abc
bad "--games takes a whole number of at least 1" --games 99999999999999999999999
bad "--ladder-side takes 7 or 15" --ladder-side 9
bad "--seed is given twice" --seed 1 --seed 2
bad "--deep is given twice" --deep --skip-4x4 --deep
bad "unknown option --gmaes; run tictactoe-benchmarks --help for the options." --gmaes 5
bad 'unknown option --x\u{1B}[2J;' $'--x\033[2J'
bad "unknown option --aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…;" \
  "--$(head -c 100000 /dev/zero | tr '\0' 'a')"
bad 'unknown option "" (an empty argument)' --skip-4x4 ""
bad "--games takes its value as the next argument, not after =." --games=5

for help in --help -h; do
  tried=$((tried + 1))
  code=0
  out=$("$bench" $help 2>"$work/err") || code=$?
  if [ "$code" != 0 ] || [ -s "$work/err" ] || ! grep -q '^  --threats FILE ' <<<"$out" ||
    ! grep -q '^  --help, -h ' <<<"$out"; then
    echo "benchmark-arguments: FAILED for $help: exit $code, stderr [$(cat -v "$work/err")]"
    echo "  stdout: $out"
    failures=$((failures + 1))
  fi
done

out=$("$bench" --solve 3x3:3)
grep -q '^3×3, k = 3: draw$' <<<"$out" || {
  echo "benchmark-arguments: --solve 3x3:3 printed [$out]"
  failures=$((failures + 1))
}
head -n 2 "$(dirname "$0")/../../Benchmarks/rapfi-wins.txt" >"$work/two.txt"
out=$("$bench" --threats "$work/two.txt" --threat-ms 20)
grep -q '^found [0-9] of 2 within' <<<"$out" || {
  echo "benchmark-arguments: --threats printed [$out]"
  failures=$((failures + 1))
}

[ "$failures" = 0 ] || { echo "benchmark-arguments: $failures FAILED"; exit 1; }
echo "benchmark-arguments: $tried bad invocations refused in one sentence each, help and good ones run"
