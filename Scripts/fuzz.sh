#!/usr/bin/env bash
# Runs one libFuzzer target for a number of seconds: Scripts/fuzz.sh fuzz-notation 60
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: Scripts/fuzz.sh fuzz-notation|fuzz-arguments|fuzz-protocol SECONDS}
seconds=${2:-60}
if ! log=$(swift build --scratch-path .build-fuzz --product "$target" \
  -Xswiftc -sanitize=fuzzer,address 2>&1); then
  echo "$log" | tail -n 30
  exit 1
fi
corpus=$(mktemp -d)
cp Fuzz/Corpus/"${target#fuzz-}"/* "$corpus"/ 2>/dev/null || true
mkdir -p artifacts
status=0
SWIFT_BACKTRACE=enable=no .build-fuzz/debug/"$target" -max_total_time="$seconds" \
  -artifact_prefix=artifacts/ -print_final_stats=1 "$corpus" 2>&1 | tail -n 12 || status=$?
rm -rf "$corpus"
if [ "$status" -ne 0 ]; then
  echo "$target found a failure (exit $status); see artifacts/"
  exit 1
fi
echo "$target: no failure in $seconds s"
