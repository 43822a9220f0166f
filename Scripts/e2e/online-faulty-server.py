#!/usr/bin/env python3
"""Online play against a server that misbehaves: a fake TLS server on a loopback port goes
silent, answers in text like a web server, sends frames that are not messages, a version the
client did not offer, or a two-factor secret and recovery codes that cannot be real, and the
client must say so in one sentence and stop (trusting nothing, showing none of it), or count
the connection as lost. It also plays a fake game to check what the client sends: nothing for a
cell off the board, an answer for a spectator's typing, and the server's refusal of a join
whose input ended after the password.

The timeouts are the client's own: 10 seconds for the greeting, 30 for the answer to a request
or a move, and one ping interval (30 seconds) plus a deadline (30) without a frame during a
game; the checks run side by side, so the whole run takes about a minute.

Usage: python3 Scripts/e2e/online-faulty-server.py PATH_TO_TICTACTOE
"""

import atexit
import os
import socket
import sqlite3
import ssl
import struct
import subprocess
import sys
import tempfile
import threading
import types
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from online_checks import check, finish  # noqa: E402

BINARY = os.path.abspath(sys.argv[1])
WORK = tempfile.mkdtemp(prefix="tictactoe-faulty-server-")
ENV = dict(os.environ, TICTACTOE_PASSWORD_COST="test", LANG="C.UTF-8", HOME=WORK)
ENV.pop("TICTACTOE_DATABASE", None)
CODE = "ABCDEF"
servers = []
processes = []


@atexit.register
def stop_everything():
    """Stops the fake servers and kills any client still running, even after an exception."""
    for server in servers:
        server.stop()
    for process in processes:
        if process.poll() is None:
            process.kill()


# MARK: - The protocol, as bytes


def string(text):
    data = text.encode()
    return struct.pack(">H", len(data)) + data


def frame(payload):
    return struct.pack(">I", len(payload)) + payload


# The protocol version the client speaks (ProtocolVersion.current in Sources/GameProtocol).
PROTOCOL_VERSION = 5


def welcome(version=PROTOCOL_VERSION):
    return b"\x81" + struct.pack(">H", version)


def signed_in(name):
    return b"\x83" + struct.pack(">q", 1) + string(name) + string("token")


def refused(code, request):
    return b"\x82" + struct.pack(">HBI", code, request, 0)


def player(name):
    return string(name) + struct.pack(">I", 1200) + b"\x00"


def snapshot(moves=(), role=None):
    """A 3×3 game being played between ann (X) and bob (O), seen as `role` (0 X, 1 O)."""
    payload = b"\x90" + string(CODE) + bytes([3, 3, 3, 0])
    payload += b"\x01" + player("ann") + b"\x01" + player("bob")
    payload += struct.pack(">H", len(moves)) + b"".join(bytes(move) for move in moves)
    payload += b"\x01"
    payload += b"\x00" if role is None else b"\x01" + bytes([role])
    return payload


NO_SUCH_GAME = 16
GAME_OVER = 20
MOVE = 0x14
RATE_LIMITED = 9
JOIN_GAME = 0x11
LIST_GAMES = 0x13
INVALID_CODE = 7
CONFIRM_TWO_FACTOR = 0x09


def stats(name):
    """Stats of `name`: rating 1500, one win, no streak to speak of."""
    return b"\x97" + string(name) + struct.pack(">IIIIII", 1500, 1, 0, 0, 1, 1)


def finished_games(*games):
    """A page of finished 3×3 games, each (id, x name, o name, moves as (row, column), winner
    as 0 X, 1 O or None)."""
    payload = b"\x99" + struct.pack(">H", len(games))
    for game_id, x, o, moves, winner in games:
        payload += struct.pack(">q", game_id) + string(x) + string(o) + bytes([3, 3, 3, 0])
        payload += struct.pack(">H", len(moves)) + b"".join(bytes(move) for move in moves)
        payload += b"\x00" if winner is None else b"\x01" + bytes([winner])
        payload += struct.pack(">qq", 1_700_000_000_000, 1_700_000_060_000)
    return payload


# X takes the top row: a win for X.
TOP_ROW = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]


# MARK: - The fake server


def read_frame(connection):
    """The next frame's payload, or None when the client closed the connection."""
    header = b""
    while len(header) < 4:
        data = connection.recv(4 - len(header))
        if not data:
            return None
        header += data
    (length,) = struct.unpack(">I", header)
    payload = b""
    while len(payload) < length:
        data = connection.recv(length - len(payload))
        if not data:
            return None
        payload += data
    return payload


class FakeServer:
    """Accepts TLS connections and runs `script(connection, server)` on each, after `greet`."""

    def __init__(self, script, greet=True, version=PROTOCOL_VERSION, text=None):
        self.script = script
        self.greet = greet
        self.text = text
        self.version = version
        self.connections = 0
        self.received = []
        self.stopped = False
        self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.context.load_cert_chain(CERTIFICATE, KEY)
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(8)
        self.address = "127.0.0.1:%d" % self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()
        servers.append(self)

    def _accept(self):
        while not self.stopped:
            try:
                raw, _ = self.listener.accept()
            except OSError:
                return
            self.connections += 1
            threading.Thread(target=self._serve, args=(raw,), daemon=True).start()

    def _serve(self, raw):
        try:
            connection = self.context.wrap_socket(raw, server_side=True)
            read_frame(connection)  # hello
            if self.text is not None:
                connection.sendall(self.text)
                time.sleep(2)
                return
            if not self.greet:
                time.sleep(120)
                return
            connection.sendall(frame(welcome(self.version)))
            self.script(connection, self)
        except (OSError, ssl.SSLError):
            pass

    def read(self, connection):
        """The next frame, recorded; pings are recorded and skipped."""
        while True:
            payload = read_frame(connection)
            if payload is not None:
                self.received.append(payload)
            if payload is None or payload[0] != 0x17:
                return payload

    def stop(self):
        self.stopped = True
        self.listener.close()


def hold(connection, server, seconds=120):
    """Reads and records what the client sends, answering nothing."""
    connection.settimeout(seconds)
    try:
        while server.read(connection) is not None:
            pass
    except (OSError, ssl.SSLError):
        pass


def seat(connection, server, moves=(), role=1):
    """Signs the client in, and shows the game it asks for to it as a player."""
    server.read(connection)  # signIn or resumeSession
    connection.sendall(frame(signed_in("bob")))
    if server.read(connection) is None:  # the sign-in connection closes here
        return False
    connection.sendall(frame(snapshot(moves, role)))
    return True


# MARK: - Running the client


def command(server, arguments):
    """The client's command line for `server`, with a database of its own."""
    database = os.path.join(WORK, "client-%s.sqlite" % server.address.split(":")[1])
    return [BINARY] + arguments + ["--server", server.address, "--server-fingerprint",
                                   FINGERPRINT, "--database", database]


def client(server, arguments, stdin_text=None, timeout=120):
    """Runs the client against `server`; returns its exit code, output, error and duration."""
    started = time.time()
    process = subprocess.Popen(
        command(server, arguments),
        stdin=subprocess.DEVNULL if stdin_text is None else subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    processes.append(process)
    try:
        out, err = process.communicate(
            None if stdin_text is None else stdin_text.encode(), timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
    return process.returncode, out.decode(), err.decode(), time.time() - started


class Client:
    """A client running in the background, its output lines collected as they come."""

    def __init__(self, server, arguments):
        self.process = subprocess.Popen(
            command(server, arguments), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, env=ENV)
        processes.append(self.process)
        self.lines = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in iter(self.process.stdout.readline, b""):
            self.lines.append((time.time(), raw.decode("utf-8", "replace").rstrip("\n")))

    def type(self, text):
        self.process.stdin.write(text.encode())
        self.process.stdin.flush()

    def wait_for(self, start, timeout=20):
        """The time the first line beginning with `start` came, or None after `timeout`."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            for when, line in list(self.lines):
                if line.startswith(start):
                    return when
            time.sleep(0.05)
        return None

    def finish(self, timeout=20, closing=True):
        """Closes its input (unless not `closing`), waits for it to end and returns its exit
        code, output and error."""
        if closing:
            self.process.stdin.close()
        try:
            status = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            status = self.process.wait()
        time.sleep(0.1)
        out = "\n".join(line for _, line in self.lines)
        return status, out, self.process.stderr.read().decode()


def player_arguments(code=CODE):
    """Plays as bob, the password on the first input line, joining the game `code`."""
    return ["play", "--user", "bob", "--password-stdin", "--join", code]


def has_control_characters(text):
    """Whether the text holds a control character other than a line feed."""
    return any(ord(c) < 32 and c != "\n" for c in text)


# MARK: - A certificate: the one a real server makes for itself at its first start

server_database = os.path.join(WORK, "server.sqlite")
real_server = subprocess.Popen(
    [BINARY, "serve", "--listen", "127.0.0.1:0", "--database", server_database],
    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=ENV)
real_server.stdout.readline()  # Listening on HOST:PORT
FINGERPRINT = real_server.stdout.readline().decode().strip().removeprefix("Fingerprint: ")
real_server.terminate()
real_server.wait(timeout=20)
# The key and the certificate, in one file beside the database.
CERTIFICATE = KEY = server_database + ".tls.pem"


# MARK: - Checks, each on a server of its own, run side by side


def silent_greeting():
    server = FakeServer(hold, greet=False)
    status, out, err, seconds = client(server, ["games"])
    check(status == 1 and f"The server at {server.address} did not answer within 10 seconds."
          in err and "closed" not in err,
          f"a server that never answered hello: {status} {err!r} after {seconds:.0f} s")
    check(9 <= seconds <= 15, f"giving up on hello took {seconds:.1f} s")


def text_answer():
    server = FakeServer(hold, text=b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
    status, out, err, seconds = client(server, ["games"])
    check(status == 1 and f"The server at {server.address} does not speak the tictactoe protocol: "
          "it answered with text (\"HTTP\u2026\")." in err and "Trusting" not in err,
          f"a server that answered like a web server: {status} {err!r}")
    database = command(server, [])[-1]
    with sqlite3.connect(database) as connection:
        pinned = connection.execute("SELECT count(*) FROM known_servers").fetchone()[0]
    check(pinned == 0, f"a server that answered in text was trusted ({pinned} fingerprints kept)")


def closed_at_once():
    """A server that closes every connection before TLS, as a full one does."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    address = "127.0.0.1:%d" % listener.getsockname()[1]

    def refuse():
        while True:
            try:
                raw, _ = listener.accept()
            except OSError:
                return
            raw.close()
    threading.Thread(target=refuse, daemon=True).start()
    fake = types.SimpleNamespace(address=address)
    status, out, err, seconds = client(fake, ["games"])
    listener.close()
    check(status == 1 and f"Cannot reach the server at {address}: it closed the connection "
          "before TLS was set up; it may be full, or not a Tic-Tac-Toe server." in err,
          f"a server that closed the connection at once: {status} {err!r}")


def silent_request():
    server = FakeServer(hold)
    status, out, err, seconds = client(server, ["games"])
    check(status == 1 and f"The server at {server.address} did not answer within 30 seconds."
          in err, f"a server that never answered the request: {status} {err!r}")
    check(29 <= seconds <= 40, f"giving up on the request took {seconds:.1f} s")


def unoffered_version():
    server = FakeServer(hold, version=9)
    status, out, err, seconds = client(server, ["games"])
    check(status == 1 and "chose protocol version 9, which this tictactoe did not offer" in err,
          f"a welcome with a version not offered: {status} {err!r}")


def garbage_while_watching():
    def script(connection, server):
        server.read(connection)  # watchGame
        connection.sendall(frame(snapshot([(1, 1)])))
        time.sleep(0.5)
        connection.sendall(frame(b"\x7f\x1b[2J"))
        hold(connection, server, 10)

    server = FakeServer(script)
    status, out, err, seconds = client(server, ["play", "--watch", CODE], timeout=60)
    check(status == 1 and f"The server at {server.address} sent something that is not a message"
          in err and "reconnecting" not in out,
          f"a spectator sent a frame that is not a message: {status} {out!r} {err!r}")
    check(server.connections == 1, f"the spectator connected {server.connections} times")
    check(not has_control_characters(err), f"raw control characters reached the terminal: {err!r}")


def oversized_while_playing():
    def script(connection, server):
        if seat(connection, server, [(1, 1)], role=1):
            time.sleep(0.5)
            connection.sendall(b"\xff\xff\xff\xff")
            hold(connection, server, 10)

    server = FakeServer(script)
    player = Client(server, player_arguments())
    player.type("secret\n")
    status, out, err = player.finish(closing=False)
    check(status == 1 and f"The server at {server.address} broke the framing" in err
          and "reconnecting" not in out,
          f"a player sent a frame of 4 GB: {status} {out!r} {err!r}")
    check(server.connections == 2, f"the player connected {server.connections} times, not 2")


def impossible_move():
    def script(connection, server):
        if seat(connection, server, [(1, 1)], role=1):
            connection.sendall(frame(b"\x92" + string(CODE) + struct.pack(">H", 1) + bytes([1, 1])))
            hold(connection, server, 10)

    server = FakeServer(script)
    player = Client(server, player_arguments())
    player.type("secret\n")
    status, out, err = player.finish(closing=False)
    check(status == 1 and err.strip().endswith(
        f"The server at {server.address} sent a move that cannot be played: b2 is taken."),
        f"a move onto a taken cell: {status} {out!r} {err!r}")


def cell_off_the_board():
    def script(connection, server):
        if seat(connection, server, [(1, 1)], role=1):
            hold(connection, server, 20)

    server = FakeServer(script)
    player = Client(server, player_arguments())
    player.type("secret\n")
    check(player.wait_for("bob, place your O") is not None, "the game was not shown")
    player.type("p1\na16\nz9\n")
    time.sleep(0.5)
    status, out, err = player.finish()
    for cell in ["p1", "a16", "z9"]:
        check(f"{cell} is not on the board." in out,
              f"{cell} was not refused as off the board: {out!r}")
    check(status == 0 and "Input ended; the seat is held" in out,
          f"the game did not go on after cells off the board: {status} {out!r} {err!r}")
    moves = [payload for payload in server.received if payload[0] == 0x14]
    check(not moves, f"cells off the board were sent: {moves!r}")


def spectator_typing():
    def script(connection, server):
        server.read(connection)  # watchGame
        connection.sendall(frame(snapshot([(1, 1)])))
        hold(connection, server, 20)

    server = FakeServer(script)
    spectator = Client(server, ["play", "--watch", CODE])
    check(spectator.wait_for("Watching ann (X) against bob (O).") is not None,
          "the watched game was not shown")
    spectator.type("\nb2\n\n")
    spectator.wait_for("Spectators cannot move.", timeout=5)
    # The end of a spectator's input is no reason to stop watching.
    spectator.process.stdin.close()
    time.sleep(1)
    check(spectator.process.poll() is None, "the spectator stopped watching when input ended")
    spectator.process.kill()
    spectator.process.wait()
    out = "\n".join(line for _, line in spectator.lines)
    check(out.count("Spectators cannot move.") == 1,
          f"a spectator's typing was not answered once: {out!r}")


def join_refused_after_input_ends():
    def script(connection, server):
        server.read(connection)  # signIn or resumeSession
        connection.sendall(frame(signed_in("bob")))
        if server.read(connection) is not None:  # joinGame
            time.sleep(0.5)
            connection.sendall(frame(refused(NO_SUCH_GAME, JOIN_GAME)))
        hold(connection, server, 10)

    server = FakeServer(script)
    status, out, err, seconds = client(server, player_arguments("ZZZZZZ"), "secret\n", timeout=60)
    check(status == 1 and "There is no game with the code ZZZZZZ; check the invite code." in err
          and "Input ended" not in out,
          f"a join refused after input ended: {status} {out!r} {err!r}")


def silent_mid_game():
    def script(connection, server):
        if seat(connection, server, [(1, 1)], role=1):
            server.silent_since = time.time()
            hold(connection, server, 200)

    server = FakeServer(script)
    server.silent_since = None
    player = Client(server, player_arguments())
    player.type("secret\n")
    lost = player.wait_for("Lost the connection to the server", timeout=100)
    player.process.kill()
    player.process.wait()
    check(lost is not None and server.silent_since is not None,
          "a server silent mid-game was never counted as lost")
    if lost and server.silent_since:
        seconds = lost - server.silent_since
        check(30 <= seconds <= 65, f"a silent server was counted as lost after {seconds:.1f} s")
        print(f"silent server counted as lost after {seconds:.1f} s")


def rss_kib(pid):
    """The resident memory of process `pid`, in KiB, or 0 once it has ended."""
    try:
        with open(f"/proc/{pid}/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    except (OSError, StopIteration):
        return 0


def flood_while_watching():
    """A server that sends pongs without pause for ten seconds: the client reads them as it
    can, and the rest wait in the connection's buffers, not in the client's memory."""
    pongs = frame(b"\x98" + struct.pack(">Q", 7)) * 2_000

    def script(connection, server):
        server.read(connection)  # watchGame
        connection.sendall(frame(snapshot([(1, 1)])))
        started = time.time()
        while time.time() - started < 10:
            connection.sendall(pongs)
        hold(connection, server, 10)

    server = FakeServer(script)
    watcher = Client(server, ["play", "--watch", CODE])
    watcher.wait_for("  a b c")
    samples = []
    for _ in range(40):
        samples.append(rss_kib(watcher.process.pid))
        time.sleep(0.25)
    watcher.finish()
    grown = max(samples) - min(sample for sample in samples if sample > 0)
    check(grown < 64 * 1_024,
          f"a flood of pongs grew the watching client by {grown} KiB: {samples[::8]}")


def records_of_something_else():
    """Answers to `stats`, `history`, `replay` and `games` that answer another request: the
    client names the server's fault and exits 1, showing none of it."""
    cases = [
        (["stats", "ann"], stats("mallory"),
         "answered with the stats of mallory for those of ann."),
        (["history", "ann"], finished_games((5, "eve", "bob", TOP_ROW, 0)),
         "sent game 5, which ann did not play, as one of theirs."),
        (["replay", "5"], finished_games((6, "ann", "bob", TOP_ROW, 0)),
         "answered the request for game 5 with other games."),
        (["replay", "5"], finished_games((5, "ann", "bob", TOP_ROW, None)),
         "sent game 5 with a result its moves do not give."),
        (["replay", "5"], finished_games((5, "ann", "ANN", TOP_ROW, 0)),
         "sent game 5 as played by ann against themselves."),
        (["games"], struct.pack(">BHBI", 0x82, RATE_LIMITED, LIST_GAMES, 0xFFFFFFFF),
         "refused the request with a reason that does not apply to it (rateLimited)."),
    ]
    for arguments, answer, sentence in cases:
        def script(connection, server, answer=answer):
            server.read(connection)  # the request
            connection.sendall(frame(answer))
            hold(connection, server, 10)

        server = FakeServer(script)
        status, out, err, seconds = client(server, arguments, timeout=60)
        check(status == 1 and f"The server at {server.address} {sentence}" in err and not out,
              f"{' '.join(arguments)} answered with something else: {status} {out!r} {err!r}")


def two_factor_confirmation_lost():
    """A server that takes the confirming code and closes before answering may have turned
    two-factor on: the client says it does not know, never that two-factor stays off. A
    server that refuses the code settles it: then two-factor stays off."""
    secret = "JBSWY3DPEHPK3PXP"
    uri = "otpauth://totp/tictactoe:bob?secret=" + secret

    def script(connection, server, refuses):
        server.read(connection)  # beginTwoFactor
        connection.sendall(frame(b"\x86" + string(secret) + string(uri)))
        server.read(connection)  # confirmTwoFactor
        if refuses:
            connection.sendall(frame(refused(INVALID_CODE, CONFIRM_TWO_FACTOR)))
            hold(connection, server, 10)

    arguments = ["account", "2fa-enable", "bob", "--password-stdin"]
    lost = FakeServer(lambda connection, server: script(connection, server, False))
    status, out, err, seconds = client(lost, arguments, "correct horse\n123456\n", timeout=60)
    check(status == 1 and "Whether two-factor is on now is not known" in err
          and "stays off" not in err,
          f"2fa-enable with the answer lost: {status} {err!r}")
    refusing = FakeServer(lambda connection, server: script(connection, server, True))
    status, out, err, seconds = client(refusing, arguments, "correct horse\n123456\n",
                                       timeout=60)
    check(status == 1 and err.rstrip().endswith("Two-factor stays off."),
          f"2fa-enable with the code refused: {status} {err!r}")


def two_factor_lies():
    """A secret no authenticator app could take, or recovery codes that cannot be real (here
    with terminal escapes in them), are named and not shown."""
    secret = "JBSWY3DPEHPK3PXP"
    uri = "otpauth://totp/tictactoe:bob?secret=" + secret
    codes = ["abcde-fghij", "ab\x1b[2Jcd-efghi"]

    def script(connection, server, sent_secret, sent_uri):
        server.read(connection)  # beginTwoFactor
        connection.sendall(frame(b"\x86" + string(sent_secret) + string(sent_uri)))
        if server.read(connection) is not None:  # confirmTwoFactor
            connection.sendall(frame(b"\x87" + struct.pack(">H", len(codes))
                                     + b"".join(string(code) for code in codes)))
        hold(connection, server, 10)

    arguments = ["account", "2fa-enable", "bob", "--password-stdin"]
    for sent_secret, sent_uri, sentence in [
        ("JBSW\x1b[2JY3DPEHPK3PXP", uri, "sent a two-factor secret no authenticator app could "
         "take, so it is not shown; two-factor stays off."),
        (secret, uri + "\x1b]0;t\x07", "sent a two-factor secret no authenticator app could take"),
        (secret, uri, "sent recovery codes that cannot be real ones, so none is shown."),
    ]:
        server = FakeServer(lambda connection, server, sent_secret=sent_secret,
                            sent_uri=sent_uri: script(connection, server, sent_secret, sent_uri))
        status, out, err, seconds = client(server, arguments, "correct horse\n123456\n",
                                           timeout=60)
        check(status == 1 and f"The server at {server.address} {sentence}" in err
              and "Two-factor is on" not in out,
              f"2fa-enable with a lying server: {status} {out!r} {err!r}")
        check(not has_control_characters(out + err),
              f"raw control characters reached the terminal: {out!r} {err!r}")


def recovery_codes_left_lie():
    """A count of recovery codes left that no account holds is named, and the sign-in it
    followed is not said."""
    def script(connection, server):
        server.read(connection)  # signIn
        connection.sendall(frame(signed_in("bob")))
        server.read(connection)  # countRecoveryCodes
        connection.sendall(frame(b"\x88\x01" + struct.pack(">H", 65535)))
        hold(connection, server, 10)

    server = FakeServer(script)
    status, out, err, seconds = client(server, ["login", "bob", "--password-stdin"],
                                       "correct horse\n", timeout=60)
    check(status == 1 and f"The server at {server.address} said bob has 65535 recovery codes "
          "left, more than an account ever holds." in err and "Signed in" not in out,
          f"login with a lying count of recovery codes: {status} {out!r} {err!r}")


def unanswered_move(refusal=None, label="a move unanswered"):
    """A server that answers pings but never the player's move (or refuses it `gameOver` and
    never says how the game ended): after 30 seconds the connection counts as lost, as a
    silent one does, and the client connects again."""
    def script(connection, server):
        if not seat(connection, server, [(1, 1)], role=1):
            return
        connection.settimeout(120)
        try:
            while (payload := read_frame(connection)) is not None:
                server.received.append(payload)
                if payload[0] == 0x17:  # ping: pong, with its nonce
                    connection.sendall(frame(b"\x98" + payload[1:9]))
                elif payload[0] == MOVE and server.move_at is None:
                    server.move_at = time.time()
                    if refusal is not None:
                        connection.sendall(frame(refused(refusal, MOVE)))
        except (OSError, ssl.SSLError):
            pass

    server = FakeServer(script)
    server.move_at = None
    player = Client(server, player_arguments())
    player.type("secret\n")
    check(player.wait_for("bob, place your O") is not None, f"{label}: the game was not shown")
    player.type("a1\n")
    lost = player.wait_for("Lost the connection to the server", timeout=60)
    player.process.kill()
    player.process.wait()
    check(lost is not None and server.move_at is not None,
          f"{label}: the move was waited on for good: {player.lines!r}")
    if lost and server.move_at:
        seconds = lost - server.move_at
        check(29 <= seconds <= 36, f"{label}: given up after {seconds:.1f} s")
        print(f"{label} counted as a lost connection after {seconds:.1f} s")


def move_refused_without_an_ending():
    unanswered_move(GAME_OVER, "a move refused gameOver with no ending")


checks = [two_factor_lies, recovery_codes_left_lie, unanswered_move,
          move_refused_without_an_ending, two_factor_confirmation_lost, flood_while_watching, records_of_something_else, silent_greeting, text_answer, closed_at_once, silent_request, unoffered_version, garbage_while_watching,
          oversized_while_playing, impossible_move, cell_off_the_board, spectator_typing,
          join_refused_after_input_ends, silent_mid_game]
threads = [threading.Thread(target=each) for each in checks]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
finish("online-faulty-server.py",
       "a misbehaving server is named, and cells off the board stay home")
