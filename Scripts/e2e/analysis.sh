#!/usr/bin/env bash
# Analyses every reachable 3×3 position through `tictactoe analyze -` and checks each answer.
# Usage: bash Scripts/e2e/analysis.sh PATH_TO_TICTACTOE
set -euo pipefail
binary=${1:?usage: analysis.sh PATH_TO_TICTACTOE}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The positions come from an independent walk of the game tree, written here in Python.
command -p python3 - "$work/positions.txt" <<'PY'
import sys
lines = [(0,1,2),(3,4,5),(6,7,8),(0,3,6),(1,4,7),(2,5,8),(0,4,8),(2,4,6)]
def won(b, m): return any(all(b[i] == m for i in l) for l in lines)
seen = {"." * 9}
frontier = ["." * 9]
while frontier:
    following = []
    for b in frontier:
        if won(b, "x") or won(b, "o") or "." not in b:
            continue
        mark = "x" if b.count("x") == b.count("o") else "o"
        for i, c in enumerate(b):
            if c == ".":
                child = b[:i] + mark + b[i + 1:]
                if child not in seen:
                    seen.add(child)
                    following.append(child)
    frontier = following
with open(sys.argv[1], "w") as out:
    for b in sorted(seen):
        out.write(f"{b[0:3]}/{b[3:6]}/{b[6:9]}\n")
PY

start=$(date +%s.%N)
"$binary" analyze - --json < "$work/positions.txt" > "$work/results.jsonl"
end=$(date +%s.%N)
elapsed=$(command -p python3 -c "print(f'{$end - $start:.3f}')")

command -p python3 - "$work/positions.txt" "$work/results.jsonl" <<'PY'
import json, sys
positions = open(sys.argv[1]).read().split()
results = [json.loads(line) for line in open(sys.argv[2])]
assert len(results) == len(positions) == 5478, (len(results), len(positions))
values = {"win": 0, "draw": 0, "loss": 0}
for position, result in zip(positions, results):
    assert result["position"] == position, (position, result["position"])
    if result["outcome"] == "inProgress":
        assert result["moves"], position
        best = [m for m in result["moves"] if m["cell"] in result["best"]]
        assert all(m["value"] == result["value"] and m["plies"] == result["plies"] for m in best), position
    else:
        assert result["moves"] == [] and result["plies"] == 0, position
    values[result["value"]] += 1
empty = results[positions.index(".../.../...")]
assert empty["value"] == "draw" and empty["plies"] == 9 and len(empty["best"]) == 9, empty
print(f"analysis: 5478 positions checked ({values})")
PY
echo "analysis: analyze - over 5,478 positions took $elapsed s (whole process)"
# A ceiling well above the measured figure, so a slow machine passes but a regression does not.
command -p python3 -c "import sys; sys.exit(0 if $elapsed < 5 else 1)" ||
  { echo "analysis: slower than the 5 s ceiling"; exit 1; }
