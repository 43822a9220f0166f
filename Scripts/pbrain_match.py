#!/usr/bin/env python3
"""Plays two Gomocup (Piskvork protocol) brains against each other.

Each opening is played twice with the colours swapped, so that neither brain gains from the
opening it happens to get. The manager enforces the time per move: a brain that answers late
loses that game, as does one that crashes, answers nonsense or plays an illegal move.

Usage: pbrain_match.py ENGINE_A ENGINE_B [--openings N] [--time-ms T] [--time-ms-b T]
                       [--size S] [--seed S] [--memory BYTES] [--log FILE]
                       [--positions FILE]

With --time-ms-b, ENGINE_B has that many milliseconds a move instead of --time-ms: a time
handicap, to measure how far apart two brains of unequal strength are.

With --positions, the openings are the positions of FILE instead of three stones dealt at
random: one a line, as x,y moves from the empty board (words without a comma, such as a label,
are skipped, as are blank lines and lines that start with #), every one of them unless
--openings N takes the first N. Each is still played twice with the colours swapped, and the
summary says how often each brain won with the side to move after the opening: from positions
where that side has a forced win, how often it converts.

Prints one line per game and a summary; exits 0 when every game finished without a fault of
either brain (timeouts, crashes and illegal moves are faults), else 1. Only the standard
library is used.
"""

import argparse
import os
import random
import select
import subprocess
import sys
import time

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
SETTLE = 0.01


class BrainError(Exception):
    """A brain broke the protocol, crashed or ran out of time."""


class Brain:
    """One brain process and the lines it writes."""

    def __init__(self, command, name, log, time_ms):
        self.command = command
        self.time_ms = time_ms
        self.name = name
        self.log = log
        self.process = None
        self.buffer = b""

    def launch(self):
        self.close()
        # Brains such as Rapfi read their configuration from the folder they live in.
        program = os.path.abspath(self.command[0])
        self.process = subprocess.Popen(
            [program] + self.command[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, cwd=os.path.dirname(program))
        self.buffer = b""

    def send(self, line):
        if self.log:
            self.log.write(f"> {self.name}: {line}\n")
        try:
            self.process.stdin.write((line + "\n").encode())
            self.process.stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise BrainError(f"{self.name} closed its input ({error})")

    def read_line(self, deadline):
        """The next line the brain writes, or BrainError at the deadline or end of output."""
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrainError(f"{self.name} did not answer in time")
            ready, _, _ = select.select([self.process.stdout], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.process.stdout.fileno(), 65536)
            if not chunk:
                raise BrainError(f"{self.name} ended its output")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        text = line.decode(errors="replace").strip()
        if self.log:
            self.log.write(f"< {self.name}: {text}\n")
        return text

    def answer(self, deadline, expect_ok=False, messages=None):
        """The brain's answer, skipping MESSAGE and DEBUG lines (kept in `messages` when given):
        OK, or a move as (x, y)."""
        while True:
            line = self.read_line(deadline)
            word = line.split(" ", 1)[0].upper()
            if word in ("MESSAGE", "DEBUG", "SUGGEST"):
                if messages is not None:
                    messages.append(line)
                continue
            if word in ("ERROR", "UNKNOWN"):
                raise BrainError(f"{self.name} answered {line!r}")
            if expect_ok:
                if line.upper() != "OK":
                    raise BrainError(f"{self.name} answered {line!r} instead of OK")
                return None
            parts = line.split(",")
            if len(parts) != 2 or not all(p.strip().lstrip("-").isdigit() for p in parts):
                raise BrainError(f"{self.name} answered {line!r} instead of a move")
            return int(parts[0]), int(parts[1])

    def start(self, size, memory):
        """Starts a game on a `size` board: START, then the settings of a freestyle game with
        this brain's time a move, no match clock and `memory` bytes."""
        self.send(f"START {size}")
        self.answer(time.monotonic() + 10, expect_ok=True)
        self.send(f"INFO timeout_turn {self.time_ms}")
        self.send("INFO timeout_match 0")
        self.send(f"INFO max_memory {memory}")
        self.send("INFO rule 0")

    def close(self):
        if self.process is None:
            return
        try:
            self.send("END")
            self.process.wait(timeout=2)
        except (BrainError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        self.process = None


def five(board, size, x, y):
    """Whether the stone at (x, y) is in a line of five or more of its colour."""
    colour = board[y][x]
    for dx, dy in DIRECTIONS:
        count = 1
        for sign in (1, -1):
            cx, cy = x + sign * dx, y + sign * dy
            while 0 <= cx < size and 0 <= cy < size and board[cy][cx] == colour:
                count += 1
                cx, cy = cx + sign * dx, cy + sign * dy
        if count >= 5:
            return True
    return False


def openings(count, size, seed):
    """`count` openings of three stones (black, white, black) near the centre."""
    generator = random.Random(seed)
    centre = size // 2
    result = []
    while len(result) < count:
        cells = set()
        while len(cells) < 3:
            cells.add((centre + generator.randint(-2, 2), centre + generator.randint(-2, 2)))
        opening = sorted(cells)
        generator.shuffle(opening)
        if opening not in result:
            result.append(opening)
    return result


def read_positions(path, size):
    """The positions of the file at `path`, each a list of (x, y) moves from the empty board.

    Raises ValueError with one sentence when the file cannot be read or a line is not a
    position that can be played on: a move off the board or on a taken cell, five in a row
    already, or a full board. Words of the file are never repeated back, only their places."""
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read()
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else "not UTF-8"
        raise ValueError(f"cannot read the positions file ({reason})") from None
    positions = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        board = [[None] * size for _ in range(size)]
        moves = []
        for place, word in enumerate(line.split(), start=1):
            if "," not in word:
                continue
            parts = word.split(",")
            where = f"line {number}, word {place}"
            if len(parts) != 2 or not all(part.isascii() and part.isdigit() for part in parts):
                raise ValueError(f"{where} of the positions file is not a move x,y")
            # A number longer than any side is off the board, however many digits it has.
            x, y = (int(part) if len(part) <= 3 else size for part in parts)
            if not (x < size and y < size):
                raise ValueError(f"{where} of the positions file is off the {size}×{size} board")
            if board[y][x] is not None:
                raise ValueError(f"{where} of the positions file plays on a taken cell")
            if moves and five(board, size, *moves[-1]):
                raise ValueError(f"{where} of the positions file comes after five in a row")
            board[y][x] = "black" if len(moves) % 2 == 0 else "white"
            moves.append((x, y))
        if not moves:
            raise ValueError(f"line {number} of the positions file holds no move x,y")
        if five(board, size, *moves[-1]):
            raise ValueError(f"line {number} of the positions file already has five in a row")
        if len(moves) == size * size:
            raise ValueError(f"line {number} of the positions file fills the board")
        positions.append(moves)
    if not positions:
        raise ValueError("the positions file holds no position")
    return positions


def play(black, white, opening, size, memory):
    """Plays one game; returns (winner: 'black', 'white' or None, reason, moves, times)."""
    board = [[None] * size for _ in range(size)]
    moves = []
    times = {black.name: [], white.name: []}
    brains = {"black": black, "white": white}
    for brain in (black, white):
        brain.launch()
        brain.start(size, memory)
        brain.send("INFO game_type 1")
    for index, (x, y) in enumerate(opening):
        board[y][x] = "black" if index % 2 == 0 else "white"
        moves.append((x, y))
    started = {"black": False, "white": False}
    # When each brain last answered: some brains (Rapfi 0.43 among them) print their move a
    # moment before their search has wound down, and drop a TURN that arrives in between, so
    # a brain is sent its next turn no sooner than SETTLE seconds after its last answer. Its
    # clock starts when the turn is sent, so the wait costs neither brain any time.
    answered = {"black": 0.0, "white": 0.0}
    colour = "black" if len(opening) % 2 == 0 else "white"
    while True:
        brain = brains[colour]
        other = "white" if colour == "black" else "black"
        time_ms = brain.time_ms
        # A brain that is late loses, with a little slack for the process switch, and two more
        # seconds for its first move, when some brains load weights and allocate their tables.
        slack = 0.05 + time_ms / 1000 * 0.05
        try:
            begin = time.monotonic()
            allowed = time_ms / 1000 + slack
            if not started[colour]:
                started[colour] = True
                allowed += 2
                brain.send("BOARD")
                for mx, my in moves:
                    field = 1 if board[my][mx] == colour else 2
                    brain.send(f"{mx},{my},{field}")
                begin = time.monotonic()
                brain.send("DONE")
            else:
                last = moves[-1]
                time.sleep(max(0.0, answered[colour] + SETTLE - time.monotonic()))
                begin = time.monotonic()
                brain.send(f"TURN {last[0]},{last[1]}")
            x, y = brain.answer(begin + allowed)
            answered[colour] = time.monotonic()
            times[brain.name].append((time.monotonic() - begin, allowed > time_ms / 1000 + 1))
        except BrainError as error:
            return other, f"fault: {error}", moves, times
        if not (0 <= x < size and 0 <= y < size) or board[y][x] is not None:
            return other, f"fault: {brain.name} played {x},{y}, which is illegal", moves, times
        board[y][x] = colour
        moves.append((x, y))
        if five(board, size, x, y):
            return colour, "five in a row", moves, times
        if len(moves) == size * size:
            return None, "board full", moves, times
        colour = other


def positive(text):
    """A whole number above 0, for argparse."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number above 0")
    return value


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine_a")
    parser.add_argument("engine_b")
    parser.add_argument("--openings", type=positive, default=None,
                        help="openings, each played twice (2, or every position of --positions)")
    parser.add_argument("--time-ms", type=positive, default=1000, help="milliseconds a move")
    parser.add_argument("--time-ms-b", type=positive, default=None,
                        help="ENGINE_B's milliseconds a move, if not --time-ms")
    parser.add_argument("--size", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--memory", type=int, default=350_000_000, help="max_memory in bytes")
    parser.add_argument("--log", help="write every line of the protocol to this file")
    parser.add_argument("--positions", help="a file of positions to start from, one a line")
    parser.add_argument("--name-a", default=None)
    parser.add_argument("--name-b", default=None)
    arguments = parser.parse_args()
    if arguments.positions:
        try:
            # Without --openings, every position of the file is played.
            starts = read_positions(arguments.positions, arguments.size)[:arguments.openings]
        except ValueError as error:
            print(f"pbrain_match.py: {error}.", file=sys.stderr)
            return 2
    else:
        starts = openings(arguments.openings or 2, arguments.size, arguments.seed)
    log = open(arguments.log, "w") if arguments.log else None
    a = Brain(arguments.engine_a.split(), arguments.name_a or "A", log, arguments.time_ms)
    b = Brain(arguments.engine_b.split(), arguments.name_b or "B", log,
              arguments.time_ms_b or arguments.time_ms)
    score = {a.name: 0.0, b.name: 0.0}
    results = {a.name: [0, 0, 0], b.name: [0, 0, 0]}  # wins, draws, losses
    faults = 0
    all_times = {a.name: [], b.name: []}
    game = 0
    # Games each brain played, and won, with the side to move after the opening.
    to_move = {a.name: [0, 0], b.name: [0, 0]}
    for number, opening in enumerate(starts):
        for black, white in ((a, b), (b, a)):
            game += 1
            winner, reason, moves, times = play(
                black, white, opening, arguments.size, arguments.memory)
            for name in times:
                all_times[name] += times[name]
            if reason.startswith("fault"):
                faults += 1
            first = black if len(opening) % 2 == 0 else white
            to_move[first.name][0] += 1
            if winner is None:
                score[a.name] += 0.5
                score[b.name] += 0.5
                results[a.name][1] += 1
                results[b.name][1] += 1
                result = "draw"
            else:
                winning = black if winner == "black" else white
                losing = white if winner == "black" else black
                score[winning.name] += 1
                results[winning.name][0] += 1
                results[losing.name][2] += 1
                result = f"{winning.name} wins"
                if winning is first:
                    to_move[first.name][1] += 1
            record = " ".join(f"{x},{y}" for x, y in moves)
            print(f"game {game} (opening {number + 1}, {black.name} black): {result}, "
                  f"{reason}, {len(moves)} stones: {record}", flush=True)
    a.close()
    b.close()
    games = game
    for brain in (a, b):
        wins, draws, losses = results[brain.name]
        moves = [elapsed for elapsed, first in all_times[brain.name] if not first]
        longest = max(moves) * 1000 if moves else 0
        mean = sum(moves) / len(moves) * 1000 if moves else 0
        over = sum(1 for elapsed in moves if elapsed > brain.time_ms / 1000)
        print(f"{brain.name}: {score[brain.name]:g} of {games} "
              f"({100 * score[brain.name] / max(games, 1):.1f} %), {wins} wins, {draws} draws, "
              f"{losses} losses; after its first move of a game: mean {mean:.0f} ms, "
              f"longest {longest:.0f} ms, {over} of {len(moves)} over {brain.time_ms} ms; "
              f"with the side to move after the opening, won {to_move[brain.name][1]} of "
              f"{to_move[brain.name][0]}")
    print(f"faults: {faults}")
    if log:
        log.close()
    return 0 if faults == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
