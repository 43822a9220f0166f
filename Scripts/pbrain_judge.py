#!/usr/bin/env python3
"""Judges the moves of Gomocup (Piskvork protocol) brains with a stronger brain.

Positions are taken from the games a match printed (`pbrain_match.py` output: one `game …`
line per game), prefixes of between --least and --most stones. The judge evaluates each
position first, and only those it does not already call decided (a win rate between 12 % and
88 % for the side to move) are kept, up to --count. Then each engine chooses its move in each
kept position at --time-ms a move, and the judge evaluates the position after it, with the
engine's opponent to move; the engine's score there is one minus the judge's win rate. A move
whose score is 0.25 or more below the judge's win rate for the position before it is a blunder;
each engine's blunders are counted.

All engines play the same positions, so the first engine is the reference: for each other one
the script prints the mean difference of its scores from the reference's and the standard error
of that mean. One move tells little: over 150 positions two runs of one build differed by
0.003 ± 0.006, and Rapfi's own moves scored only 0.009 ± 0.012 and 0.015 ± 0.012 above ours in
two runs, with 11 blunders against 13, although Rapfi wins most games at that time (see the
README). It finds large differences, not small ones.

The judge must print its evaluation as Rapfi does (`MESSAGE … Eval 53 …`, `Eval +M39` for a
win in 39 plies, `Eval -M12` for a loss), accept `INFO max_node`, which makes its judgement a
fixed amount of work rather than of time, and `YXHASHCLEAR`, which empties its tables before
each judgement: with them kept, the judge reads a position it has just judged deeper the second
time, and every engine after the first is judged more harshly (by 0.01 to 0.03 here). A win
rate is 1 / (1 + exp(-eval / --scale)).

Usage: pbrain_judge.py JUDGE ENGINE [ENGINE …] --games FILE [FILE …] [--count N]
                       [--time-ms T] [--judge-nodes N] [--least N] [--most N] [--seed S]
                       [--positions FILE]

With --positions, the kept positions are read from that file when it exists, and written to it
otherwise, so that later runs judge exactly the same positions. Only the standard library is
used.
"""

import argparse
import json
import math
import os
import random
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pbrain_match import Brain, BrainError, positive  # noqa: E402

EVAL = re.compile(r"\bEval ([-+]?M?\d+)")
# A brain may drop a command that arrives while its search winds down after its answer.
SETTLE = 0.03
UNDECIDED = (0.12, 0.88)
SIZE = 15
MEMORY = 350_000_000
# A move that loses this much of the win rate the judge gives the position before it.
BLUNDER = 0.25


def prefixes(files, least, most):
    """Every distinct prefix of `least` to `most` stones of the games in `files`, leaving at
    least six stones of each game after it."""
    seen = set()
    result = []
    for name in files:
        with open(name) as games:
            for number, line in enumerate(games, 1):
                if not line.startswith("game ") or "stones: " not in line:
                    continue
                moves = []
                for word in line.split("stones: ", 1)[1].split():
                    parts = word.split(",")
                    if len(parts) != 2 or not all(part.isdigit() for part in parts):
                        raise ValueError(f"{name}, line {number}: a stone is not x,y")
                    moves.append((int(parts[0]), int(parts[1])))
                for count in range(least, min(most, len(moves) - 6) + 1):
                    prefix = tuple(moves[:count])
                    if prefix not in seen:
                        seen.add(prefix)
                        result.append([list(move) for move in prefix])
    return result


def choose(brain, moves, nodes=None):
    """The brain's move in the position `moves` lead to, with the MESSAGE lines it printed.

    With `nodes` (the judge), the brain first empties its tables, so that what it learnt
    judging one engine's move does not deepen its judgement of the next engine's."""
    time.sleep(SETTLE)
    if brain.process is None:
        brain.launch()
    if nodes:
        brain.send("YXHASHCLEAR")
    brain.start(SIZE, MEMORY)
    if nodes:
        brain.send(f"INFO max_node {nodes}")
    brain.send("BOARD")
    mover = len(moves) % 2
    for index, (x, y) in enumerate(moves):
        brain.send(f"{x},{y},{1 if index % 2 == mover else 2}")
    brain.send("DONE")
    messages = []
    x, y = brain.answer(time.monotonic() + brain.time_ms / 1000 + 3, messages=messages)
    if not (0 <= x < SIZE and 0 <= y < SIZE) or [x, y] in moves:
        raise BrainError(f"{brain.name} played {x},{y}, which is illegal")
    return (x, y), messages


def win_rate(messages, scale):
    """The side to move's win rate from the judge's last evaluation, or None."""
    for line in reversed(messages):
        found = EVAL.search(line)
        if found:
            value = found.group(1)
            if "M" in value:
                return 0.0 if value.startswith("-") else 1.0
            return 1 / (1 + math.exp(-int(value) / scale))
    return None


def saved_positions(path):
    """The positions a run saved in `path`, each a list of [x, y] stones."""
    with open(path) as saved:
        try:
            positions = json.load(saved)
        except ValueError as error:
            raise ValueError(f"{path}: not a file of positions ({error})") from None
    if not isinstance(positions, list) or not all(
            isinstance(moves, list) and all(
                isinstance(stone, list) and len(stone) == 2
                and all(type(part) is int and part >= 0 for part in stone)
                for stone in moves)
            for moves in positions):
        raise ValueError(f"{path}: not a file of positions (each a list of [x, y] stones)")
    return positions


def judged(judge, moves, nodes, scale):
    rate = win_rate(choose(judge, moves, nodes)[1], scale)
    if rate is None:
        raise BrainError(f"{judge.name} printed no evaluation")
    return rate


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("judge")
    parser.add_argument("engines", nargs="+")
    parser.add_argument("--games", nargs="+", required=True, help="pbrain_match.py outputs")
    parser.add_argument("--count", type=positive, default=150, help="positions to judge")
    parser.add_argument("--time-ms", type=positive, default=300, help="the engines' time a move")
    parser.add_argument("--judge-nodes", type=positive, default=400_000)
    parser.add_argument("--scale", type=positive, default=200, help="the judge's eval scale")
    parser.add_argument("--least", type=positive, default=3, help="fewest stones a position")
    parser.add_argument("--most", type=positive, default=16, help="most stones a position")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--positions", help="a file of kept positions to read or write")
    arguments = parser.parse_args()
    judge = Brain(arguments.judge.split(), "judge", None, 60_000)
    engines = [Brain(command.split(), f"E{index}", None, arguments.time_ms)
               for index, command in enumerate(arguments.engines)]
    try:
        # The judge's win rate for each position judged while choosing them, by position.
        rates = {}
        if arguments.positions and os.path.exists(arguments.positions):
            positions = saved_positions(arguments.positions)[:arguments.count]
        else:
            candidates = prefixes(arguments.games, arguments.least, arguments.most)
            random.Random(arguments.seed).shuffle(candidates)
            positions = []
            for moves in candidates:
                if len(positions) == arguments.count:
                    break
                rate = judged(judge, moves, arguments.judge_nodes, arguments.scale)
                if UNDECIDED[0] < rate < UNDECIDED[1]:
                    positions.append(moves)
                    rates[str(moves)] = rate
            if arguments.positions:
                with open(arguments.positions, "w") as saved:
                    json.dump(positions, saved)
        print(f"{len(positions)} positions the judge does not call decided", flush=True)
        scores = [[] for _ in engines]
        chosen = [[] for _ in engines]
        blunders = [0 for _ in engines]
        for number, moves in enumerate(positions):
            before = rates.get(str(moves))
            if before is None:
                before = judged(judge, moves, arguments.judge_nodes, arguments.scale)
            row = []
            for index, engine in enumerate(engines):
                move, _ = choose(engine, moves)
                score = 1 - judged(judge, moves + [list(move)], arguments.judge_nodes,
                                   arguments.scale)
                scores[index].append(score)
                chosen[index].append(move)
                if before - score >= BLUNDER:
                    blunders[index] += 1
                row.append(f"{move[0]},{move[1]} {score:.2f}")
            print(f"position {number + 1} ({len(moves)} stones, {before:.2f} before): "
                  + " | ".join(row), flush=True)
    except BrainError as error:
        print(f"pbrain_judge.py: {error}", file=sys.stderr)
        return 1
    except (OSError, ValueError) as error:
        # A missing or unreadable file or program, a bad games or positions file.
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        where = f"{error.filename}: " if isinstance(error, OSError) and error.filename else ""
        print(f"pbrain_judge.py: {where}{reason}.", file=sys.stderr)
        return 2
    finally:
        for brain in [judge] + engines:
            brain.close()
    for index, command in enumerate(arguments.engines):
        mean = sum(scores[index]) / max(1, len(scores[index]))
        print(f"E{index} {command}: mean score {mean:.4f} over {len(scores[index])} positions, "
              f"{blunders[index]} blunders")
    for index in range(1, len(engines)):
        differences = [mine - theirs for mine, theirs in zip(scores[index], scores[0])]
        same = sum(1 for mine, theirs in zip(chosen[index], chosen[0]) if mine == theirs)
        count = len(differences)
        mean = sum(differences) / max(1, count)
        spread = math.sqrt(sum((d - mean) ** 2 for d in differences) / max(1, count - 1))
        print(f"E{index} - E0: {mean:+.4f} ± {spread / math.sqrt(max(1, count)):.4f} "
              f"(standard error; the same move as E0 in {same} positions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
