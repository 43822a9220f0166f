#!/usr/bin/env python3
"""A stand-in Gomocup brain for the match and judging scripts' own checks.

It plays the first empty cell in reading order, or with --last the last one. With --settle S it
behaves like a brain whose search winds down for S seconds after it has printed its move: it
reads its input a word at a time, and every word that arrives in that time is dropped, so that
a TURN sent too soon leaves its coordinates to be read as a command of their own, which it
answers with ERROR.
"""

import sys
import time


def main():
    settle = float(sys.argv[sys.argv.index("--settle") + 1]) if "--settle" in sys.argv else 0.0
    last = "--last" in sys.argv
    size = 0
    taken = set()
    busy_until = 0.0
    words = []

    def answer():
        nonlocal busy_until
        cells = [(x, y) for y in range(size) for x in range(size)]
        for x, y in reversed(cells) if last else cells:
            if (x, y) not in taken:
                taken.add((x, y))
                print(f"{x},{y}", flush=True)
                busy_until = time.monotonic() + settle
                return
        print("ERROR the board is full", flush=True)

    while True:
        if not words:
            line = sys.stdin.readline()
            if not line:
                return
            arrived = time.monotonic()
            words = line.split()
            if arrived < busy_until and words and words[0].upper() != "END":
                words = words[1:]  # dropped while winding down, as such brains do
            continue
        word = words.pop(0).upper()
        if word == "END":
            return
        if word == "START":
            size = int(words.pop(0))
            taken.clear()
            print("OK", flush=True)
        elif word == "INFO":
            words = []
        elif word == "BEGIN":
            answer()
        elif word == "TURN":
            x, y = words.pop(0).split(",")
            taken.add((int(x), int(y)))
            answer()
        elif word == "BOARD":
            while True:
                entry = sys.stdin.readline().strip()
                if entry.upper() == "DONE":
                    break
                x, y, _ = entry.split(",")
                taken.add((int(x), int(y)))
            answer()
        else:
            print(f"ERROR Unknown command: {word}", flush=True)
            words = []


if __name__ == "__main__":
    main()
