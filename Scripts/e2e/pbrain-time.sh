#!/usr/bin/env bash
# Times each move of `tictactoe pbrain` under a short turn limit, as a tournament manager
# would: on 15×15 (from the start, and from a crowded position full of fours) and on the small
# boards (8×8, 7×7) where Unbeatable's guard proves that its
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

def play(size, replies, board=None, turn_ms=turn_ms):
    """Plays BEGIN (or, given `board`, a BOARD of those stones, the brain's own first) and
    then each reply in `replies`; returns the time of each answer in ms."""
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
    first = "BEGIN"
    if board is not None:
        send("BOARD")
        own = len(board) % 2
        for index, stone in enumerate(board):
            send(f"{stone},{1 if index % 2 == own else 2}")
        first = "DONE"
    for command in [first] + [f"TURN {reply}" for reply in replies]:
        start = time.monotonic()
        send(command)
        move = answer()
        times.append((time.monotonic() - start) * 1000)
        if "," not in move:
            raise SystemExit(f"pbrain-time.sh: FAILED: {command} on {size} gave {move!r}")
    send("END")
    brain.wait(timeout=10)
    return times

# After these 47 stones the side to move has many fours to chain, which once took seconds.
many_fours = """5,7 6,9 5,8 7,8 5,10 5,9 4,9 6,7 6,11 3,8 5,6 7,9 6,6 7,7 7,6 8,6 6,8 8,9 9,9 8,7 8,8
    3,6 7,5 8,4 8,5 5,5 9,5 10,5 9,6 10,7 9,7 9,8 11,6 3,7 3,9 4,8 6,10 4,6 2,8 2,6 1,5 3,5
    3,4 4,4 9,4 9,3 5,3""".split()
# A short turn too, where the guard's proofs must stop at the clock between positions.
for size, replies, board, turn in [("15", ["0,0", "14,14", "0,14"], None, turn_ms),
                                   ("8,8", ["0,0", "7,7", "0,7"], None, turn_ms),
                                   ("7,7", ["0,0", "6,6", "0,6"], None, turn_ms),
                                   ("15", [], many_fours, turn_ms),
                                   ("8,8", ["0,0", "7,7", "0,7"], None, 30),
                                   ("7,7", ["0,0", "6,6", "0,6"], None, 30)]:
    times = play(size, replies, board, turn)
    slowest = max(times)
    shown = ", ".join(f"{t:.0f}" for t in times)
    label = f"{size} after {len(board)} stones" if board else size
    if slowest > turn + margin_ms:
        failures += 1
        print(f"not ok - {label}: moves took {shown} ms, over {turn} ms a turn")
    else:
        print(f"ok - {label}: moves took {shown} ms at {turn} ms a turn")
if failures:
    raise SystemExit(f"pbrain-time.sh: FAILED: {failures} board(s) over the turn limit")
print("pbrain-time.sh: all checks passed")
PY
