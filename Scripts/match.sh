#!/usr/bin/env bash
# Plays two Gomocup (Piskvork protocol) brains against each other on paired openings: each
# opening twice, colours swapped. Any pbrain engine works: ours, an earlier build of ours, or
# another program built elsewhere.
#
#   Scripts/match.sh ENGINE_A ENGINE_B [--openings N] [--time-ms T] [--time-ms-b T]
#                    [--size S] [--seed S] [--memory BYTES] [--log FILE]
#                    [--name-a NAME] [--name-b NAME] [--positions FILE]
#
# --time-ms-b gives ENGINE_B its own time a move: a handicap, to measure how far apart two
# brains of unequal strength are. --positions starts the games from the positions of a file,
# one a line as x,y moves (Benchmarks/rapfi-wins.txt is such a file), instead of three stones
# dealt at random, and counts each brain's wins with the side to move.
#
# For example, ours against ours, two openings at 100 ms a move:
#   swift build -c release --product pbrain-tictactoe
#   Scripts/match.sh .build/release/pbrain-tictactoe .build/release/pbrain-tictactoe \
#     --openings 2 --time-ms 100
#
# Prints each game and the score; exits 1 if a brain was late, crashed or played illegally.
set -euo pipefail
exec python3 "$(dirname "$0")/pbrain_match.py" "$@"
