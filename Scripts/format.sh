#!/usr/bin/env bash
# Formats every Swift file in place, then lints strictly. With --lint, only lints.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.swift')
if [ "${1:-}" != "--lint" ]; then
  swift format format --parallel --in-place "${files[@]}"
fi
swift format lint --strict --parallel "${files[@]}"
