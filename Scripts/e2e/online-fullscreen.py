#!/usr/bin/env python3
"""Full-screen online play end to end under tmux, against a real `tictactoe serve`.

Two players sign in with the Server field filled in, one creates a game and the other joins it
by its invite code; a guest on a fresh computer trusts the server when asked and watches. The
game is played with keys, digits and a click; an out-of-turn move and a taken cell are refused;
one player's program is killed mid-game and comes back with Join with code; the server is
killed with SIGKILL and restarted on the same database, and every screen reconnects by itself
and the game goes on to its end, which all three screens show.

Usage: python3 Scripts/e2e/online-fullscreen.py PATH_TO_TICTACTOE
"""

import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from online_checks import check, fail, finish  # noqa: E402

BINARY = os.path.abspath(sys.argv[1])
WORK = tempfile.mkdtemp(prefix="tictactoe-online-fullscreen-")
SOCKET = f"tictactoe-online-{os.getpid()}"
ENV = dict(os.environ, TICTACTOE_PASSWORD_COST="test", LANG="C.UTF-8")
ENV.pop("TICTACTOE_DATABASE", None)
servers = []


def tmux(*arguments):
    return subprocess.run(
        ["tmux", "-L", SOCKET, *arguments], capture_output=True, text=True, env=ENV)


class Pane:
    """A program in an 80×24 tmux window, driven with keys and read from its screen."""

    def __init__(self, name, arguments, database):
        self.name = name
        command = " ".join(
            ["env", "TERM=tmux-256color", "LANG=C.UTF-8", "TICTACTOE_PASSWORD_COST=test",
             shell_quote(BINARY), *map(shell_quote, arguments), "--database",
             shell_quote(os.path.join(WORK, database)),
             f"2>{shell_quote(os.path.join(WORK, name + '.err'))};",
             f"echo $? > {shell_quote(os.path.join(WORK, name + '.status'))}; sleep 600"])
        tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", command)

    def screen(self):
        return tmux("capture-pane", "-p", "-t", self.name).stdout

    def keys(self, *keys):
        tmux("send-keys", "-t", self.name, *keys)

    def type(self, text):
        tmux("send-keys", "-t", self.name, "-l", text)

    def click(self, row, column):
        """Clicks the cell at `row`, `column` (from 0) of a 3×3 board under a subtitle."""
        y = 6 + 2 * row
        x = 6 + 4 * column
        self.type(f"\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m")

    def wait(self, pattern, seconds=10):
        """Waits until a line of the screen matches the regular expression; returns the match."""
        compiled = re.compile(pattern)
        deadline = time.time() + seconds
        while time.time() < deadline:
            for line in self.screen().splitlines():
                match = compiled.search(line)
                if match:
                    return match
            time.sleep(0.05)
        fail(f"{self.name}: no line matching {pattern!r} on the screen:\n{self.screen()}")
        return None

    def wait_gone(self, pattern, seconds=10):
        """Waits until no line of the screen matches the regular expression."""
        compiled = re.compile(pattern)
        deadline = time.time() + seconds
        while time.time() < deadline:
            if not any(compiled.search(line) for line in self.screen().splitlines()):
                return True
            time.sleep(0.05)
        fail(f"{self.name}: {pattern!r} stays on the screen:\n{self.screen()}")
        return False

    def board(self):
        """The marks of the 3×3 board on the screen, row by row, as `x.o/...`."""
        rows = []
        for line in self.screen().splitlines():
            match = re.match(r" [1-3] │(.{3})│(.{3})│(.{3})│", line)
            if match:
                rows.append("".join(
                    (cell.strip(" []()<>") or ".").lower() for cell in match.groups()))
        return "/".join(rows)

    def status(self, seconds=10):
        path = os.path.join(WORK, self.name + ".status")
        deadline = time.time() + seconds
        while time.time() < deadline:
            if os.path.exists(path) and open(path).read().strip():
                return int(open(path).read())
            time.sleep(0.05)
        return None


def shell_quote(text):
    return "'" + text.replace("'", "'\\''") + "'"


def run(arguments, database, stdin_text=""):
    result = subprocess.run(
        [BINARY, *arguments, "--database", os.path.join(WORK, database)],
        input=stdin_text.encode(), capture_output=True, env=ENV, timeout=60)
    return result.returncode, result.stdout.decode(), result.stderr.decode()


server_database = os.path.join(WORK, "server.sqlite")


def start_server(listen):
    process = subprocess.Popen(
        [BINARY, "serve", "--listen", listen, "--database", server_database],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=ENV)
    servers.append(process)
    listening = re.fullmatch(r"Listening on 127\.0\.0\.1:(\d+)\n",
                             process.stdout.readline().decode())
    fingerprint = re.fullmatch(r"Fingerprint: SHA256:([0-9a-f]{64})\n",
                               process.stdout.readline().decode())
    if not listening or not fingerprint:
        fail("the server did not say where it listens and its fingerprint")
        raise SystemExit(1)
    return process, int(listening.group(1)), fingerprint.group(1)


def sign_in(pane, password):
    """Signs in with the user name and the server filled in from the command line."""
    pane.wait(r"Accounts on 127\.0\.0\.1:\d+\.")
    pane.keys("Tab")
    pane.type(password)
    pane.keys("Enter")
    pane.wait(r"Signed in as \w+ on 127\.0\.0\.1:\d+")


def join(pane, code):
    """Types the invite code on New game (focus on Create online game) and joins with Enter."""
    pane.keys("Tab")
    pane.type(code.lower())
    pane.keys("Enter")


def main():
    server, port, fingerprint = start_server("127.0.0.1:0")
    address = f"127.0.0.1:{port}"
    for user, password in (("ann", "correct horse"), ("bob", "battery staple")):
        status, out, err = run(
            ["account", "create", user, "--server", address, "--password-stdin"],
            user + ".sqlite", password + "\n")
        check(status == 0, f"account create {user}: {status} {out} {err}")

    # ann creates a game with the form's board.
    ann = Pane("ann", ["play", "--server", address, "--user", "ann"], "ann.sqlite")
    sign_in(ann, "correct horse")
    ann.keys("Enter")
    invite = ann.wait(r"Invite code: ([23456789A-HJKMNP-Z]{6,})\. Give it to your opponent\.")
    if not invite:
        raise SystemExit(1)
    code = invite.group(1)
    ann.wait(rf"Game {code} on {re.escape(address)} · waiting for an opponent\.")

    # bob joins by the code, typed in small letters.
    bob = Pane("bob", ["play", "--server", address, "--user", "bob"], "bob.sqlite")
    sign_in(bob, "battery staple")
    join(bob, code)
    for pane in (ann, bob):
        pane.wait(r"bob joined; bob plays O\.")
    ann.wait(r"^ ann, place your X")
    ann.wait(r"· bob is connected\.")
    bob.wait(r"^ Waiting for ann to place X…")

    # A guest on a computer new to the server types it in, compares the fingerprint, watches.
    cy = Pane("cy", [], "cy.sqlite")
    cy.wait(r"User name")
    cy.keys("BTab")
    cy.type(address)
    cy.keys("C-g")
    cy.wait(rf"{re.escape(address)} is new to this computer")
    shown = re.sub(r"\s+", "", cy.screen())
    check(f"SHA256:{fingerprint}" in shown,
          f"the trust question does not show the server's fingerprint:\n{cy.screen()}")
    cy.keys("y")
    cy.wait(rf"Playing as a guest on {re.escape(address)}")
    cy.type(code)
    cy.keys("Enter")
    cy.wait(r"Watching ann \(X\) against bob \(O\)\.")
    cy.wait(r"· ann is connected; bob is connected\.")

    panes = (ann, bob, cy)

    def expect_everywhere(pattern):
        for pane in panes:
            pane.wait(pattern)

    # X plays b2 where the cursor starts.
    ann.keys("Enter")
    expect_everywhere(r"X plays b2\.")
    # Out of turn and a taken cell: refused, nothing changes.
    ann.keys("1")
    ann.wait(r"It is bob's turn\.")
    bob.keys("5")
    bob.wait(r"b2 is taken\.")
    # Undo belongs to games on one computer.
    bob.keys("u")
    bob.wait(r"Undo, hints, analysis and new games are not part of an online game\.")
    # O plays a1 with a click.
    bob.click(0, 0)
    expect_everywhere(r"O plays a1\.")
    for pane in panes:
        check(pane.board() == "o../.x./...", f"{pane.name}'s board: {pane.board()}")
    # A spectator cannot move.
    cy.keys("3")
    cy.wait(r"Spectators cannot move\.")

    # bob's program is killed; ann and the spectator see it; bob comes back with the code.
    tmux("kill-session", "-t", "bob")
    ann.wait(r"bob lost the connection; waiting 60 seconds\.")
    ann.wait(r"· bob lost the connection\.")
    cy.wait(r"bob lost the connection")
    ann.keys("2")
    expect_again = (ann, cy)
    for pane in expect_again:
        pane.wait(r"X plays b1\.")
    bob = Pane("bob", ["play", "--server", address, "--user", "bob"], "bob.sqlite")
    sign_in(bob, "battery staple")
    join(bob, code)
    bob.wait(r"^ bob, place your O")
    check(bob.board() == "ox./.x./...", f"bob came back to {bob.board()}")
    ann.wait(r"bob is back\.")
    panes = (ann, bob, cy)

    # The server is killed with SIGKILL and restarted on the same database and port: every
    # screen reconnects by itself and the game goes on.
    server.kill()
    server.wait()
    for pane in panes:
        pane.wait(r"reconnecting to the server…")
    server, _, restarted_fingerprint = start_server(address)
    check(restarted_fingerprint == fingerprint, "the restarted server has another certificate")
    # Each screen says it is back (the status line may move on to the others coming back).
    for pane in panes:
        pane.wait_gone(r"reconnecting to the server…", seconds=15)
    ann.wait(r"· bob is connected\.")
    bob.wait(r"· ann is connected\.")
    cy.wait(r"· ann is connected; bob is connected\.")
    bob.keys("3")
    expect_everywhere(r"O plays c1\.")
    ann.keys("8")
    expect_everywhere(r"X wins with b1, b2, b3\.")
    expect_everywhere(r"^ Winner! Congrats ann!")
    expect_everywhere(r"Ratings: ann 1216 \(\+16\), bob 1184 \(−16\)\.")
    for pane in panes:
        check(pane.board() == "oxo/.x./.x.", f"{pane.name}'s final board: {pane.board()}")

    # Every move is stored, in order.
    with sqlite3.connect(server_database) as database:
        stored = [f"{'abc'[column]}{row + 1}" for row, column in database.execute(
            "SELECT cell_row, cell_column FROM online_moves WHERE online_game = "
            "(SELECT id FROM online_games WHERE code = ?) ORDER BY ply", (code,))]
    check(stored == ["b2", "a1", "b1", "c1", "b3"], f"the server stored {stored}")

    # Back on New game, Stats shows ann's record and rating on the server, with no Reset.
    ann.keys("q")
    ann.wait(r"Signed in as ann on")
    ann.keys("Tab", "Tab", "Tab", "Tab", "Tab", "Enter")
    ann.wait(r"Stats on 127\.0\.0\.1:\d+")
    ann.wait(r"Rating: 1216")
    ann.wait(r"People: 1 win, 0 losses, 0 draws")
    ann.wait(r"ann vs bob: ann won in 5 moves")
    check("Reset" not in ann.screen(), f"a server account's Stats offer Reset: {ann.screen()}")
    ann.keys("Escape")
    ann.wait(r"Signed in as ann on")

    # Leave: out of the program, which ends cleanly.
    ann.keys("Escape")
    ann.wait(r"Leave Tic-Tac-Toe\?")
    ann.keys("y")
    check(ann.status() == 0, f"ann's program ended with {ann.status()}")
    errors = open(os.path.join(WORK, "ann.err")).read()
    check(errors == "", f"ann's program wrote to stderr: {errors!r}")


try:
    main()
finally:
    tmux("kill-server")
    for process in servers:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
    shutil.rmtree(WORK, ignore_errors=True)

finish("online-fullscreen.py", "all full-screen online checks passed")
