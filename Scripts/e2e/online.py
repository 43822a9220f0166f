#!/usr/bin/env python3
"""Online play end to end: a server on a loopback port, two accounts, a spectator, a game in
plain mode, hostile connections, a client and the server killed mid-game, and the records.

Usage: python3 Scripts/e2e/online.py PATH_TO_TICTACTOE
"""

import atexit
import base64
import collections
import hashlib
import hmac
import json
import os
import queue
import re
import resource
import signal
import socket
import sqlite3
import ssl
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from online_checks import check, fail, finish  # noqa: E402

BINARY = os.path.abspath(sys.argv[1])
WORK = tempfile.mkdtemp(prefix="tictactoe-online-")
ENV = dict(os.environ, TICTACTOE_PASSWORD_COST="test", LANG="C.UTF-8")
ENV.pop("TICTACTOE_DATABASE", None)
TIMEOUT = 20
# The protocol version and the limit of unfinished games per account (Sources/GameProtocol).
VERSION = 5
GAME_LIMIT = 10
processes = []


@atexit.register
def stop_processes():
    """Kills whatever is still running, even when the script ends on an exception."""
    for process in processes:
        if process.poll() is None:
            process.kill()


class Lines:
    """Reads a stream line by line on a thread, so tests can wait for a line with a timeout."""

    def __init__(self, stream, name):
        self.name = name
        self.queue = queue.Queue()
        self.seen = []
        thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        thread.start()

    def _read(self, stream):
        for raw in iter(stream.readline, b""):
            self.queue.put(raw.decode("utf-8", "replace").rstrip("\n"))
        self.queue.put(None)

    def expect(self, pattern, timeout=TIMEOUT):
        """Waits for a line matching the regular expression; returns the match or None."""
        deadline = time.time() + timeout
        compiled = re.compile(pattern)
        while True:
            left = deadline - time.time()
            if left <= 0:
                fail(f"{self.name}: no line matching {pattern!r}; last lines: {self.seen[-12:]}")
                return None
            try:
                line = self.queue.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                fail(f"{self.name}: output ended before {pattern!r}; last lines: {self.seen[-12:]}")
                self.queue.put(None)
                return None
            self.seen.append(line)
            match = compiled.fullmatch(line)
            if match:
                return match

    def drain(self, seconds=0.3):
        """Collects what arrives within a moment, without expecting anything."""
        deadline = time.time() + seconds
        while time.time() < deadline:
            try:
                line = self.queue.get(timeout=max(0.01, deadline - time.time()))
            except queue.Empty:
                continue
            if line is None:
                self.queue.put(None)
                break
            self.seen.append(line)


def start(arguments, name, database=None, stdin=True):
    command = [BINARY] + arguments
    if database:
        command += ["--database", os.path.join(WORK, database)]
    process = subprocess.Popen(
        command, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    processes.append(process)
    process.out = Lines(process.stdout, name + " stdout")
    process.err = Lines(process.stderr, name + " stderr")
    return process


def send(process, line):
    process.stdin.write((line + "\n").encode())
    process.stdin.flush()


def ann_creates():
    """Ann, signed in, creates a game; returns her process and the invite code."""
    ann = start(["play", "--server", address, "--user", "ann", "--password-stdin", "--new"],
                "ann", "ann.sqlite")
    send(ann, "correct horse")
    return ann, ann.out.expect(r"Invite code: (\w+)").group(1)


def bob_joins(code, name="bob"):
    """Bob, signed in, joins the game of `code`; returns his process."""
    bob = start(["play", "--server", address, "--user", "bob", "--password-stdin", "--join", code],
                name, "bob.sqlite")
    send(bob, "battery staple")
    return bob


def run(arguments, database, stdin_text=""):
    result = subprocess.run(
        [BINARY] + arguments + ["--database", os.path.join(WORK, database)],
        input=stdin_text.encode(), capture_output=True, env=ENV, timeout=60)
    return result.returncode, result.stdout.decode(), result.stderr.decode()


def totp(secret, step=0):
    """The RFC 6238 code of a base32 secret, `step` periods from now."""
    key = base64.b32decode(secret + "=" * (-len(secret) % 8))
    counter = int(time.time()) // 30 + step
    digest = hmac.new(key, struct.pack(">Q", counter), hashlib.sha1).digest()
    offset = digest[-1] & 15
    return "%06d" % ((struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF) % 10**6)


# MARK: - The server

server_database = os.path.join(WORK, "server.sqlite")


def start_server(listen, grace=60):
    process = start(
        ["serve", "--listen", listen, "--database", server_database, "--reconnect-grace",
         str(grace)], "server", stdin=False)
    listening = process.out.expect(r"Listening on 127\.0\.0\.1:(\d+)")
    fingerprint = process.out.expect(r"Fingerprint: SHA256:([0-9a-f]{64})")
    if not listening or not fingerprint:
        raise SystemExit(1)
    return process, int(listening.group(1)), fingerprint.group(1)


# A server stopped as soon as it says it listens stops cleanly: the signal is caught by then.
# SIGHUP (the terminal that started it closed) stops it as SIGTERM and SIGINT do, with a word.
quick_stops = collections.Counter()
stop_signals = [signal.SIGTERM, signal.SIGINT, signal.SIGHUP]
for attempt in range(21):
    quick = subprocess.Popen(
        [BINARY, "serve", "--listen", "127.0.0.1:0", "--database",
         os.path.join(WORK, f"quick-{attempt}.sqlite")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    quick.stdout.readline()
    quick.stdout.readline()
    stop_signal = stop_signals[attempt % len(stop_signals)]
    quick.send_signal(stop_signal)
    try:
        quick.wait(timeout=15)
        said = quick.stderr.read().decode()
        clean = "Stopping: finishing what is being stored." in said and "Stopped." in said
        quick_stops[(quick.returncode, clean)] += 1
        check(clean, f"{stop_signal.name} stopped the server without saying so: {said!r}")
    except subprocess.TimeoutExpired:
        quick.kill()
        quick.wait()
        quick_stops["hung"] += 1
    quick.stderr.close()
    quick.stdout.close()
check(quick_stops == {(0, True): 21},
      f"servers stopped right after they said they listen: {dict(quick_stops)}")

server, port, fingerprint = start_server("127.0.0.1:0")
address = f"127.0.0.1:{port}"
second = subprocess.run(
    [BINARY, "serve", "--listen", "127.0.0.1:0", "--database", server_database],
    capture_output=True, env=ENV, timeout=30)
check(second.returncode == 1 and b"Another server is already running" in second.stderr,
      f"a second server on the same database was not refused: {second.returncode} {second.stderr}")
# Local commands may read the running server's database but not change it behind its back.
status, out, err = run(["account", "create", "local", "--password-stdin"], server_database,
                       "correct horse\n")
check(status == 1 and "belongs to a game server that is running" in err,
      f"an account was made in the running server's database: {status} {out} {err}")
status, out, err = run(["account", "list"], server_database)
check(status == 0, f"the running server's accounts could not be listed: {status} {err}")
# An address in use is refused with the hint of another server there.
busy = subprocess.run(
    [BINARY, "serve", "--listen", address, "--database", os.path.join(WORK, "busy.sqlite")],
    capture_output=True, env=ENV, timeout=30)
check(busy.returncode == 1 and b"Address already in use (is another server running there?)."
      in busy.stderr, f"a second server on a port in use: {busy.returncode} {busy.stderr}")
check(not os.path.exists(os.path.join(WORK, "busy.sqlite"))
      and not os.path.exists(os.path.join(WORK, "busy.sqlite.tls.pem")),
      "a server refused its address left a database or certificate behind")
# Too few open files is refused before anything is made, rather than failing as it stops.
def few_files():
    resource.setrlimit(resource.RLIMIT_NOFILE, (16, 16))
cramped = subprocess.run(
    [BINARY, "serve", "--listen", "127.0.0.1:0", "--database", os.path.join(WORK, "few.sqlite")],
    capture_output=True, env=ENV, timeout=30, preexec_fn=few_files)
check(cramped.returncode == 1 and cramped.stderr == b"tictactoe serve: The server needs at "
      b"least 64 open files, and the limit here is 16 (ulimit -n).\n"
      and not os.path.exists(os.path.join(WORK, "few.sqlite")),
      f"a server under ulimit -n 16: {cramped.returncode} {cramped.stderr}")
certificate = server_database + ".tls.pem"
check(os.path.exists(certificate), "the server made no certificate beside its database")
check(stat.S_IMODE(os.stat(certificate).st_mode) == 0o600,
      f"the certificate file has mode {oct(os.stat(certificate).st_mode)}")

# MARK: - Accounts on the server

status, out, err = run(["account", "create", "ann", "--server", address, "--password-stdin"],
                       "ann.sqlite", "correct horse\n")
check(status == 0 and out.strip() == "Created the account ann.", f"ann: {status} {out} {err}")
check(f"Trusting {address}, fingerprint SHA256:{fingerprint}" in err,
      f"the first connection did not say it trusts the server: {err}")
status, out, err = run(["account", "create", "bob", "--server", address, "--password-stdin"],
                       "bob.sqlite", "battery staple\n")
check(status == 0 and out.strip() == "Created the account bob.", f"bob: {status} {out} {err}")
status, out, err = run(["account", "create", "bob", "--server", address, "--password-stdin"],
                       "bob.sqlite", "another one\n")
check(status == 1 and "taken" in err, f"a second bob was not refused: {status} {out} {err}")
status, out, err = run(["login", "ann", "--server", address, "--password-stdin"],
                       "ann.sqlite", "wrong password\n")
check(status == 1 and "incorrect" in err, f"a wrong password was not refused: {status} {err}")
# A changed fingerprint is refused with a sentence that says how to accept it.
status, out, err = run(["games", "--server", address, "--server-fingerprint", "SHA256:" + "0" * 64],
                       "ann.sqlite")
check(status == 1 and "--server-fingerprint" in err, f"a wrong pin was accepted: {status} {err}")
with sqlite3.connect(os.path.join(WORK, "ann.sqlite")) as database:
    database.execute("UPDATE known_servers SET fingerprint = zeroblob(32)")
status, out, err = run(["games", "--server", address], "ann.sqlite")
check(status == 1 and f"--server-fingerprint SHA256:{fingerprint}" in err,
      f"a changed fingerprint was not refused with the way to accept it: {status} {err}")
status, out, err = run(["games", "--server", address, "--server-fingerprint",
                        ":".join(fingerprint[i:i + 2] for i in range(0, 64, 2)).upper()],
                       "ann.sqlite")
check(status == 0, f"--server-fingerprint did not pin the server again: {status} {err}")

# MARK: - A game: create, join, watch

ann = start(["play", "--server", address, "--user", "ann", "--password-stdin", "--new"],
            "ann", "ann.sqlite")
send(ann, "correct horse")
invite = ann.out.expect(r"Invite code: ([23456789A-HJKMNP-Z]{6,})")
if not invite:
    raise SystemExit(1)
code = invite.group(1)
ann.out.expect(r"Waiting for an opponent…")

watcher = start(["play", "--server", address, "--watch", code.lower()], "watcher",
                "watcher.sqlite", stdin=False)
watcher.out.expect(rf"Trusting {re.escape(address)}, fingerprint SHA256:{fingerprint}")
watcher.out.expect(r"Waiting for an opponent…")

status, out, err = run(["games", "--server", address, "--json"], "ann.sqlite")
listing = json.loads(out) if status == 0 else {}
check(any(game["code"] == code and game["status"] == "open" and game["x"] == "ann"
          for game in listing.get("games", [])), f"games does not list the open game: {out}")

bob = bob_joins(code)
for player in (ann, bob, watcher):
    player.out.expect(r"bob joined; bob plays O\.")
for player in (ann, bob, watcher):
    player.out.expect(r"ann, place your X")
# The operator reads each step once it is stored.
server.err.expect(rf"tictactoe serve: ann opened game {code} \(3×3, 3 in a row\)\.")
server.err.expect(r"tictactoe serve: bob signed in from 127\.0\.0\.1\.")
server.err.expect(rf"tictactoe serve: bob joined game {code}; ann plays X, bob plays O\.")

played = []


def play(mover, cell):
    """Plays a move and checks that both players and the spectator are told it."""
    mark = "X" if len(played) % 2 == 0 else "O"
    send(mover, cell)
    for player in players():
        player.out.expect(rf"{mark} plays {cell}\.")
    played.append(cell)


def players():
    return (ann, bob, watcher)


play(ann, "b2")
# Out of turn: refused with the sentence of local play, and nothing changes for anyone.
send(ann, "a1")
ann.out.expect(r"It is bob's turn\.")
# Taken: the server refuses it; the board did not change.
send(bob, "b2")
bob.out.expect(r"b2 is taken\.")
# A line longer than any command, starting with a free cell, plays nothing.
send(bob, "c3" + "x" * 5000)
bob.out.expect(r"The line is longer than 4096 bytes, more than any command; it was skipped\.")
play(bob, "a1")

# MARK: - Hostile connections do not disturb the game


def expect_closed(connection, name, timeout=15):
    connection.settimeout(timeout)
    try:
        while connection.recv(4096):
            pass
        return True
    except (ConnectionResetError, ssl.SSLError, OSError) as error:
        if isinstance(error, socket.timeout):
            fail(f"{name}: the server did not close the connection")
            return False
        return True


def tls_connection():
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    raw = socket.create_connection(("127.0.0.1", port), timeout=10)
    return context.wrap_socket(raw)


def frames(connection):
    """Reads frames until the connection closes; returns their payloads."""
    payloads = []
    buffer = b""
    connection.settimeout(10)
    try:
        while True:
            chunk = connection.recv(4096)
            if not chunk:
                break
            buffer += chunk
    except (ConnectionResetError, ssl.SSLError, OSError):
        pass
    while len(buffer) >= 4:
        (length,) = struct.unpack(">I", buffer[:4])
        payloads.append(buffer[4:4 + length])
        buffer = buffer[4 + length:]
    return payloads


plain = socket.create_connection(("127.0.0.1", port), timeout=10)
plain.sendall(b"GET / HTTP/1.1\r\nHost: tictactoe\r\n\r\n")
check(expect_closed(plain, "a plain-TCP client"), "a plain-TCP client was not closed")

# Random bytes, but for a first two that no TLS record and no SSLv2 hello can start with: random
# ones began a record longer than the bytes sent in 4 connections of 2,000, and the server then
# waited for the rest until its handshake timeout, as it should.
garbage = socket.create_connection(("127.0.0.1", port), timeout=10)
garbage.sendall(b"\x00\x00" + os.urandom(4094))
check(expect_closed(garbage, "a client sending garbage"), "garbage was not closed")
# Each leaves the operator a line naming where it came from, with no raw control character.
for what in ("plain TCP", "garbage"):
    logged = server.err.expect(
        r"tictactoe serve: Closed a connection from 127\.0\.0\.1: TLS handshake failed \(.*\)\.")
    check(logged is not None and all(c.isprintable() for c in logged.group(0)),
          f"the {what} connection left no printable line in the server's log")

oversized = tls_connection()
oversized.sendall(struct.pack(">I", 0xFFFFFFFF) + b"x" * 64)
answers = frames(oversized)
check(answers and answers[0][:1] == b"\x82" and struct.unpack(">H", answers[0][1:3])[0] == 2,
      f"an oversized frame was not refused with frameTooLarge: {answers}")

malformed = tls_connection()
malformed.sendall(struct.pack(">I", 1) + b"\x7f")
answers = frames(malformed)
check(answers and answers[0][:1] == b"\x82" and struct.unpack(">H", answers[0][1:3])[0] == 1,
      f"an unknown message was not refused as malformed: {answers}")

early = tls_connection()
early.sendall(struct.pack(">I", 1) + b"\x13")
answers = frames(early)
check(answers and answers[0][:1] == b"\x82" and struct.unpack(">H", answers[0][1:3])[0] == 4,
      f"a request before hello was not refused with helloExpected: {answers}")

versions = tls_connection()
hello = b"\x01" + struct.pack(">HH", 7, 9)
versions.sendall(struct.pack(">I", len(hello)) + hello)
answers = frames(versions)
check(answers and struct.unpack(">H", answers[0][1:3])[0] == 3
      and struct.unpack(">I", answers[0][4:8])[0] == (VERSION << 16 | VERSION),
      f"an unknown version was not told the server's range: {answers}")

# A client that sends pings without pause and reads nothing waits in its own socket buffers,
# and is closed once the answers it leaves unread pass 1 MiB; meanwhile another client is
# answered at once, and the server's memory stays flat.
def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def pong_seconds():
    """How long a new client waits for the answer to its ping, or None after 5 s."""
    started = time.time()
    try:
        probe = tls_connection()
        probe.settimeout(5)
        hello = b"\x01" + struct.pack(">HH", VERSION, VERSION)
        ping = b"\x17" + struct.pack(">Q", 42)
        probe.sendall(struct.pack(">I", len(hello)) + hello + struct.pack(">I", len(ping)) + ping)
        buffer = b""
        while True:
            chunk = probe.recv(4096)
            if not chunk:
                return None
            buffer += chunk
            while len(buffer) >= 4 and len(buffer) >= 4 + struct.unpack(">I", buffer[:4])[0]:
                length = struct.unpack(">I", buffer[:4])[0]
                payload, buffer = buffer[4:4 + length], buffer[4 + length:]
                if payload[:1] == b"\x98":
                    probe.close()
                    return time.time() - started
    except (OSError, ssl.SSLError):
        return None


memory_before = rss_kib(server.pid)
flooder = tls_connection()
hello = b"\x01" + struct.pack(">HH", VERSION, VERSION)
flooder.sendall(struct.pack(">I", len(hello)) + hello)
pings = (struct.pack(">I", 9) + b"\x17" + bytes(8)) * 4_000
flood_done = threading.Event()
waits = []


def probe_during_flood():
    while not flood_done.is_set():
        waits.append(pong_seconds())
        time.sleep(0.2)


prober = threading.Thread(target=probe_during_flood)
prober.start()
flood_sent = 0
flood_closed = False
flood_started = time.time()
try:
    while time.time() - flood_started < 30:
        flooder.sendall(pings)
        flood_sent += len(pings) // 13
except (OSError, ssl.SSLError):
    flood_closed = True
flood_done.set()
prober.join()
memory_after = rss_kib(server.pid)
check(flood_closed, f"a client that sent {flood_sent} pings in 30 s without reading was kept")
check(waits and all(wait is not None and wait < 2 for wait in waits),
      f"other clients waited for their pongs during a flood: {waits}")
check(memory_after - memory_before < 64 * 1_024,
      f"a flood of {flood_sent} pings grew the server from {memory_before} to {memory_after} KiB")
print(f"online.py: a flood of {flood_sent} unread pings closed after "
      f"{time.time() - flood_started:.1f} s; {len(waits)} other clients answered in at most "
      f"{max((w for w in waits if w is not None), default=0) * 1000:.0f} ms; server memory "
      f"{memory_before} to {memory_after} KiB")

# Clients of version 1 (whose history requests had no page), 2 (which cannot read
# tooManyGames) and 3 (which cannot read cancelled) are told to update.
for low, high in [(1, 1), (2, 2), (1, 2), (3, 3), (1, 3)]:
    old = tls_connection()
    hello = b"\x01" + struct.pack(">HH", low, high)
    old.sendall(struct.pack(">I", len(hello)) + hello)
    answers = frames(old)
    check(answers and struct.unpack(">H", answers[0][1:3])[0] == 3
          and struct.unpack(">I", answers[0][4:8])[0] == (VERSION << 16 | VERSION),
          f"a client of versions {low} to {high} was not told the server's range: {answers}")

# A client that opens a connection and never finishes its handshake.
stalled = socket.create_connection(("127.0.0.1", port), timeout=10)
stalled.sendall(b"\x16\x03\x01\x00\xff\x01")  # the start of a ClientHello, then nothing
stalled_at = time.time()

play(ann, "c3")

# MARK: - A client killed mid-game comes back with --join

bob.kill()
bob.wait()
ann.out.expect(r"bob lost the connection; waiting 60 seconds\.")
watcher.out.expect(r"bob lost the connection; waiting 60 seconds\.")
bob = bob_joins(code, "bob again")
ann.out.expect(r"bob is back\.")
watcher.out.expect(r"bob is back\.")
server.err.expect(
    rf"tictactoe serve: bob lost the connection to game {code}; the seat is held for 60 s\.")
server.err.expect(rf"tictactoe serve: bob is back in game {code}\.")
bob.out.expect(r"bob, place your O")
play(bob, "c1")

# The handshake that never finished was closed by now, and the game did not notice.
remaining = max(0.0, 12 - (time.time() - stalled_at))
check(expect_closed(stalled, "a stalled handshake", timeout=remaining + 5),
      "a handshake that never finishes was not closed")

# One address other than this machine's own holds at most 64 connections: the 65th is closed at
# once, and the operator reads why.
crowd = [socket.create_connection(("127.0.0.1", port), timeout=10,
                                  source_address=("127.0.0.2", 0)) for _ in range(64)]
extra = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=("127.0.0.2", 0))
check(expect_closed(extra, "a 65th connection from one address", timeout=5),
      "a 65th connection from one address was kept")
server.err.expect(r"tictactoe serve: Turned away a connection from 127\.0\.0\.2, which holds 64 "
                  r"already, the most one address may\.")
for connection in crowd:
    connection.close()

# A flood of connections that never get through TLS leaves the operator 10 lines every 10
# seconds, then one line saying how many more there were.
for _ in range(40):
    flood = socket.create_connection(("127.0.0.1", port), timeout=10)
    flood.sendall(b"GET / HTTP/1.0\r\n\r\n")
    expect_closed(flood, "a flooding connection")
summary = server.err.expect(
    r"tictactoe serve: Left out (\d+) more lines? about connections that did not finish their "
    r"TLS handshake in the last 10 seconds\.", timeout=20)
logged_lines = [line for line in server.err.seen if "did not finish" in line or "handshake" in line]
check(summary is not None and int(summary.group(1)) >= 20,
      f"a flood of 40 failed handshakes was not summed up: {logged_lines[-3:]}")

# MARK: - The server killed with SIGKILL and restarted on the same database

server.kill()
server.wait()
for player in players():
    player.out.expect(r"Lost the connection to the server; reconnecting…")
server, restarted_port, restarted_fingerprint = start_server(address)
check(restarted_fingerprint == fingerprint, "the restarted server has another certificate")
server.err.expect(r"tictactoe serve: Resumed 1 game in progress\.")
for player in players():
    player.out.expect(r"Reconnected to the server\.")
time.sleep(0.5)
play(ann, "b1")
play(bob, "a2")
play(ann, "b3")
for player in players():
    player.out.expect(r"X wins with b1, b2, b3\.")
server.err.expect(rf"tictactoe serve: Game {code} ended: ann \(X\) won, with a line\.")
for player in players():
    player.out.expect(r"Ratings: ann 1216 \(\+16\), bob 1184 \(−16\)\.")
for player in players():
    try:
        check(player.wait(timeout=TIMEOUT) == 0, f"a client exited with {player.returncode}")
    except subprocess.TimeoutExpired:
        fail("a client did not exit after the game")

# The spectator saw every move, in order, once.
watched = [line.split()[2].rstrip(".") for line in watcher.out.seen
           if re.fullmatch(r"[XO] plays [a-c][1-3]\.", line)]
check(watched == played, f"the spectator saw {watched}, not {played}")

# Every acknowledged move is in the server's database, in order, with the result.
with sqlite3.connect(server_database) as database:
    stored = [f"{'abc'[column]}{row + 1}" for row, column in database.execute(
        "SELECT cell_row, cell_column FROM online_moves WHERE online_game = "
        "(SELECT id FROM online_games WHERE code = ?) ORDER BY ply", (code,))]
    result = database.execute(
        "SELECT result, end_reason FROM online_games WHERE code = ?", (code,)).fetchone()
check(stored == played, f"stored moves {stored}, acknowledged {played}")
check(result == ("xWins", "completed"), f"the stored result is {result}")
print(f"fault trials: {len(played)} moves acknowledged, {len(stored)} stored, through a client "
      "SIGKILL and a server SIGKILL", flush=True)

# MARK: - Records and ratings on the server

status, out, err = run(["stats", "ann", "--server", address], "ann.sqlite")
check(status == 0 and "1 game: 1 win, 0 losses, 0 draws" in out and "Rating: 1216." in out,
      f"ann's stats: {status} {out} {err}")
status, out, err = run(["stats", "bob", "--server", address, "--json"], "bob.sqlite")
stats = json.loads(out) if status == 0 else {}
check(stats.get("rating") == 1184 and stats.get("losses") == 1, f"bob's stats: {out} {err}")

# MARK: - History and replay on the server

status, out, err = run(["history", "ann", "--server", address], "ann.sqlite")
lines = out.splitlines()
check(status == 0 and len(lines) == 1 and "ann (X) vs bob (O)" in lines[0]
      and lines[0].endswith("X won"),
      f"ann's history on the server: {status} {out} {err}")
game_id = lines[0].split()[0] if lines else "0"
status, out, err = run(["history", "bob", "--server", address, "--json"], "bob.sqlite")
history = json.loads(out) if status == 0 else {}
check([game.get("id") for game in history.get("games", [])] == [int(game_id)],
      f"bob's history in JSON: {out} {err}")
status, out, err = run(["replay", game_id, "--server", address], "watcher.sqlite")
replayed = re.findall(r"[XO] plays ([a-c][1-3])\.", out)
check(status == 0 and replayed == played and "X wins with b1, b2, b3." in out,
      f"replay --server: {status} {out} {err}")
status, out, err = run(["history", "nobody", "--server", address], "ann.sqlite")
check(status == 1 and err.strip() == f"tictactoe: There is no account named nobody on {address}.",
      f"the history of no account: {status} {err}")
status, out, err = run(["replay", "999999", "--server", address], "ann.sqlite")
check(status == 1 and "There is no finished game with id 999999" in err,
      f"the replay of no game: {status} {err}")

# MARK: - A history longer than one answer comes whole, a page at a time


class Peer:
    """A scripted client speaking the protocol itself, for games no terminal needs to see."""

    def __init__(self):
        self.connection = tls_connection()
        self.buffer = b""
        self.send(b"\x01" + struct.pack(">HH", VERSION, VERSION))
        self.expect(0x81)

    def send(self, payload):
        self.connection.sendall(struct.pack(">I", len(payload)) + payload)

    def expect(self, kind):
        """Reads frames until one of type `kind`; returns its payload (None on a refusal)."""
        while True:
            while len(self.buffer) >= 4:
                (length,) = struct.unpack(">I", self.buffer[:4])
                if len(self.buffer) < 4 + length:
                    break
                payload = self.buffer[4:4 + length]
                self.buffer = self.buffer[4 + length:]
                if payload[0] == kind:
                    return payload
                if payload[0] == 0x82:
                    fail(f"a scripted request was refused: {payload.hex()}")
                    return None
            chunk = self.connection.recv(65536)
            if not chunk:
                fail(f"the server closed a scripted connection while waiting for {kind:#x}")
                return None
            self.buffer += chunk

    def refusal(self):
        """Reads the next frame, which must be a refusal; returns (code, request, detail)."""
        while (len(self.buffer) < 4
               or len(self.buffer) < 4 + struct.unpack(">I", self.buffer[:4])[0]):
            chunk = self.connection.recv(65536)
            if not chunk:
                fail("the server closed a scripted connection while waiting for a refusal")
                return None
            self.buffer += chunk
        (length,) = struct.unpack(">I", self.buffer[:4])
        payload = self.buffer[4:4 + length]
        self.buffer = self.buffer[4 + length:]
        if payload[0] != 0x82:
            fail(f"a scripted request was answered, not refused: {payload.hex()}")
            return None
        return struct.unpack(">HBI", payload[1:8])


def text(value):
    data = value.encode()
    return struct.pack(">H", len(data)) + data


pia, quin = Peer(), Peer()
for peer, name in [(pia, "pia"), (quin, "quin")]:
    peer.send(b"\x02" + text(name) + text("correct horse battery"))
    peer.expect(0x83)
PAGED_GAMES = 45  # more than two answers of 20
for _ in range(PAGED_GAMES):
    pia.send(b"\x10" + bytes([3, 3, 3, 0]))
    created = pia.expect(0x90)
    if created is None:
        break
    (length,) = struct.unpack(">H", created[1:3])
    paged_code = created[3:3 + length]
    quin.send(b"\x11" + struct.pack(">H", length) + paged_code)
    pia.expect(0x91)
    pia.send(b"\x15" + struct.pack(">H", length) + paged_code)
    pia.expect(0x95)
    quin.expect(0x95)
status, out, err = run(["history", "pia", "--server", address], "ann.sqlite")
lines = out.splitlines()
check(status == 0 and len(lines) == PAGED_GAMES
      and all("pia (X) vs quin (O)" in line and line.endswith("O won") for line in lines),
      f"a history of {PAGED_GAMES} games on the server: {status} {len(lines)} lines {err}")
status, out, err = run(["history", "quin", "--server", address, "--json"], "bob.sqlite")
paged = [game.get("id") for game in json.loads(out).get("games", [])] if status == 0 else []
check(len(paged) == PAGED_GAMES and len(set(paged)) == PAGED_GAMES
      and paged == sorted(paged, reverse=True),
      f"quin's history in JSON, every game once and newest first: {status} {paged} {err}")

# MARK: - An account has at most GAME_LIMIT unfinished games, on any connection, after a restart

CREATE = b"\x10" + bytes([3, 3, 3, 0])
TOO_MANY = (33, 0x10, GAME_LIMIT)
open_codes = []
for _ in range(GAME_LIMIT):
    pia.send(CREATE)
    created = pia.expect(0x90)
    if created is None:
        break
    (length,) = struct.unpack(">H", created[1:3])
    open_codes.append(created[3:3 + length])
pia.send(CREATE)
check(pia.refusal() == TOO_MANY, f"game {GAME_LIMIT + 1} of one account was not refused")
# Another connection of the same account shares the limit.
pia_again = Peer()
pia_again.send(b"\x03" + text("pia") + text("correct horse battery"))
pia_again.expect(0x83)
pia_again.send(CREATE)
check(pia_again.refusal() == TOO_MANY, "a second connection of pia's got past the limit")
# Quin, with no game under way, still creates one.
quin.send(CREATE)
check(quin.expect(0x90) is not None, "another account was refused a game")
# The player is told what to do in one sentence.
status, out, err = run(["play", "--server", address, "--user", "pia", "--password-stdin", "--new"],
                       "pia.sqlite", "correct horse battery\n")
check(status == 1 and f"You already have {GAME_LIMIT} unfinished games on this server, the most "
      "one account may have; finish or resign one of them, or cancel one still waiting for an "
      "opponent (join it with its code, then leave it), then try again." in err,
      f"play --new at the limit: {status} {out} {err}")
# A restarted server counts the games in its database; pia still comes back to her own.
server.send_signal(signal.SIGTERM)
check(server.wait(timeout=10) == 0, f"the server exited with {server.returncode} on SIGTERM")
server, port, _ = start_server(address)
pia_later = Peer()
pia_later.send(b"\x03" + text("pia") + text("correct horse battery"))
pia_later.expect(0x83)
pia_later.send(CREATE)
check(pia_later.refusal() == TOO_MANY, "after a restart, pia got past the limit")
if open_codes:
    pia_later.send(b"\x11" + struct.pack(">H", len(open_codes[0])) + open_codes[0])
    check(pia_later.expect(0x90) is not None, "after a restart, pia could not come back to a game")

# MARK: - A creator who leaves a game nobody joined cancels it at once


def listed_codes():
    status, out, err = run(["games", "--server", address, "--json"], "ann.sqlite")
    check(status == 0, f"games --json: {status} {err}")
    return {game.get("code") for game in json.loads(out).get("games", [])} if status == 0 else set()


# Quin creates a game and a guest watches it; quin quits while waiting.
quin_play = start(["play", "--server", address, "--user", "quin", "--password-stdin", "--new"],
                  "quin", "quin.sqlite")
send(quin_play, "correct horse battery")
cancelled_code = quin_play.out.expect(r"Invite code: (\w+)").group(1)
quin_play.out.expect(r"Waiting for an opponent…")
# board answers the creator while waiting, as it answers a spectator.
send(quin_play, "board")
quin_play.out.expect(r"Waiting for an opponent…")
watcher = start(["play", "--server", address, "--watch", cancelled_code], "watcher",
                "watcher.sqlite")
watcher.out.expect(r"Waiting for an opponent…")
check(cancelled_code in listed_codes(), f"the new game {cancelled_code} was not listed")
send(quin_play, "quit")
cancelled = f"Game {cancelled_code} is cancelled; no one had joined."
quin_play.out.expect(re.escape(cancelled))
check(quin_play.wait(timeout=TIMEOUT) == 0, "the creator who cancelled did not exit cleanly")
watcher.out.expect(re.escape(cancelled))
check(watcher.wait(timeout=TIMEOUT) == 0, "the spectator of a cancelled game did not exit cleanly")
# Gone at once: not listed, and its code is refused to a player and a spectator.
check(cancelled_code not in listed_codes(), f"the cancelled game {cancelled_code} is still listed")
status, out, err = run(["play", "--server", address, "--user", "ann", "--password-stdin", "--join",
                        cancelled_code], "ann.sqlite", "correct horse\n")
check(status == 1 and f"There is no game with the code {cancelled_code}; check the invite code."
      in err, f"joining a cancelled game: {status} {out} {err}")
status, out, err = run(["play", "--server", address, "--watch", cancelled_code], "watcher.sqlite")
check(status == 1 and "There is no game with the code" in err,
      f"watching a cancelled game: {status} {out} {err}")

# Pia, at the limit, joins one of her waiting games again and her input ends: it is cancelled,
# and the limit makes room for exactly one more game.
if len(open_codes) > 1:
    left_code = open_codes[1].decode()
    status, out, err = run(["play", "--server", address, "--user", "pia", "--password-stdin",
                            "--join", left_code], "pia.sqlite", "correct horse battery\n")
    check(status == 0 and f"Invite code: {left_code}\nWaiting for an opponent…\n" in out
          and f"Game {left_code} is cancelled; no one had joined." in out
          and "the seat is held" not in out,
          f"pia leaving her waiting game at the end of input: {status} {out} {err}")
    check(left_code not in listed_codes(), f"the cancelled game {left_code} is still listed")
    pia_later.send(CREATE)
    check(pia_later.expect(0x90) is not None, "a cancelled game did not make room at the limit")
    pia_later.send(CREATE)
    check(pia_later.refusal() == TOO_MANY, "the limit made room for more than the cancelled game")
    # A raw cancellation of a game that is gone is refused noSuchGame; of another's, notAPlayer.
    pia_later.send(b"\x1a" + text(left_code))
    check(pia_later.refusal() == (16, 0x1A, 0), "cancelling a cancelled game was not refused")
    quin_later = Peer()
    quin_later.send(b"\x03" + text("quin") + text("correct horse battery"))
    quin_later.expect(0x83)
    quin_later.send(b"\x1a" + text(open_codes[2].decode()))
    check(quin_later.refusal() == (21, 0x1A, 0), "cancelling another's game was not refused")
    # A restarted server does not bring it back.
    server.send_signal(signal.SIGTERM)
    check(server.wait(timeout=10) == 0, f"the server exited with {server.returncode} on SIGTERM")
    server, port, _ = start_server(address)
    check(left_code not in listed_codes() and cancelled_code not in listed_codes(),
          "a restarted server brought a cancelled game back")

# MARK: - A player away longer than the grace forfeits

server.send_signal(signal.SIGTERM)
try:
    check(server.wait(timeout=10) == 0, f"the server exited with {server.returncode} on SIGTERM")
except subprocess.TimeoutExpired:
    fail("the server did not stop on SIGTERM")
server.err.expect(r"tictactoe serve: Stopped\.")
server, port, _ = start_server(address, grace=2)
ann, code = ann_creates()
bob = bob_joins(code)
ann.out.expect(r"bob joined; bob plays O\.")
bob.out.expect(r"ann, place your X")
bob.kill()
ann.out.expect(r"bob lost the connection; waiting 2 seconds\.")
ann.out.expect(r"bob left; you win\.")
check(ann.wait(timeout=TIMEOUT) == 0, "the winner by forfeit did not exit cleanly")

# MARK: - After a restart, the player who is back is told the opponent is away

ann, code = ann_creates()
bob = bob_joins(code)
bob.out.expect(r"ann, place your X")
send(ann, "b2")
bob.out.expect(r"X plays b2\.")
send(bob, "a1")
ann.out.expect(r"O plays a1\.")
server.kill()
server.wait()
bob.kill()
bob.wait()
ann.out.expect(r"Lost the connection to the server; reconnecting…")
server, port, _ = start_server(address, grace=5)
ann.out.expect(r"Reconnected to the server\.")
after = ann.out.expect(r"bob (lost the connection; waiting [1-5] seconds?|left; you win)\.")
check(after is not None and after.group(1).startswith("lost"),
      f"after a restart, ann was not told bob is away: {ann.out.seen[-4:]}")
ann.out.expect(r"bob left; you win\.")
check(ann.wait(timeout=TIMEOUT) == 0, "the winner by forfeit after a restart did not exit cleanly")

# MARK: - An open game whose creator stays away past the grace is dropped, and its spectators told

ann, code = ann_creates()
watcher = start(["play", "--server", address, "--watch", code], "watcher", "watcher.sqlite")
watcher.out.expect(r"Waiting for an opponent…")
ann.kill()
watcher.out.expect(re.escape(f"Game {code} is cancelled; no one had joined."), timeout=20)
check(watcher.wait(timeout=TIMEOUT) == 0, "the spectator of a dropped game did not exit cleanly")
check(code not in listed_codes(), f"the dropped game {code} is still listed")

# quit typed before the server has created the game: it is created, then cancelled, and nothing
# after the quit is answered.
status, out, err = run(["play", "--server", address, "--user", "ann", "--password-stdin", "--new"],
                       "ann.sqlite", "correct horse\nquit\nyes\n")
quit_code = re.search(r"Invite code: (\w+)", out)
check(status == 0 and quit_code is not None
      and f"Game {quit_code.group(1)} is cancelled; no one had joined." in out
      and "Unknown command" not in out + err, f"quit before the game was created: {status} {out} {err}")

# MARK: - Two-factor, password and deletion on the server

status, out, err = run(["account", "create", "dee", "--server", address, "--password-stdin"],
                       "dee.sqlite", "first password\n")
check(status == 0, f"dee: {status} {err}")
enable = start(["account", "2fa-enable", "dee", "--server", address, "--password-stdin"],
               "2fa-enable", "dee.sqlite")
send(enable, "first password")
secret = enable.out.expect(r"Secret: ([A-Z2-7]+)").group(1)
enable.out.expect(r"URI: otpauth://totp/.*")
send(enable, totp(secret))
enable.out.expect(r"Two-factor is on for dee\.")
enable.out.expect(r"Recovery codes, each usable once instead of a code; keep them safe:")
recovery = enable.out.expect(r"([a-z2-7]{5}-[a-z2-7]{5})").group(1)
check(enable.wait(timeout=TIMEOUT) == 0, "2fa-enable did not exit cleanly")
status, out, err = run(["account", "2fa-enable", "dee", "--server", address, "--password-stdin"],
                       "dee.sqlite", "first password\n")
check(status == 1 and "Two-factor is already on for this account on the server." in err,
      f"2fa-enable with two-factor on: {status} {out} {err}")
status, out, err = run(["login", "dee", "--server", address, "--password-stdin"],
                       "dee.sqlite", "first password\n")
check(status == 1 and "two-factor" in err, f"a sign-in without a code passed: {status} {err}")
status, out, err = run(["login", "dee", "--server", address, "--password-stdin", "--code",
                        totp(secret, 1)], "dee.sqlite", "first password\n")
check(status == 0 and out.startswith("Signed in as dee"), f"a sign-in with a code: {status} {err}")
status, out, err = run(["account", "2fa-disable", "dee", "--server", address, "--password-stdin"],
                       "dee.sqlite", "first password\n")
check(status != 0, f"two-factor went off without a code: {status} {out} {err}")
status, out, err = run(["account", "2fa-disable", "dee", "--server", address, "--password-stdin"],
                       "dee.sqlite", f"first password\n{recovery}\n")
check(status == 0 and "Two-factor is off for dee." in out, f"2fa-disable: {status} {out} {err}")
status, out, err = run(["account", "2fa-disable", "dee", "--server", address, "--password-stdin"],
                       "dee.sqlite", f"first password\n{recovery}\n")
check(status == 1 and "Two-factor is not on for this account on the server." in err,
      f"2fa-disable with two-factor off: {status} {out} {err}")
status, out, err = run(["account", "passwd", "dee", "--server", address, "--password-stdin"],
                       "dee.sqlite", "first password\nsecond password\n")
check(status == 0, f"passwd: {status} {out} {err}")
status, out, err = run(["account", "delete", "dee", "--server", address, "--password-stdin"],
                       "dee.sqlite", "first password\n")
check(status == 1 and "incorrect" in err, f"the old password deleted the account: {status} {err}")
status, out, err = run(["account", "delete", "dee", "--server", address, "--password-stdin"],
                       "dee.sqlite", "second password\n")
check(status == 0, f"delete: {status} {out} {err}")
status, out, err = run(["stats", "dee", "--server", address], "dee.sqlite")
check(status == 1 and "no account named dee" in err, f"a deleted account has stats: {status} {err}")

# MARK: - Deleting an account: refused during a game, and the opponent keeps the result


def run_signing_in(arguments, database, stdin_text):
    """Runs an account command, waiting out the sign-in limit of this address when it is hit."""
    for _ in range(10):
        status, out, err = run(arguments, database, stdin_text)
        limited = re.search(r"Too many sign-in attempts from this address; try again in (\d+)",
                            err)
        if not limited:
            break
        time.sleep(int(limited.group(1)) + 0.2)
    return status, out, err


status, out, err = run_signing_in(["account", "create", "del2", "--server", address, "--password-stdin"],
                       "del2.sqlite", "del2 password\n")
check(status == 0, f"del2: {status} {err}")
ann, code = ann_creates()
status, out, err = run_signing_in(["account", "delete", "del2", "--server", address, "--password-stdin"],
                       "del2.sqlite", "del2 password\n")
check(status == 0 and out.strip() == "Deleted the account del2.", f"delete: {status} {out} {err}")
status, out, err = run_signing_in(["account", "create", "del2", "--server", address, "--password-stdin"],
                       "del2.sqlite", "del2 password\n")
check(status == 0, f"del2 again: {status} {err}")
del2 = start(["play", "--server", address, "--user", "del2", "--password-stdin", "--join", code],
             "del2", "del2.sqlite")
send(del2, "del2 password")
del2.out.expect(r"ann, place your X")
send(ann, "b2")
del2.out.expect(r"X plays b2\.")
refused_deletion = ("The account has an online game waiting for an opponent or being played; "
                    "finish, resign or cancel it, then delete the account.")
for user, database, password in [("del2", "del2.sqlite", "del2 password"),
                                 ("ann", "ann.sqlite", "correct horse")]:
    status, out, err = run_signing_in(["account", "delete", user, "--server", address, "--password-stdin"],
                           database, password + "\n")
    check(status == 1 and refused_deletion in err,
          f"deleting {user} during a game was not refused: {status} {out} {err}")
ann.out.drain(1)
del2.out.drain(0.2)
check(not any("left" in line or "wins" in line for line in ann.out.seen + del2.out.seen),
      f"a refused deletion ended the game: {ann.out.seen[-3:]} {del2.out.seen[-3:]}")
send(del2, "a1")
ann.out.expect(r"O plays a1\.")
send(ann, "resign")
send(ann, "yes")
ann.out.expect(r"You resigned; del2 wins\.")
del2.out.expect(r"ann resigned; you win\.")
check(ann.wait(timeout=TIMEOUT) == 0 and del2.wait(timeout=TIMEOUT) == 0,
      "the players of a resigned game did not exit cleanly")
status, out, err = run(["stats", "ann", "--server", address, "--json"], "ann.sqlite")
ann_before = json.loads(out) if status == 0 else None
status, out, err = run_signing_in(["account", "delete", "del2", "--server", address, "--password-stdin"],
                       "del2.sqlite", "del2 password\n")
check(status == 0, f"deleting del2 after the game: {status} {out} {err}")
status, out, err = run(["stats", "ann", "--server", address, "--json"], "ann.sqlite")
check(status == 0 and json.loads(out) == ann_before,
      f"deleting del2 changed ann's stats: {ann_before} then {status} {out} {err}")
status, out, err = run(["history", "ann", "--server", address], "ann.sqlite")
check(status == 0 and "del2" in out, f"ann's game against del2 left her history: {out} {err}")

# MARK: - A password changed from another client ends the player's session: it is told so


def start_signing_in(arguments, name, database, password):
    """Starts a player, waiting out the sign-in limit of this address when it is hit."""
    for _ in range(10):
        player = start(arguments, name, database)
        send(player, password)
        try:
            player.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return player
        player.err.drain(0.2)
        limited = re.search(r"try again in (\d+) second", " ".join(player.err.seen))
        check(limited, f"{name} stopped at once: {player.err.seen}")
        time.sleep(int(limited.group(1)) + 0.2)
    raise SystemExit(f"{name} could not sign in within the sign-in limit")


status, out, err = run_signing_in(["account", "create", "pat", "--server", address,
                                   "--password-stdin"], "pat.sqlite", "pat password\n")
check(status == 0, f"pat: {status} {err}")
ann = start_signing_in(["play", "--server", address, "--user", "ann", "--password-stdin",
                        "--new"], "ann", "ann.sqlite", "correct horse")
code = ann.out.expect(r"Invite code: (\w+)").group(1)
pat = start_signing_in(["play", "--server", address, "--user", "pat", "--password-stdin",
                        "--join", code], "pat", "pat.sqlite", "pat password")
pat.out.expect(r"ann, place your X")
send(ann, "b2")
pat.out.expect(r"X plays b2\.")
status, out, err = run_signing_in(["account", "passwd", "pat", "--server", address,
                                   "--password-stdin"], "pat.sqlite",
                                  "pat password\nnew pat password\n")
check(status == 0, f"passwd pat: {status} {out} {err}")
send(pat, "a1")
pat.err.expect(r"tictactoe: The server ended this player's session, as it does when the account's "
               r"password or two-factor is changed elsewhere; sign in again to continue\.")
check(pat.wait(timeout=TIMEOUT) == 1, "pat's client did not stop with status 1")
send(ann, "resign")
send(ann, "yes")
ann.out.expect(r"You resigned; pat wins\.")
check(ann.wait(timeout=TIMEOUT) == 0, "ann did not exit cleanly after resigning")

server.send_signal(signal.SIGTERM)
server.wait(timeout=10)
for process in processes:
    if process.poll() is None:
        process.kill()

finish("online.py", "all online checks passed")
