#!/usr/bin/env python3
"""Hostile input against the tictactoe binary: every option and text field, bad values only.

Feeds control characters, escape sequences, overlong values, NUL, bytes that are not UTF-8 and
the empty string to every command-line option and argument, every line read from standard
input (passwords, codes, moves, positions, GTP), every field of the full-screen forms (under
tmux) and the names stored in the database. Checks that refused input exits 2 with one
sentence, that no raw control byte reaches stdout or stderr, that nothing injected reaches the
terminal, and that the database is unchanged. Usage: hostile.py PATH_TO_TICTACTOE
"""

import base64
import concurrent.futures
import hashlib
import hmac
import json
import os
import re
import shutil
import sqlite3
import struct
import subprocess
import sys
import tempfile
import time

PAYLOAD = "\x1b[2J\x1b]0;PWNED\x07"
# Values no option or field takes. NUL cannot be passed in an argument; it is tried on stdin.
ARGUMENT_VALUES = {
    "escape sequence": PAYLOAD.encode(),
    "C1 control": "\u009b31m".encode(),
    "backspace, return, DEL": b"a\x08b\rc\x7f",
    "tab and newline": b"a\tb\nc",
    "overlong": b"x" * 100_000,
    "not UTF-8": b"\xff\xfeA\xc3(",
    "empty": b"",
}
# What a terminal delivers as text into a form field; an escape arrives as the Esc key.
FORM_VALUES = {
    "C1 control": "\u009b31m".encode(),
    "bidirectional override": "Eve\u202egnp.exe".encode(),
    "zero-width and format characters": "A\u200b\u2066B\ufeff".encode(),
    "NUL": b"abc\x00defgh",
    "not UTF-8": b"\xff\xfeA\xc3(",
    "overlong": b"x" * 300,
    "empty": b"",
}
LINE_VALUES = {
    **{name: value for name, value in ARGUMENT_VALUES.items() if name != "tab and newline"},
    "NUL": b"abcdefgh\x00",
    "NUL inside": b"abc\x00defgh",
}
ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")
RAW_CONTROL = re.compile(rb"[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]")


class Checks:
    def __init__(self):
        self.failures = []
        self.inputs = 0

    def fail(self, message):
        self.failures.append(message)
        print("hostile: FAIL: " + message, file=sys.stderr)


def run(binary, arguments, stdin=b"", env=None, timeout=20):
    result = subprocess.run(
        [binary.encode()] + [a if isinstance(a, bytes) else a.encode() for a in arguments],
        input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=timeout,
        check=False)
    return result.returncode, result.stdout, result.stderr


def fingerprint(database):
    """The database's rows and schema (a digest of its dump) and the files beside it (SQLite's
    own aside), as a list: a refused input may have started a sign-in attempt and ended it,
    which writes pages but leaves every row as it was."""
    folder = os.path.dirname(database)
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        dump = "\n".join(connection.iterdump())
    finally:
        connection.close()
    digest = hashlib.sha256(dump.encode()).hexdigest()
    return [digest, sorted(n for n in os.listdir(folder) if not n.endswith(("-wal", "-shm")))]


def clean(checks, label, out, err):
    for stream, data in (("stdout", out), ("stderr", err)):
        found = RAW_CONTROL.search(data)
        if found:
            checks.fail(f"{label}: raw control byte {found.group()!r} on {stream}: {data[:160]!r}")
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            checks.fail(f"{label}: {stream} is not UTF-8: {data[:160]!r}")


def refused(checks, label, result, database, before, stdout_allowed=False):
    """Exit 2, one sentence on stderr, nothing raw printed, the database unchanged."""
    checks.inputs += 1
    status, out, err = result
    if status != 2:
        checks.fail(f"{label}: exit {status}, expected 2 (stderr {err[:160]!r})")
    lines = err.split(b"\n")
    if len(lines) != 2 or lines[1] != b"" or not lines[0].startswith(b"tictactoe: "):
        checks.fail(f"{label}: stderr is not one sentence: {err[:200]!r}")
    if out and not stdout_allowed:
        checks.fail(f"{label}: printed {out[:160]!r}")
    clean(checks, label, out, err)
    if fingerprint(database) != before:
        checks.fail(f"{label}: the database changed")
        before[:] = fingerprint(database)


def totp(secret, at=None):
    counter = int((time.time() if at is None else at) // 30)
    digest = hmac.new(secret, struct.pack(">Q", counter), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    code = struct.unpack(">I", digest[offset : offset + 4])[0] & 0x7FFFFFFF
    return f"{code % 1_000_000:06d}"


def setup(binary, work):
    database = os.path.join(work, "games.sqlite")
    env = dict(os.environ, TICTACTOE_PASSWORD_COST="test", TICTACTOE_DATABASE=database,
               LC_ALL="C.UTF-8")
    for user in ("alice", "tfa"):
        status, _, err = run(binary, ["account", "create", user, "--password-stdin"],
                             b"correct horse\n", env)
        if status != 0:
            raise SystemExit(f"hostile: cannot create {user}: {err!r}")
    enable = subprocess.Popen(
        [binary, "account", "2fa-enable", "tfa", "--password-stdin"], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    enable.stdin.write(b"correct horse\n")
    enable.stdin.flush()
    secret_line = enable.stdout.readline()
    enable.stdout.readline()
    encoded = secret_line.split(b": ")[1].strip()
    secret = base64.b32decode(encoded + b"=" * (-len(encoded) % 8))
    enable.stdin.write(totp(secret).encode() + b"\n")
    enable.stdin.close()
    enable.stdout.read()
    enable.wait()
    if enable.returncode != 0:
        raise SystemExit("hostile: cannot turn two-factor on")
    for _ in range(2):
        run(binary, ["play", "--plain", "--computer", "none", "--x", "alice", "--o", "Bob"],
            b"a1\nb1\nb2\nc1\nc3\n", env)
    return database, env


def argument_fields():
    """(label, arguments with V for the value) for every option and positional value."""
    fields = []
    play = ["x", "o", "computer", "difficulty", "first", "time", "size", "rows", "columns", "k",
            "user", "code", "database"]
    fields += [(f"play --{o}", ["play", f"--{o}", None]) for o in play]
    fields += [(f"play --{o}=", ["play", None], f"--{o}=") for o in ("x", "database")]
    fields += [("analyze POSITION", ["analyze", None]),
               ("analyze --k", ["analyze", "x.o/.x./..o", "--k", None])]
    fields += [(f"bestmove --{o}", ["bestmove", "x.o/.x./...", f"--{o}", None])
               for o in ("k", "difficulty", "seed", "time")]
    fields += [("bestmove POSITION", ["bestmove", None])]
    for command in ("solve", "count"):
        fields += [(f"{command} --{o}", [command, f"--{o}", None])
                   for o in ("size", "rows", "columns", "k")]
    fields += [(f"gtp --{o}", ["gtp", f"--{o}", None]) for o in ("k", "difficulty", "time")]
    for action in ("create", "passwd", "delete", "2fa-enable", "2fa-disable", "recovery-codes"):
        fields.append((f"account {action} USER", ["account", action, None, "--password-stdin"]))
    fields += [("account ACTION", ["account", None]),
               ("account passwd --code", ["account", "passwd", "alice", "--code", None]),
               ("account list --database", ["account", "list", "--database", None]),
               ("login USER", ["login", None, "--password-stdin"]),
               ("login --code", ["login", "tfa", "--password-stdin", "--code", None]),
               ("stats USER", ["stats", None]),
               ("stats --code", ["stats", "tfa", "--reset", "--password-stdin", "--code", None]),
               ("stats --database", ["stats", "--database", None]),
               ("history USER", ["history", None]), ("replay GAME-ID", ["replay", None]),
               ("command", [None]), ("option name", ["play", "--" + "\x00"])]
    return fields


def arguments_for(field, value):
    label, template = field[0], field[1]
    prefix = field[2].encode() if len(field) > 2 else None
    arguments = []
    for item in template:
        if item is None:
            arguments.append(prefix + value if prefix else value)
        elif item.endswith("\x00"):
            arguments.append(item[:-1].encode() + value)
        else:
            arguments.append(item)
    return label, arguments


def arguments_part(binary, database, env, checks):
    before = fingerprint(database)
    runs = []
    for field in argument_fields():
        for name, value in ARGUMENT_VALUES.items():
            label, arguments = arguments_for(field, value)
            if label == "option name" and value == b"":
                continue  # "--" alone ends the options; it is no value.
            runs.append((f"{label} = {name}", arguments))
    # Two at a time: none of these may write, so the database must be unchanged after each.
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = pool.map(lambda item: run(binary, item[1], b"", env), runs)
        for (label, _), result in zip(runs, results):
            refused(checks, label, result, database, before)
        # An environment variable cannot hold NUL either; the cost knob refuses others.
    for name, value in ARGUMENT_VALUES.items():
        if b"\x00" in value:
            continue
        env_value = dict(env, TICTACTOE_PASSWORD_COST=value.decode("utf-8", "replace"))
        if value == b"":
            continue  # Empty is the same as unset.
        result = run(binary, ["account", "create", "zed", "--password-stdin"], b"correct horse\n",
                     env_value)
        refused(checks, f"TICTACTOE_PASSWORD_COST = {name}", result, database, before)


def lines_part(binary, database, env, checks):
    before = fingerprint(database)
    password = b"correct horse\n"
    fields = [
        ("account create password", ["account", "create", "newuser", "--password-stdin"], b""),
        ("login password", ["login", "alice", "--password-stdin"], b""),
        ("passwd old password", ["account", "passwd", "alice", "--password-stdin"], b""),
        ("passwd new password", ["account", "passwd", "alice", "--password-stdin"], password),
        ("delete password", ["account", "delete", "alice", "--password-stdin"], b""),
        ("2fa-enable password", ["account", "2fa-enable", "alice", "--password-stdin"], b""),
        ("2fa-disable password", ["account", "2fa-disable", "tfa", "--password-stdin"], b""),
        ("recovery-codes password", ["account", "recovery-codes", "tfa", "--password-stdin"], b""),
        ("stats reset password", ["stats", "alice", "--reset", "--yes", "--password-stdin"], b""),
        ("login code", ["login", "tfa", "--password-stdin"], password),
        ("2fa-disable code", ["account", "2fa-disable", "tfa", "--password-stdin"], password),
        ("recovery-codes code", ["account", "recovery-codes", "tfa", "--password-stdin"],
         password),
        ("2fa-enable code", ["account", "2fa-enable", "alice", "--password-stdin"], password),
    ]
    for label, arguments, lead in fields:
        for name, value in LINE_VALUES.items():
            result = run(binary, arguments, lead + value + b"\n", env)
            refused(checks, f"{label} = {name}", result, database, before,
                    stdout_allowed=label == "2fa-enable code")

    # Positions read by analyze -, one a line: each bad line is one sentence, exit 2.
    for name, value in LINE_VALUES.items():
        if value == b"":
            continue  # Blank lines are skipped.
        checks.inputs += 1
        status, out, err = run(binary, ["analyze", "-"], value + b"\nx.o/.x./..o\n", env)
        if status != 2 or len(err.strip().split(b"\n")) != 1 or b"line 1: " not in err:
            checks.fail(f"analyze - line = {name}: exit {status}, stderr {err[:160]!r}")
        if out.count(b"\n") != 1:
            checks.fail(f"analyze - line = {name}: the good line was not answered: {out!r}")
        clean(checks, f"analyze - line = {name}", out, err)

    # GTP commands: answered with an error, nothing echoed raw.
    for name, value in LINE_VALUES.items():
        checks.inputs += 1
        status, out, err = run(binary, ["gtp"], b"play " + value + b"\n" + value + b"\nquit\n",
                               env)
        if status != 0:
            checks.fail(f"gtp line = {name}: exit {status}")
        clean(checks, f"gtp line = {name}", out, err)

    # Moves in plain mode: said to be no move, nothing played, nothing echoed raw.
    for name, value in LINE_VALUES.items():
        checks.inputs += 1
        scratch = os.path.join(os.path.dirname(database), "plain.sqlite")
        status, out, err = run(
            binary, ["play", "--plain", "--computer", "none", "--database", scratch],
            value + b"\nquit\nyes\n", env)
        if status != 0:
            checks.fail(f"plain move = {name}: exit {status}: {err[:160]!r}")
        if re.search(rb"^[XO] plays ", out, re.MULTILINE):
            checks.fail(f"plain move = {name}: a move was played: {out[-200:]!r}")
        clean(checks, f"plain move = {name}", out, err)
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(scratch + suffix):
                os.remove(scratch + suffix)


def stored_part(binary, database, env, checks):
    """Names stored against the rule (by another program, or an earlier version)."""
    connection = sqlite3.connect(database)
    names = [PAYLOAD, "\u009b2J", "bi\u202edi", "x" * 100_000, "tab\tname", "  ",
             "nul\x00name"]
    for index, stored in enumerate(names):
        connection.execute(
            "INSERT INTO games (x_name, o_name, board_rows, board_columns, k, first_mover, "
            "result, started_at, ended_at) VALUES (?, 'Bob', 3, 3, 3, 'x', 'draw', ?, ?)",
            (stored, index, index + 1))
    # Bytes that are not UTF-8, stored as text.
    connection.execute(
        "INSERT INTO games (x_name, o_name, board_rows, board_columns, k, first_mover, result, "
        "started_at, ended_at) VALUES (CAST(? AS TEXT), 'Bob', 3, 3, 3, 'x', 'draw', 50, 51)",
        (b"\xff\xfe\x1b[2J",))
    connection.execute(
        "INSERT INTO accounts (user_name, user_key, password_hash, created_at) "
        "VALUES (?, 'mallory', '$scrypt$ln=4,r=1,p=1$00$00', 0)", ("mal" + PAYLOAD,))
    connection.execute(
        "INSERT INTO accounts (user_name, user_key, password_hash, created_at) "
        "VALUES (?, 'long', '$scrypt$ln=4,r=1,p=1$00$00', 0)", ("y" * 100_000,))
    game_ids = [row[0] for row in connection.execute("SELECT id FROM games WHERE o_name = 'Bob'")]
    connection.commit()
    connection.close()
    commands = [["history"], ["history", "--json"], ["stats"], ["stats", "--json"],
                ["account", "list"], ["account", "list", "--json"]]
    commands += [["replay", str(game_id)] for game_id in game_ids]
    for arguments in commands:
        checks.inputs += 1
        status, out, err = run(binary, arguments, b"", env)
        label = "stored names: " + " ".join(arguments)
        if status != 0:
            checks.fail(f"{label}: exit {status}: {err[:160]!r}")
        clean(checks, label, out, err)
        if b"\xe2\x80\xae" in out:
            checks.fail(f"{label}: a bidirectional override reached the terminal")
        if b"--json" in b" ".join(a.encode() for a in arguments):
            try:
                json.loads(out)
            except ValueError:
                checks.fail(f"{label}: not JSON: {out[:160]!r}")


def forms_part(binary, work, checks):
    """The full-screen forms: what is typed never reaches the terminal as a control sequence."""
    if not shutil.which("tmux"):
        checks.fail("tmux is not installed, so the forms cannot be tried")
        return
    socket = f"tictactoe-hostile-{os.getpid()}"
    capture = os.path.join(work, "screen.out")
    database = os.path.join(work, "forms.sqlite")

    def tmux(*arguments):
        subprocess.run(["tmux", "-L", socket, *arguments], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, check=False)

    def wait(text, seconds=10):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if os.path.exists(capture) and text in open(capture, "rb").read():
                return True
            time.sleep(0.05)
        return False

    def typed(value):
        # Literal text; NUL as Ctrl-@; bytes that are not UTF-8 in hex.
        if b"\x00" in value:
            for part in value.split(b"\x00"):
                if part:
                    tmux("send-keys", "-t", "forms", "-l", part.decode())
                tmux("send-keys", "-t", "forms", "C-@")
        elif value and not value.isascii():
            try:
                tmux("send-keys", "-t", "forms", "-l", value.decode())
            except UnicodeDecodeError:
                tmux("send-keys", "-t", "forms", "-H", *[f"{b:02x}" for b in value])
        elif value:
            tmux("send-keys", "-t", "forms", "-l", value.decode())

    tmux("new-session", "-d", "-s", "idle", "sleep 600")
    socket_path = subprocess.run(
        ["tmux", "-L", socket, "display-message", "-p", "#{socket_path}"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False).stdout.decode().strip()
    tmux("set-option", "-g", "remain-on-exit", "on")
    try:
        for index, (name, value) in enumerate(FORM_VALUES.items()):
            # A fresh program each time: Sign in's user name and password, then New game's
            # names, submitted with Let's play!.
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(database + suffix):
                    os.remove(database + suffix)
            if os.path.exists(capture):
                os.remove(capture)
            tmux("new-window", "-d", "-n", "forms", "-t", "idle",
                 f"sh -c 'read go; exec env TERM=tmux-256color LANG=C.UTF-8 "
                 f"TICTACTOE_PASSWORD_COST=test {binary} --database {database}'")
            tmux("pipe-pane", "-t", "forms", "-o", f"cat >> {capture}")
            tmux("send-keys", "-t", "forms", "go", "Enter")
            if not wait(b"Sign in"):
                checks.fail(f"forms = {name}: Sign in did not show")
                continue
            checks.inputs += 4
            typed(value)
            tmux("send-keys", "-t", "forms", "Tab")
            typed(value)
            tmux("send-keys", "-t", "forms", "Enter")
            # Ctrl-G (play as a guest) counts once the sign-in attempt has been answered, which
            # takes longer on a busy machine: press it again until New game shows.
            for _ in range(10):
                tmux("send-keys", "-t", "forms", "C-g")
                if wait(b"New game", 1):
                    break
            else:
                checks.fail(f"forms = {name}: New game did not show after Ctrl-G")
            # The X name, then the O name (after its default), then Let's play!.
            typed(value)
            tmux("send-keys", "-t", "forms", "Tab")
            typed(value)
            tmux("send-keys", "-t", "forms", *["Tab"] * 7, "Enter")
            time.sleep(0.4)
            data = open(capture, "rb").read() if os.path.exists(capture) else b""
            for injected in (b"\xc2\x9b31m", b"\xe2\x80\xae", b"\xe2\x81\xa6", b"\x00"):
                if injected in data:
                    checks.fail(f"forms = {name}: the typed {injected!r} reached the terminal")
            alive = subprocess.run(
                ["tmux", "-L", socket, "list-panes", "-t", "forms", "-F", "#{pane_dead}"],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
            if alive.stdout.strip() != b"0":
                screen = ANSI.sub(b"", data[-2500:]).decode("utf-8", "replace")
                checks.fail(f"forms = {name}: the program ended; the screen showed:\n{screen}")
            tmux("kill-window", "-t", "forms")
    finally:
        tmux("kill-server")
        if socket_path and os.path.exists(socket_path):
            os.remove(socket_path)


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary = os.path.realpath(sys.argv[1])
    checks = Checks()
    work = tempfile.mkdtemp(prefix="tictactoe-hostile-")
    started = time.monotonic()
    try:
        database, env = setup(binary, work)
        arguments_part(binary, database, env, checks)
        lines_part(binary, database, env, checks)
        stored_part(binary, database, env, checks)
        forms_part(binary, work, checks)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"hostile: {checks.inputs} inputs tried in {time.monotonic() - started:.1f} s; "
          f"{len(checks.failures)} failures")
    return 1 if checks.failures else 0


if __name__ == "__main__":
    sys.exit(main())
