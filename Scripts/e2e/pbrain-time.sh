#!/usr/bin/env bash
# Times each move of `tictactoe pbrain` under a short turn limit, as a tournament manager
# would: on 15×15 and on the small boards (8×8, 7×7) where Unbeatable's guard proves that its
# moves hold, every answer must come within INFO timeout_turn, with a margin for a loaded
# machine far below the second the guard's proofs alone could take.
# Usage: bash Scripts/e2e/pbrain-time.sh PATH_TO_TICTACTOE
set -euo pipefail
binary=${1:?usage: pbrain-time.sh PATH_TO_TICTACTOE}

command -p python3 - "$binary" <<'PY'
import subprocess, sys, time

binary = sys.argv[1]
turn_ms = 150
margin_ms = 150
failures = 0

def play(size, replies):
    """Plays BEGIN and then each reply in `replies`; returns the time of each answer in ms."""
    brain = subprocess.Popen([binary, "pbrain"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, bufsize=1)
    def send(line):
        brain.stdin.write(line + "\n")
        brain.stdin.flush()
    def answer():
        while True:
            line = brain.stdout.readline()
            if not line:
                raise SystemExit(f"pbrain-time.sh: FAILED: the brain ended early on {size}")
            if not line.startswith(("DEBUG", "MESSAGE")):
                return line.strip()
    send(f"INFO timeout_turn {turn_ms}")
    send(f"START {size}" if "," not in size else f"RECTSTART {size}")
    if answer() != "OK":
        raise SystemExit(f"pbrain-time.sh: FAILED: START {size} was not answered OK")
    times = []
    for command in ["BEGIN"] + [f"TURN {reply}" for reply in replies]:
        start = time.monotonic()
        send(command)
        move = answer()
        times.append((time.monotonic() - start) * 1000)
        if "," not in move:
            raise SystemExit(f"pbrain-time.sh: FAILED: {command} on {size} gave {move!r}")
    send("END")
    brain.wait(timeout=10)
    return times

for size, replies in [("15", ["0,0", "14,14", "0,14"]), ("8,8", ["0,0", "7,7", "0,7"]),
                      ("7,7", ["0,0", "6,6", "0,6"])]:
    times = play(size, replies)
    slowest = max(times)
    shown = ", ".join(f"{t:.0f}" for t in times)
    if slowest > turn_ms + margin_ms:
        failures += 1
        print(f"not ok - {size}: moves took {shown} ms, over {turn_ms} ms a turn")
    else:
        print(f"ok - {size}: moves took {shown} ms at {turn_ms} ms a turn")
if failures:
    raise SystemExit(f"pbrain-time.sh: FAILED: {failures} board(s) over the turn limit")
print("pbrain-time.sh: all checks passed")
PY
