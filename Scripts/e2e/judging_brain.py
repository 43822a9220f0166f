#!/usr/bin/env python3
"""A stand-in judge for the judging script's own check.

Given a position (BOARD … DONE) it prints `MESSAGE … Eval V …` as Rapfi does, with V 200 for
each stone of the side to move in the first column, -400 for each in the last, and the opposite
for the other side's stones, and plays the first empty cell. Like a brain with a transposition table, it reads a position it
judged before more deeply, and then calls it 100 better for the side to move, unless
YXHASHCLEAR emptied its memory in between. It accepts INFO max_node and any other INFO.
"""

import sys


def main():
    size = 15
    seen = set()
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        words = line.split()
        if not words:
            continue
        command = words[0].upper()
        if command == "END":
            return
        if command == "START":
            size = int(words[1])
            print("OK", flush=True)
        elif command == "YXHASHCLEAR":
            seen.clear()
            print("MESSAGE Transposition table cleared.", flush=True)
        elif command == "INFO":
            continue
        elif command == "BOARD":
            stones = []
            while True:
                entry = sys.stdin.readline().strip()
                if entry.upper() == "DONE":
                    break
                x, y, field = (int(part) for part in entry.split(","))
                stones.append((x, y, field))
            worth = {0: 200, size - 1: -400}
            value = sum(worth.get(x, 0) * (1 if field == 1 else -1) for x, _, field in stones)
            key = frozenset(stones)
            if key in seen:
                value += 100
            seen.add(key)
            print(f"MESSAGE Depth 1-1 | Eval {value} | Node 1", flush=True)
            taken = {(x, y) for x, y, _ in stones}
            move = next((x, y) for y in range(size) for x in range(size) if (x, y) not in taken)
            print(f"{move[0]},{move[1]}", flush=True)
        else:
            print(f"ERROR Unknown command: {command}", flush=True)


if __name__ == "__main__":
    main()
