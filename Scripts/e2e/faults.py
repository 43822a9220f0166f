#!/usr/bin/env python3
"""Fault injection against the tictactoe binary: nothing acknowledged is ever lost.

Kills games with SIGKILL at random moments and the instant a move is shown (plain mode and full
screen under tmux), fills the file system mid-game, damages the pages of a real database, and
runs two sessions on one database. After every trial it compares the moves the player was told
about with the moves in the database, and at the end prints

    moves acknowledged / moves stored: A / S

failing unless the two are equal. Usage: faults.py PATH_TO_TICTACTOE [--quick]
"""

import hashlib
import os
import random
import re
import select
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

SENTENCE = re.compile(rb"^([XO]) plays ([a-o][0-9]+)\.$")
ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")
LINES = [(r, c) for r in range(3) for c in range(3)]
WINS = [
    [(0, 0), (0, 1), (0, 2)], [(1, 0), (1, 1), (1, 2)], [(2, 0), (2, 1), (2, 2)],
    [(0, 0), (1, 0), (2, 0)], [(0, 1), (1, 1), (2, 1)], [(0, 2), (1, 2), (2, 2)],
    [(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)],
]


def name(cell):
    return "abc"[cell[1]] + str(cell[0] + 1)


def digit(cell):
    return str(cell[0] * 3 + cell[1] + 1)


def random_game(rng, length):
    """Up to `length` legal moves of a 3x3 game, stopping when it ends."""
    free = list(LINES)
    rng.shuffle(free)
    moves = []
    for cell in free[:length]:
        moves.append(cell)
        mine = set(moves[len(moves) - 1 :: -2])
        if any(all(c in mine for c in line) for line in WINS):
            break
    return moves


class Failures:
    def __init__(self):
        self.messages = []

    def __call__(self, message):
        self.messages.append(message)
        print("faults: FAIL: " + message, file=sys.stderr)


class Tally:
    """Moves acknowledged to the player against moves found in the database."""

    def __init__(self, fail):
        self.fail = fail
        self.acknowledged = 0
        self.stored = 0
        self.ahead = 0
        self.trials = 0
        self.parts = {}

    def check(self, label, shown, stored, part):
        """`shown`: moves as the player was told them, in order; `stored`: the database's."""
        self.trials += 1
        self.acknowledged += len(shown)
        kept = 0
        while kept < len(shown) and kept < len(stored) and stored[kept] == shown[kept]:
            kept += 1
        self.stored += kept
        totals = self.parts.setdefault(part, [0, 0, 0])
        totals[0] += 1
        totals[1] += len(shown)
        totals[2] += kept
        if kept < len(shown):
            self.fail(
                f"{label}: told {len(shown)} moves {shown}, the database holds {stored}")
        elif len(stored) > len(shown):
            # Stored before the process died, not yet said: nothing was lost.
            self.ahead += len(stored) - len(shown)


def stored_moves(database, x_name, o_name):
    """The moves of the longest game (saved or finished) between the two names."""
    if not os.path.exists(database):
        return []
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5)
    try:
        best = []
        for (game_id,) in connection.execute(
            "SELECT id FROM games WHERE x_name = ? AND o_name = ?", (x_name, o_name)
        ):
            moves = [
                "abc"[column] + str(row + 1) if column < 3 else f"{row},{column}"
                for row, column in connection.execute(
                    "SELECT cell_row, cell_column FROM moves WHERE game_id = ? ORDER BY ply",
                    (game_id,),
                )
            ]
            if len(moves) > len(best):
                best = moves
        return best
    finally:
        connection.close()


class Plain:
    """A plain-mode game on pipes."""

    def __init__(self, binary, database, x_name="Ann", o_name="Bob", extra=()):
        self.process = subprocess.Popen(
            [binary, "play", "--plain", "--computer", "none", "--x", x_name, "--o", o_name,
             "--database", database, *extra],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=dict(os.environ, LC_ALL="C.UTF-8"))
        self.output = b""
        self.error = b""
        os.set_blocking(self.process.stdout.fileno(), False)
        os.set_blocking(self.process.stderr.fileno(), False)

    def send(self, line):
        try:
            self.process.stdin.write(line.encode() + b"\n")
            self.process.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass

    def close_input(self):
        try:
            self.process.stdin.close()
        except BrokenPipeError:
            pass

    def read(self, timeout):
        """Reads what is available within `timeout` seconds; returns the new stdout bytes."""
        streams = [self.process.stdout, self.process.stderr]
        ready, _, _ = select.select(streams, [], [], timeout)
        new = b""
        for stream in ready:
            try:
                chunk = os.read(stream.fileno(), 65536)
            except BlockingIOError:
                chunk = b""
            if stream is self.process.stdout:
                self.output += chunk
                new += chunk
            else:
                self.error += chunk
        return new

    def wait_for(self, pattern, timeout=10):
        deadline = time.monotonic() + timeout
        while pattern not in self.output and time.monotonic() < deadline:
            if self.process.poll() is not None and not self.read(0):
                break
            self.read(0.05)
        return pattern in self.output

    def sentences(self):
        return [
            m.group(2).decode()
            for m in (SENTENCE.match(line.strip()) for line in self.output.split(b"\n"))
            if m
        ]

    def kill(self):
        try:
            self.process.send_signal(signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.finish()

    def finish(self, timeout=10):
        try:
            self.process.stdin.close()
        except (BrokenPipeError, ValueError):
            pass
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None and not self.read(0.01):
                break
            self.read(0.05)
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        return self.process.returncode


def plain_trials(binary, work, template, tally, rng, count, at_sentence):
    kills = 0
    for trial in range(count):
        database = os.path.join(work, f"plain-{int(at_sentence)}-{trial}.sqlite")
        shutil.copyfile(template, database)
        moves = random_game(rng, rng.randint(2, 9))
        game = Plain(binary, database)
        if not game.wait_for(b"place your X"):
            tally.fail(f"plain trial {trial}: the game did not start: {game.error!r}")
            game.kill()
            continue
        target = rng.randint(1, len(moves))
        deadline = time.monotonic() + rng.uniform(0.0, 0.12)
        sent = 0
        while True:
            if not at_sentence and time.monotonic() >= deadline:
                break
            if sent < len(moves) and (at_sentence or rng.random() < 0.5):
                game.send(name(moves[sent]))
                sent += 1
            game.read(0.002 if not at_sentence else 0.0005)
            if at_sentence and len(game.sentences()) >= target:
                break
            if at_sentence and sent == len(moves) and game.process.poll() is not None:
                break
            if game.process.poll() is not None:
                break
        game.kill()
        kills += 1
        tally.check(
            f"plain {'sentence' if at_sentence else 'random'} kill {trial}", game.sentences(),
            stored_moves(database, "Ann", "Bob"),
            f"plain, killed {'at a sentence' if at_sentence else 'at random'}")
        os.remove(database)
        for suffix in ("-wal", "-shm"):
            if os.path.exists(database + suffix):
                os.remove(database + suffix)
    return kills


class Tmux:
    """One tmux server; each full-screen trial runs in a window of its own."""

    def __init__(self, work):
        self.socket = f"tictactoe-faults-{os.getpid()}"
        self.work = work
        self.run("new-session", "-d", "-s", "faults", "-x", "80", "-y", "24", "sleep 3600")
        self.path = self.run("display-message", "-p", "#{socket_path}").stdout.decode().strip()

    def run(self, *arguments):
        return subprocess.run(
            ["tmux", "-L", self.socket, *arguments], stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, check=False)

    def close(self):
        self.run("kill-server")
        if self.path and os.path.exists(self.path):
            os.remove(self.path)


def frames(data):
    """The board marks of every complete frame drawn, in order."""
    shown = []
    for frame in data.split(b"\x1b[H")[1:]:
        if b"\x1b[J" not in frame:
            continue
        text = ANSI.sub(b"", frame).decode("utf-8", "replace")
        marks = {}
        for line in text.split("\r\n"):
            m = re.match(r"^\s*([0-9]+) │(.*)│\s*$", line)
            if not m:
                continue
            row = int(m.group(1)) - 1
            for column, cell in enumerate(m.group(2).split("│")):
                mark = cell.strip(" []().")
                if mark in ("X", "O"):
                    marks[(row, column)] = mark
        if marks or "place your" in text:
            shown.append(marks)
    return shown


def shown_moves(data, moves):
    """The moves the screen showed: the most marks a frame drew, all of them moves in order."""
    most = 0
    for marks in frames(data):
        count = len(marks)
        if set(marks) == set(moves[:count]):
            most = max(most, count)
    return [name(cell) for cell in moves[:most]]


def fullscreen_trials(binary, work, template, tally, rng, tmux, count, at_move):
    kills = 0
    for trial in range(count):
        database = os.path.join(work, f"screen-{int(at_move)}-{trial}.sqlite")
        shutil.copyfile(template, database)
        capture = os.path.join(work, f"screen-{int(at_move)}-{trial}.out")
        pid_file = capture + ".pid"
        window = f"t{int(at_move)}-{trial}"
        command = (
            f"sh -c 'echo $$ > {pid_file}; read go; exec env TERM=tmux-256color LANG=C.UTF-8 "
            f"{binary} play --computer none --x Ann --o Bob --database {database}'")
        tmux.run("new-window", "-d", "-n", window, command)
        tmux.run("pipe-pane", "-t", window, "-o", f"cat >> {capture}")
        deadline = time.monotonic() + 5
        while not os.path.exists(pid_file) and time.monotonic() < deadline:
            time.sleep(0.005)
        tmux.run("send-keys", "-t", window, "go", "Enter")
        while time.monotonic() < deadline:
            if os.path.exists(capture) and b"place your X" in open(capture, "rb").read():
                break
            time.sleep(0.005)
        else:
            tally.fail(f"full-screen trial {trial}: the game did not start")
        try:
            pid = int(open(pid_file).read())
        except (OSError, ValueError):
            tally.fail(f"full-screen trial {trial}: no process id")
            continue
        moves = random_game(rng, rng.randint(2, 9))
        target = rng.randint(1, len(moves))
        kill_at = time.monotonic() + rng.uniform(0.0, 0.25)
        sent = 0
        last_key = 0.0
        while True:
            now = time.monotonic()
            data = open(capture, "rb").read() if os.path.exists(capture) else b""
            shown = len(shown_moves(data, moves))
            if at_move and shown >= target:
                break
            if not at_move and now >= kill_at:
                break
            # One key at a time, once the last one has shown (or after a short wait).
            if sent < len(moves) and (shown >= sent or now - last_key > 0.2):
                tmux.run("send-keys", "-t", window, digit(moves[sent]))
                sent += 1
                last_key = now
            elif sent == len(moves) and now - last_key > 1.0:
                break
            time.sleep(0.0005)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        kills += 1
        # Let tmux pass on what the process wrote before it died.
        size = -1
        while os.path.exists(capture) and os.path.getsize(capture) != size:
            size = os.path.getsize(capture)
            time.sleep(0.03)
        data = open(capture, "rb").read() if os.path.exists(capture) else b""
        tmux.run("kill-window", "-t", window)
        tally.check(
            f"full-screen {'move' if at_move else 'random'} kill {trial}",
            shown_moves(data, moves), stored_moves(database, "Ann", "Bob"),
            f"full screen, killed {'as a move showed' if at_move else 'at random'}")
    return kills


def full_disk(binary, work, template, tally, fail):
    """A tmpfs fills up mid-game: the game stops, says so, and claims nothing unsaved."""
    mount_point = os.path.join(work, "small")
    os.mkdir(mount_point)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", mount_point],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if mounted.returncode != 0:
        reason = mounted.stderr.decode().strip() or "mount failed"
        print(f"faults: SKIP the full file system and read-only file system trials: a tmpfs "
              f"cannot be mounted here ({reason}).")
        return
    try:
        # A database closed cleanly has no log beside it, which a reader on a full disk or a
        # read-only file system cannot make.
        clean = os.path.join(mount_point, "clean.sqlite")
        subprocess.run(
            [binary, "play", "--plain", "--computer", "none", "--database", clean],
            input=b"a1\nb1\na2\nb2\na3\n", stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            check=False)
        if not os.path.exists(clean) or os.path.exists(clean + "-wal"):
            fail("full disk: the clean database was not made, or kept its log")
        database = os.path.join(mount_point, "games.sqlite")
        shutil.copyfile(template, database)
        game = Plain(binary, database)
        moves = ["b2", "a1", "c3", "a3", "a2", "c1"]
        if not game.wait_for(b"place your X"):
            fail(f"full disk: the game did not start: {game.error!r}")
        for move in moves[:2]:
            game.send(move)
        deadline = time.monotonic() + 10
        while len(game.sentences()) < 2 and time.monotonic() < deadline:
            game.read(0.05)
        fill(os.path.join(mount_point, "filler"))
        for move in moves[2:]:
            game.send(move)
            game.read(0.1)
        game.close_input()
        status = game.finish()
        shown = game.sentences()
        stored = stored_moves(database, "Ann", "Bob")
        tally.check("full disk", shown, stored, "full file system")
        error_lines = [line for line in game.error.decode("utf-8", "replace").split("\n") if line]
        if len(stored) < len(moves):
            if status != 1:
                fail(f"full disk: exit status {status} after failed saves, expected 1")
            if len(error_lines) != 1:
                fail(f"full disk: expected one sentence on stderr, got {error_lines}")
            if re.search(rb"unfinished game is saved", game.output):
                fail("full disk: the game claims it is saved although moves were not stored")
        else:
            fail(f"full disk: all {len(moves)} moves were stored on a full disk, so the trial "
                 "did not try a failed save")
        try:
            check = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
            result = check.execute("PRAGMA integrity_check").fetchone()[0]
            check.close()
            if result != "ok":
                fail(f"full disk: the database is damaged afterwards: {result}")
        except sqlite3.Error as error:
            fail(f"full disk: the database cannot be read afterwards: {error}")
        print(f"faults: full disk: {len(shown)} of {len(moves)} moves acknowledged, "
              f"{len(stored)} stored, exit {status}: {error_lines[:1]}")

        # The records stay readable while the disk is full (filled again: the game's index
        # went when it ended).
        fill(os.path.join(mount_point, "filler"))
        read_only_checks(binary, clean, "full disk, a database without its log", fail,
                         reads=(["stats"], ["history"], ["replay", "1"], ["account", "list"]),
                         history_shows=b"X won", refusal=b"the disk is full")

        # Creating a database on the full disk leaves nothing behind; reading one that is not
        # there makes none, and finds nothing.
        before = sorted(os.listdir(mount_point))
        new = os.path.join(mount_point, "new.sqlite")
        created = subprocess.run(
            [binary, "stats", "--reset", "--yes", "--database", new],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
        read = subprocess.run(
            [binary, "stats", "--database", new],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
        after = sorted(os.listdir(mount_point))
        if created.returncode != 1:
            fail(f"full disk: creating a database exited {created.returncode}, expected 1")
        if read.returncode != 0 or read.stdout != b"No games recorded for the guest.\n":
            fail(f"full disk: reading a missing database exited {read.returncode}: "
                 f"{read.stdout!r} {read.stderr!r}")
        if after != before:
            fail(f"full disk: a failed creation left {sorted(set(after) - set(before))}")
        os.remove(os.path.join(mount_point, "filler"))

        # A database whose log holds changes the file lacks (its program killed), without the
        # log's index, which a reader on a read-only file system cannot make.
        logged = os.path.join(mount_point, "logged.sqlite")
        source = os.path.join(work, "logged-source.sqlite")
        shutil.copyfile(template, source)
        writer = sqlite3.connect(source)
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        writer.execute(
            "INSERT INTO games (x_name, o_name, board_rows, board_columns, k, first_mover, "
            "result, started_at, ended_at) VALUES ('Ann', 'Bob', 3, 3, 3, 'x', 'draw', 1, 2)")
        writer.commit()
        shutil.copyfile(source, logged)
        shutil.copyfile(source + "-wal", logged + "-wal")
        writer.close()

        # A read-only file system: the records stay readable, nothing is written.
        subprocess.run(["mount", "-o", "remount,ro", mount_point], check=True)
        unreadable = subprocess.run(
            [binary, "history", "--database", logged], stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, check=False)
        if unreadable.returncode != 1 or b"holds changes not yet in the file" not in \
                unreadable.stderr:
            fail(f"read-only file system, a log with changes: history exited "
                 f"{unreadable.returncode}: {unreadable.stderr.decode().strip()}")
        read_only_checks(binary, clean, "read-only file system, a database without its log",
                         fail, reads=(["stats"], ["history"], ["replay", "1"],
                                      ["account", "list"]), history_shows=b"X won")
        digest = hashlib.sha256(open(database, "rb").read()).hexdigest()
        read_only_checks(binary, database, "read-only file system", fail,
                         reads=(["stats"], ["history"], ["account", "list"]))
        if hashlib.sha256(open(database, "rb").read()).hexdigest() != digest:
            fail("read-only file system: the database changed")
    finally:
        subprocess.run(["umount", "-l", mount_point], check=False)


def fill(path):
    """Appends zeros to the file at `path` until its file system is full."""
    filler = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    for size in (65536, 4096, 512, 1):
        while True:
            try:
                os.write(filler, b"\0" * size)
            except OSError:
                break
    os.close(filler)


def read_only_checks(binary, database, label, fail, reads, history_shows=None,
                     refusal=b"is read-only, so nothing can be saved"):
    """Where nothing can be written: each of `reads` succeeds (history showing
    `history_shows`), and a game is refused in one sentence saying `refusal`."""
    for arguments in reads:
        result = subprocess.run(
            [binary, *arguments, "--database", database], stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, check=False)
        if result.returncode != 0 or (
                history_shows and arguments == ["history"] and history_shows not in result.stdout):
            fail(f"{label}: {arguments} exited {result.returncode}: "
                 f"{result.stderr.decode().strip()}")
    refused = subprocess.run(
        [binary, "play", "--plain", "--database", database], input=b"b2\n",
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if refused.returncode != 1 or refusal not in refused.stderr:
        fail(f"{label}: play exited {refused.returncode}: {refused.stderr.decode().strip()}")


def damage_pages(path):
    data = bytearray(open(path, "rb").read())
    page_size = int.from_bytes(data[16:18], "big")
    for page in range(1, len(data) // page_size, 2):
        start = page * page_size
        data[start : start + 8] = b"\x99\x77\x55\x33\x11\x22\x44\x66"
    open(path, "wb").write(data)


def damaged_database(binary, work, template, fail):
    """A real database whose pages are damaged is refused alike and never written."""
    folder = os.path.join(work, "damaged")
    os.mkdir(folder)
    database = os.path.join(folder, "games.sqlite")
    shutil.copyfile(template, database)
    env = dict(os.environ, TICTACTOE_PASSWORD_COST="test", TICTACTOE_DATABASE=database)
    subprocess.run([binary, "account", "create", "ann", "--password-stdin"],
                   input=b"correct horse\n", env=env, stdout=subprocess.PIPE, check=True)
    for _ in range(4):
        subprocess.run([binary, "play", "--plain", "--computer", "none", "--x", "Ann",
                        "--o", "Bob"], input=b"a1\nb1\nb2\nc1\nc3\n", env=env,
                       stdout=subprocess.PIPE, check=True)
    damage_pages(database)
    try:
        check = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
        verdict = check.execute("PRAGMA integrity_check").fetchone()[0]
        check.close()
    except sqlite3.DatabaseError as error:
        verdict = str(error)
    if verdict == "ok":
        fail("damaged database: the damage was not found by integrity_check")
    digest = hashlib.sha256(open(database, "rb").read()).hexdigest()
    listing = sorted(os.listdir(folder))
    commands = [
        (["play", "--plain", "--computer", "none"], b"b2\na1\n"), (["stats"], b""),
        (["stats", "--reset", "--yes"], b""), (["stats", "ann"], b""), (["history"], b""),
        (["history", "ann", "--json"], b""), (["replay", "1"], b""), (["account", "list"], b""),
        (["account", "create", "bob", "--password-stdin"], b"correct horse\n"),
        (["login", "ann", "--password-stdin"], b"correct horse\n"),
        (["account", "passwd", "ann", "--password-stdin"], b"correct horse\nbattery staple\n"),
    ]
    sentences = set()
    for arguments, stdin in commands:
        result = subprocess.run([binary, *arguments], input=stdin, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
        sentences.add(result.stderr)
        if result.returncode != 1:
            fail(f"damaged database: {arguments} exited {result.returncode}")
        if result.stdout:
            fail(f"damaged database: {arguments} printed {result.stdout[:200]!r}")
        if hashlib.sha256(open(database, "rb").read()).hexdigest() != digest:
            fail(f"damaged database: {arguments} changed the file")
            digest = hashlib.sha256(open(database, "rb").read()).hexdigest()
        if sorted(os.listdir(folder)) != listing:
            fail(f"damaged database: {arguments} left {sorted(os.listdir(folder))}")
    if len(sentences) != 1 or b"damaged" not in next(iter(sentences)):
        fail(f"damaged database: the commands said {sorted(sentences)}")
    print(f"faults: damaged database: {len(commands)} commands refused it alike, file unchanged")


def two_sessions(binary, work, template, tally, fail):
    """Two games at once on one database: neither loses the other's saved game."""
    database = os.path.join(work, "shared.sqlite")
    shutil.copyfile(template, database)
    first = Plain(binary, database, "Ann", "Bob")
    first.wait_for(b"place your X")
    for move in ("b2", "a1"):
        first.send(move)
    deadline = time.monotonic() + 10
    while len(first.sentences()) < 2 and time.monotonic() < deadline:
        first.read(0.05)
    second = Plain(binary, database, "Cid", "Dee")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and second.process.poll() is None:
        second.read(0.05)
        if b"place your X" in second.output:
            break
        if re.search(rb"(?i)resume", second.output):
            # Offered a saved game: this session wants a game of its own.
            second.send("new")
            second.wait_for(b"place your X")
            break
    refused = second.process.poll() is not None and not second.sentences()
    for move in ("c3", "a3"):
        first.send(move)
        second.send(move)
        first.read(0.2)
        second.read(0.2)
    for game in (first, second):
        game.close_input()
    first.finish()
    second.finish()
    tally.check("two sessions, first", first.sentences(), stored_moves(database, "Ann", "Bob"),
                "two sessions")
    tally.check("two sessions, second", second.sentences(), stored_moves(database, "Cid", "Dee"),
                "two sessions")
    note = "refused with: " + second.error.decode().strip() if refused else "played"
    print(f"faults: two sessions: the first told {len(first.sentences())} moves, the second "
          f"{len(second.sentences())} ({note})")


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary = os.path.realpath(sys.argv[1])
    quick = "--quick" in sys.argv[2:]
    rng = random.Random(20261201)
    fail = Failures()
    tally = Tally(fail)
    work = tempfile.mkdtemp(prefix="tictactoe-faults-")
    started = time.monotonic()
    try:
        template = os.path.join(work, "template.sqlite")
        subprocess.run([binary, "stats", "--reset", "--yes", "--database", template],
                       stdout=subprocess.PIPE, check=True)
        plain_count, screen_count = (12, 8) if quick else (60, 40)
        random_kills = plain_trials(binary, work, template, tally, rng, plain_count, False)
        sentence_kills = plain_trials(binary, work, template, tally, rng, plain_count, True)
        if shutil.which("tmux"):
            tmux = Tmux(work)
            try:
                random_kills += fullscreen_trials(
                    binary, work, template, tally, rng, tmux, screen_count, False)
                sentence_kills += fullscreen_trials(
                    binary, work, template, tally, rng, tmux, screen_count, True)
            finally:
                tmux.close()
        else:
            fail("tmux is not installed, so the full-screen trials cannot run")
        full_disk(binary, work, template, tally, fail)
        damaged_database(binary, work, template, fail)
        two_sessions(binary, work, template, tally, fail)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"faults: {random_kills} SIGKILLs at random moments, {sentence_kills} the instant a "
          f"move was shown; {tally.ahead} moves were stored before they were shown")
    for part, (trials, acknowledged, stored) in tally.parts.items():
        print(f"faults: {part}: {trials} trials, {acknowledged} moves acknowledged, "
              f"{stored} stored")
    print(f"moves acknowledged / moves stored: {tally.acknowledged} / {tally.stored}")
    print(f"faults: {tally.trials} trials in {time.monotonic() - started:.1f} s")
    if tally.acknowledged != tally.stored or fail.messages:
        print(f"faults: {len(fail.messages)} failures", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
