"""Drives tictactoe-gtk through AT-SPI only: names, roles, states, actions and text.

Run by Scripts/gtk-e2e.sh inside `xvfb-run` and `dbus-run-session`, with the system interpreter
(`command -p python3`), which has dogtail and pyatspi:

    python3 Scripts/a11y_check.py guest GTK DATABASE
    python3 Scripts/a11y_check.py board GTK DATABASE SIZE
    python3 Scripts/a11y_check.py keys GTK DATABASE
    python3 Scripts/a11y_check.py signin GTK DATABASE USER PASSWORD SECRET
    python3 Scripts/a11y_check.py responsive GTK DATABASE SECONDS
    python3 Scripts/a11y_check.py chrome GTK DATABASE
    python3 Scripts/a11y_check.py online GTK CLI FOLDER
    python3 Scripts/a11y_check.py failure GTK FOLDER

Each check prints `ok N - what`; the first failure prints `FAILED: what` and exits 1.
No coordinates are used: widgets are found by accessible name and role, and pressed through
their AT-SPI action.
"""

import atexit
import base64
import hashlib
import hmac
import os
import re
import signal
import struct
import subprocess
import sys
import time

from dogtail.config import config

config.checkForA11y = False  # else dogtail stops to ask for accessibility to be turned on
config.searchCutoffCount = 10
config.searchBackoffDuration = 0.3
config.logDebugToFile = False
config.logDebugToStdOut = False

import pyatspi  # noqa: E402
from dogtail import tree  # noqa: E402

CELL = re.compile(r"^Row (\d+), column (\d+), (X|O|empty)$")
# A container with more children than this holds a board's cells (9 on 3×3, 225 on 15×15).
BOARD_CHILDREN = 8
checks = 0


def ok(what):
    global checks
    checks += 1
    print(f"ok {checks} - {what}", flush=True)


def fail(what):
    print(f"FAILED: {what}", flush=True)
    raise SystemExit(1)


def check(condition, what):
    if not condition:
        fail(what)
    ok(what)


def wait_for(predicate, what, timeout=10.0):
    """Polls `predicate` until it returns something truthy; fails with `what` after `timeout`."""
    deadline = time.monotonic() + timeout
    last_error = None
    while time.monotonic() < deadline:
        try:
            value = predicate()
            if value:
                return value
        except Exception as error:  # the tree changes under us while screens switch
            last_error = error
        time.sleep(0.1)
    fail(f"{what} (waited {timeout:.0f} s; last error: {last_error})")


class App:
    """One running tictactoe-gtk and its AT-SPI tree."""

    def __init__(self, gtk, database, *arguments, environment=None):
        env = dict(os.environ, TICTACTOE_DATABASE=database, **(environment or {}))
        self.process = subprocess.Popen(
            [gtk, *arguments], env=env, stdout=subprocess.PIPE, text=True)
        self.root = wait_for(self._application, "the application appears on the AT-SPI bus", 20)

    def _application(self):
        if self.process.poll() is not None:
            fail(f"tictactoe-gtk exited with status {self.process.returncode}")
        # Another tictactoe-gtk may be running (a spectator's): find this one by its process.
        for application in tree.root.children:
            if (application.name == "tictactoe-gtk"
                    and application.get_process_id() == self.process.pid):
                return application
        return None

    def stop(self):
        """Ends the app with SIGTERM and returns its standard output."""
        self.process.send_signal(signal.SIGTERM)
        try:
            output, _ = self.process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            fail("tictactoe-gtk did not exit on SIGTERM")
        return output

    # MARK: - Finding things

    def all(self, role, name=None):
        """Every node with `role` (and `name`), in tree order; GTK leaves hidden widgets out."""
        found = self.root.findChildren(
            lambda node: node.roleName == role and (name is None or node.name == name))
        return list(found)

    def one(self, role, name, timeout=10.0):
        return wait_for(lambda: first(self.all(role, name)), f"a {role} named {name!r} shows",
                        timeout)

    def press(self, name, role="push button"):
        button = self.one(role, name)
        wait_for(lambda: button.sensitive, f"{name!r} takes input")
        button.doActionNamed("click")

    def type_into(self, name, text, role="text"):
        field = self.one(role, name)
        field.queryEditableText().setTextContents(text)

    def first_outside_board(self, role):
        """The first node with `role` in tree order, not looking among a board's cells.

        A walk of the whole tree is hundreds of D-Bus calls, each slower while the engine
        keeps the machine busy (seconds on 15×15); the title line is never among the cells."""
        stack = [self.root]
        while stack:
            node = stack.pop()
            if node.roleName == role:
                return node
            children = list(node.children)
            if len(children) > BOARD_CHILDREN:
                continue
            stack.extend(reversed(children))
        return None

    def status(self):
        return wait_for(lambda: self.first_outside_board("status bar"), "the title line shows")

    def title(self):
        return self.status().name

    def cells(self):
        """The board's cells as {(row, column): mark}, from their accessible names."""
        marks = {}
        for button in self.all("push button"):
            match = CELL.match(button.name)
            if match:
                marks[(int(match[1]), int(match[2]))] = match[3]
        return marks

    def cell_buttons(self):
        return [button for button in self.all("push button") if CELL.match(button.name)]


def first(items):
    return items[0] if items else None


def ended_just_now(name, line):
    """Whether `name` is the time a game ended on this computer's clock, this minute or the one
    before, followed by `line`."""
    now = time.time()
    times = {time.strftime("%Y-%m-%d %H:%M", time.localtime(now - back)) for back in (0, 60)}
    return any(name == f"{shown} · {line}" for shown in times)


def is_focused(node):
    return node.getState().contains(pyatspi.STATE_FOCUSED)


def is_enabled(node):
    return node.getState().contains(pyatspi.STATE_SENSITIVE)


# GTK names an object that has no name by its class, such as "GtkSpinButton".
CLASS_NAME = re.compile(r"^(Gtk|Adw)[A-Z][A-Za-z]*$")


def name_problem(name):
    """What is wrong with an accessible name that a screen reader would read, or None."""
    name = (name or "").strip()
    if not name:
        return "no name"
    if CLASS_NAME.match(name):
        return "only its class's name"
    words = name.split(" ")
    half = len(words) // 2
    if len(words) % 2 == 0 and words[:half] == words[half:]:
        return "its name twice"
    return None


def check_focus_stops_named(app, screen):
    """Every object of the app that can take the keyboard focus has a name of its own: no empty
    name, no class name, no name said twice. A container with nothing to say is no focus stop.

    Walks every window of the app, skipping into a board's cells only to check each one."""
    unnamed = []
    stack = [(app.root, "")]
    while stack:
        node, path = stack.pop()
        try:
            role, name = node.roleName, node.name
            state = node.getState()
            children = list(node.children)
        except Exception:  # a node that went while the tree was walked
            continue
        here = f"{path}/{role}"
        if state.contains(pyatspi.STATE_FOCUSABLE):
            problem = name_problem(name)
            if problem:
                unnamed.append(f"{here} {name!r} ({problem})")
        if role == "combo box":
            # The row is the focus stop. libadwaita draws its choice inside with a list that
            # never takes the focus (can-focus false), which GTK 4.8 still calls focusable.
            continue
        stack.extend((child, here) for child in reversed(children))
    check(not unnamed, f"{screen}: every focusable object has a name of its own"
          + (f"; not: {unnamed}" if unnamed else ""))


def check_board(app, rows, columns, what):
    marks = app.cells()
    names = [button.name for button in app.cell_buttons()]
    expected = {(row, column) for row in range(1, rows + 1) for column in range(1, columns + 1)}
    check(len(names) == rows * columns and len(set(names)) == rows * columns
          and set(marks) == expected,
          f"{what}: {rows * columns} cells with distinct names Row r, column c")
    return marks


def counts(marks):
    values = list(marks.values())
    return values.count("X"), values.count("O")


def totp(secret, steps=0):
    """The RFC 6238 code (SHA-1, 6 digits, 30 s) of a base32 secret, `steps` steps from now."""
    key = base64.b32decode(secret.upper() + "=" * (-len(secret) % 8))
    counter = int(time.time()) // 30 + steps
    mac = hmac.new(key, struct.pack(">Q", counter), hashlib.sha1).digest()
    offset = mac[-1] & 0x0F
    number = (struct.unpack(">I", mac[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000
    return f"{number:06d}"


# MARK: - Scenarios


def guest(gtk, database):
    """As a guest against Unbeatable: a whole game by cell names, Play again, Quit."""
    app = App(gtk, database)
    app.one("label", "Sign in")
    ok("opens at Sign in")
    check_focus_stops_named(app, "Sign in")
    app.press("Play as guest")
    app.one("label", "Playing as a guest")
    ok("Play as guest opens New game")
    spin = app.one("spin button", "In a row to win")
    check(spin.value == 3, "the In a row to win spin button is named by its row and says 3")
    check_focus_stops_named(app, "New game")
    app.type_into("X player", "Ann")
    app.press("Against the computer")
    app.press("Computer plays O")
    app.press("Unbeatable")
    app.press("X starts")
    app.press("Let's play!")
    wait_for(lambda: app.title() == "Ann, place your X", "the game starts with Ann to move")
    ok("Let's play! opens the game: Ann, place your X")
    marks = check_board(app, 3, 3, "a 3×3 board")
    check(all(mark == "empty" for mark in marks.values()), "every cell starts empty")
    check_focus_stops_named(app, "Game")

    moves = 0
    while True:
        title = app.title()
        if title.startswith("Winner!") or title == "Tied game!":
            break
        check(title == "Ann, place your X", f"the title asks for Ann's move: {title!r}")
        before = app.cells()
        x_count, o_count = counts(before)
        check(x_count == o_count, f"before move {moves + 1}: {x_count} X and {o_count} O")
        # Play the first empty cell in reading order, by its accessible name.
        row, column = min(cell for cell, mark in before.items() if mark == "empty")
        name = f"Row {row}, column {column}, empty"
        button = app.one("push button", name)
        check(is_enabled(button), f"{name} is enabled")
        button.doActionNamed("click")
        moves += 1
        wait_for(lambda: app.cells().get((row, column)) == "X",
                 f"the cell becomes Row {row}, column {column}, X")
        ok(f"move {moves}: Row {row}, column {column}, X")
        # Then the computer answers, unless the game is over.
        wait_for(lambda: counts(app.cells())[1] == o_count + 1
                 or app.title().startswith("Winner!") or app.title() == "Tied game!",
                 "the computer answers or the game ends")
        after = app.cells()
        x_after, o_after = counts(after)
        changed = {cell for cell in after if after[cell] != before[cell]}
        check(x_after == x_count + 1 and o_after in (o_count, o_count + 1)
              and len(changed) == x_after + o_after - x_count - o_count,
              f"after move {moves}: {x_after} X and {o_after} O, only new marks changed")
        check_board(app, 3, 3, f"after move {moves}")

    title = app.title()
    check(title in ("Winner! Congrats Computer!", "Tied game!"),
          f"Unbeatable does not lose: {title!r}")
    again = app.one("push button", "Play again")
    wait_for(lambda: is_focused(again), "Play again takes the focus at game over")
    ok("game over: Play again has the focus")
    check(re.match(r"^(O wins with [a-c][1-3], [a-c][1-3], [a-c][1-3]\.|Tied game\.)$",
                   again.description or "") is not None,
          f"Play again's description announces the result: {again.description!r}")
    check(all(not is_enabled(button) for button in app.cell_buttons()),
          "no cell takes a move after the game")

    app.press("Play again")
    wait_for(lambda: app.title() == "Ann, place your X", "Play again starts a new game")
    marks = check_board(app, 3, 3, "after Play again")
    check(all(mark == "empty" for mark in marks.values()), "Play again empties the board")

    app.press("Row 2, column 2, empty")
    wait_for(lambda: counts(app.cells()) == (1, 1), "the computer answers the centre")
    app.press("Quit")
    app.press("Keep playing")
    wait_for(lambda: not app.all("push button", "Quit game"), "Keep playing hides the question")
    check(counts(app.cells()) == (1, 1), "Keep playing keeps the game")
    app.press("Quit")
    app.press("Quit game")
    app.one("push button", "Let's play!")
    check(app.one("text", "X player") is not None, "Quit returns to New game")
    app.press("Stats")
    app.one("label", "Stats")
    tally = wait_for(lambda: first([label.name for label in app.all("label")
                                    if label.name.startswith("Computer (Unbeatable): ")]),
                     "Stats shows the games against Unbeatable")
    check(re.match(r"^Computer \(Unbeatable\): 0 wins, [01] loss(es)?, [01] draws?$", tally)
          is not None, f"Stats counts the finished game: {tally!r}")
    recent = wait_for(lambda: first([button for button in app.all("push button")
                                     if button.description == "Replay this game"]),
                      "Stats lists the finished game with a replay button")
    result = "tied" if title == "Tied game!" else "Computer won"
    expected = f"Ann vs Computer: {result} in {moves * 2 - (title == 'Tied game!')} moves"
    check(ended_just_now(recent.name, expected),
          f"the replay button is named {expected!r} once, with the time it ended: "
          f"{recent.name!r}")
    check_focus_stops_named(app, "Stats")
    recent.doActionNamed("click")
    wait_for(lambda: app.all("label", "Move 0 of " + str(moves * 2 - (title == "Tied game!"))),
             "the recent game opens for replay at its start")
    app.press("Forward a move")
    wait_for(lambda: any(label.name.startswith("Move 1 of ") for label in app.all("label")),
             "Forward a move steps the replay")
    ok("a recent game replays move by move")
    check_focus_stops_named(app, "Stats with a replay")
    app.press("Done")
    app.one("push button", "Let's play!")
    app.press("Back to Sign in")
    app.one("push button", "Play as guest")
    ok("Back to Sign in returns to Sign in")
    app.stop()


def board(gtk, database, size):
    """`play --size N`: every cell is a button with its own name."""
    size = int(size)
    app = App(gtk, database, "play", "--size", str(size), "--computer", "none")
    wait_for(lambda: app.title() == "Player X, place your X", "the game opens")
    marks = check_board(app, size, size, f"a {size}×{size} board")
    check(all(mark == "empty" for mark in marks.values()), f"all {size * size} cells are empty")
    app.press(f"Row {size}, column 1, empty")
    wait_for(lambda: app.cells().get((size, 1)) == "X", "the bottom-left cell takes an X")
    check(app.title() == "Player O, place your O", "then O is to move")
    app.stop()


def keys(gtk, database):
    """The keyboard, as assistive technologies synthesise it: Enter, arrows, Ctrl+Z, Ctrl+Shift+Z,
    Ctrl+N, F1."""
    from dogtail import rawinput

    app = App(gtk, database, "play", "--computer", "none", "--x", "Ann", "--o", "Bob")
    wait_for(lambda: app.title() == "Ann, place your X", "the game opens")
    wait_for(lambda: is_focused(app.one("push button", "Row 1, column 1, empty")),
             "the focus starts on the first cell")
    ok("the focus starts on Row 1, column 1")
    rawinput.pressKey("Return")
    wait_for(lambda: app.cells().get((1, 1)) == "X", "Enter plays the focused cell")
    ok("Enter plays the focused cell")
    rawinput.pressKey("Right")
    rawinput.pressKey("Down")
    wait_for(lambda: is_focused(app.one("push button", "Row 2, column 2, empty")),
             "arrows move the focus to Row 2, column 2")
    ok("arrows move the focus")
    rawinput.pressKey("space")
    wait_for(lambda: app.cells().get((2, 2)) == "O", "Space plays the focused cell")
    ok("Space plays the focused cell")
    rawinput.keyCombo("<Control>z")
    wait_for(lambda: counts(app.cells()) == (1, 0), "Ctrl+Z takes back O's move")
    ok("Ctrl+Z undoes")
    rawinput.keyCombo("<Control><Shift>z")
    wait_for(lambda: app.cells().get((2, 2)) == "O", "Ctrl+Shift+Z plays O's move again")
    ok("Ctrl+Shift+Z redoes")
    rawinput.keyCombo("<Control><Shift>z")
    wait_for(lambda: first(app.all("label", "There is no move to redo.")),
             "Ctrl+Shift+Z with nothing to redo says so")
    ok("Ctrl+Shift+Z with nothing to redo says so")
    rawinput.keyCombo("<Control>z")
    wait_for(lambda: counts(app.cells()) == (1, 0), "Ctrl+Z takes back O's move again")
    check(not app.all("push button", "Play again"), "no Play again while the game goes on")
    rawinput.keyCombo("<Control>n")
    wait_for(lambda: app.all("push button", "Keep playing"),
             "Ctrl+N during a game asks before leaving it")
    check(counts(app.cells()) == (1, 0), "the question leaves the game as it was")
    app.press("Keep playing")
    wait_for(lambda: not app.all("push button", "Keep playing"), "Keep playing closes the question")
    check(counts(app.cells()) == (1, 0), "Keep playing keeps the game")
    ok("Ctrl+N during a game asks first, and Keep playing keeps it")
    for cell in ("Row 1, column 2, empty", "Row 2, column 1, empty", "Row 1, column 3, empty",
                 "Row 3, column 1, empty"):
        app.press(cell)
    wait_for(lambda: app.title() == "Winner! Congrats Ann!", "X wins down the first column")
    rawinput.keyCombo("<Control>n")
    wait_for(lambda: counts(app.cells()) == (0, 0), "Ctrl+N after the game starts another")
    ok("Ctrl+N plays again once the game is over")
    rawinput.pressKey("F1")
    help_window = wait_for(
        lambda: first([node for node in app.root.children if node.name == "Keyboard help"]),
        "F1 opens Keyboard help")
    ok("F1 opens Keyboard help")
    check(any("arrow keys" in label.name for label in help_window.findChildren(
        lambda node: node.roleName == "label")), "the help names the arrow keys")
    rawinput.pressKey("Escape")
    wait_for(lambda: not [node for node in app.root.children if node.name == "Keyboard help"],
             "Escape closes the help")
    ok("Escape closes the help")
    app.stop()


def signin(gtk, database, user, password, secret):
    """Sign in with an account made on the command line, with two-factor."""
    app = App(gtk, database)
    app.type_into("User name", user)
    app.type_into("Password", "not the password", role="password text")
    app.press("Sign in")
    error = app.one("label", "The user name or password is incorrect.")
    check(error is not None, "a wrong password is refused with the core's message")

    app.type_into("Password", password, role="password text")
    app.press("Sign in")
    app.one("label", "Two-factor authentication")
    ok("the password leads to Two-factor")
    check_focus_stops_named(app, "Two-factor")
    app.type_into("Code", "000000" if totp(secret, 1) != "000000" else "111111")
    app.press("Verify")
    app.one("label", "That code is not valid. Check your authenticator app and try again.")
    ok("a wrong code is refused")
    # 2fa-enable used this step's code; the next step's is accepted too, and not yet used.
    app.type_into("Code", totp(secret, 1))
    app.press("Verify")
    app.one("label", f"Signed in as {user}")
    ok(f"the code signs in: Signed in as {user}")
    name = app.one("text", "X player")
    check(name.queryText().getText(0, name.queryText().characterCount) == user,
          "X's name is the signed-in player's")
    app.press("Sign out")
    app.one("push button", "Play as guest")
    ok("Sign out returns to Sign in")
    app.stop()


def responsive(gtk, database, seconds):
    """Computer against computer on 15×15: the window keeps answering while the engine thinks."""
    app = App(gtk, database, "play", "--size", "15", "--computer", "both", "--difficulty",
              "unbeatable", environment={"TICTACTOE_GTK_REPORT_STALLS": "1"})
    status = app.status()
    deadline = time.monotonic() + float(seconds)
    slowest = 0.0
    thinking = 0
    while time.monotonic() < deadline:
        # One D-Bus round trip, answered by the app's main loop.
        start = time.monotonic()
        title = status.name
        slowest = max(slowest, time.monotonic() - start)
        thinking += "is thinking" in title
        time.sleep(0.05)
    marks = app.cells()
    played = sum(mark != "empty" for mark in marks.values())
    check(thinking > 0 and played > 0, f"the computers played {played} moves while polled")
    output = app.stop()
    overall = re.search(r"longest main-loop stall: (\d+) ms", output)
    thinking_stall = re.search(r"while the computer thinks: (\d+) ms", output)
    check(overall is not None and thinking_stall is not None,
          "the app reports its longest main-loop stalls")
    stall = int(thinking_stall[1])
    print(f"figures: 15x15 computer vs computer, {played} moves in {seconds} s, "
          f"{thinking} of the title reads during thinking; longest main-loop stall "
          f"{overall[1]} ms overall (window building included), {stall} ms while the computer "
          f"thinks; slowest AT-SPI title read {slowest * 1000:.0f} ms", flush=True)
    check(stall < 250, f"the main loop never stalled 250 ms while the computer thought ({stall} ms)")
    check(slowest < 1.0, f"the title always answered AT-SPI within 1 s ({slowest * 1000:.0f} ms)")


def chrome(gtk, database):
    """The window around the screens: the primary menu, its windows, a toast, a whole game."""
    app = App(gtk, database, "play", "--computer", "none", "--x", "Ann", "--o", "Bob")
    wait_for(lambda: app.title() == "Ann, place your X", "the game opens")
    app.one("frame", "Tic-Tac-Toe")
    check(app.one("label", "Ann vs Bob") is not None, "the header bar's title names the players")
    check(app.one("push button", "Quit") is not None, "the header bar's back button is Quit")

    def open_menu():
        button = wait_for(lambda: first([node for node in app.all("push button", "Main menu")
                                         if node.actions]), "the primary menu's button shows")
        button.doActionNamed("click")

    def choose(item):
        open_menu()
        app.press(item, role="menu item")

    def window(name):
        return wait_for(lambda: first([node for node in app.root.children
                                       if node.roleName == "frame" and node.name == name]),
                        f"a window named {name!r} opens (open: "
                        f"{[node.name for node in app.root.children]})")

    def gone(name):
        wait_for(lambda: not [node for node in app.root.children if node.name == name],
                 f"the {name!r} window closes")

    open_menu()
    entries = ["New Game", "Statistics", "Preferences", "Keyboard Shortcuts", "About Tic-Tac-Toe"]
    for entry in entries:
        app.one("menu item", entry)
    names = [node.name for node in app.all("menu item")]
    check(names == entries, f"the primary menu holds {', '.join(entries)} in that order: {names}")
    from dogtail import rawinput
    rawinput.pressKey("Escape")
    wait_for(lambda: not app.all("menu item"), "Escape closes the primary menu")

    choose("About Tic-Tac-Toe")
    about = window("About")
    labels = [node.name for node in about.findChildren(lambda node: node.roleName == "label")]
    check("Tic-Tac-Toe" in labels and "0.1.0" in labels, "About names the app and its version")
    about.doActionNamed("window.close")
    gone("About")
    ok("About closes and the game is still there")

    choose("Keyboard Shortcuts")
    shortcuts = window("Keyboard help")
    texts = [node.name for node in shortcuts.findChildren(lambda node: node.roleName == "label")]
    check(any(text.startswith("Undo") for text in texts),
          f"the shortcuts window lists Undo: {texts[:4]}")
    shortcuts.doActionNamed("window.close")
    gone("Keyboard help")
    ok("the shortcuts window closes")

    # A whole game at one keyboard: X takes the top row.
    moves = [(1, 1), (2, 1), (1, 2), (2, 2), (1, 3)]
    for number, (row, column) in enumerate(moves):
        mark = "X" if number % 2 == 0 else "O"
        app.press(f"Row {row}, column {column}, empty")
        wait_for(lambda: app.cells().get((row, column)) == mark,
                 f"Row {row}, column {column} becomes {mark}")
    wait_for(lambda: app.title() == "Winner! Congrats Ann!", "the title says Ann won")
    ok("a whole game: Winner! Congrats Ann!")
    toast = wait_for(lambda: first(app.all("label", "X wins with a1, b1, c1.")),
                     "a toast says X wins with a1, b1, c1.")
    ancestors = []
    node = toast.parent
    while node is not None and len(ancestors) < 4:
        ancestors.append(node.name)
        node = node.parent
    check("AdwToastWidget" in ancestors, "the result shows as a toast: X wins with a1, b1, c1.")
    # libadwaita 1.2 leaves the close button unnamed; the app names it.
    check(wait_for(lambda: first(app.all("push button", "Dismiss")), "the toast's close button"),
          "the toast's close button is named Dismiss")
    check(all(not is_enabled(button) for button in app.cell_buttons()),
          "no cell takes a move after the game")

    app.press("Quit")
    app.one("push button", "Let's play!")
    ok("after the game, the back button returns to New game without a question")
    choose("Statistics")
    # The button, not the row: a row named by its title hid a button whose name was doubled.
    played = "Ann vs Bob: Ann won in 5 moves"
    recent = wait_for(lambda: first([node for node in app.all("push button")
                                     if ended_just_now(node.name, played)]),
                      "Statistics opens Stats, with a button named after the game just played")
    replays = [(node.name, node.description) for node in app.all("push button")
               if node.description == "Replay this game"]
    check(len(replays) == 1 and ended_just_now(replays[0][0], played)
          and replays[0][1] == "Replay this game",
          f"Stats lists the game once, its replay button named exactly: {replays!r}")
    check(recent is not None, f"the replay button is named {played}, with the time it ended")
    check_focus_stops_named(app, "Stats from the menu")

    choose("Preferences")
    preferences = window("Preferences")
    check(first(preferences.findChildren(lambda node: node.name == "Appearance")) is not None,
          "Preferences offers the appearance")
    preferences.doActionNamed("window.close")
    gone("Preferences")
    ok("Preferences closes")
    app.stop()


class Server:
    """`tictactoe serve` on a free loopback port with a database of its own."""

    def __init__(self, cli, folder):
        self.process = subprocess.Popen(
            [cli, "serve", "--listen", "127.0.0.1:0", "--database",
             os.path.join(folder, "server.sqlite"), "--reconnect-grace", "60"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.lines = Lines(self.process.stdout)
        listening = self.lines.expect(r"Listening on (127\.0\.0\.1:\d+)", "the server listens")
        self.address = listening[1]
        self.fingerprint = self.lines.expect(r"Fingerprint: (SHA256:[0-9a-f]{64})",
                                             "the server prints its fingerprint")[1]

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            fail("tictactoe serve did not stop on SIGTERM")


class Lines:
    """A stream read line by line on a thread, so that a line can be waited for."""

    def __init__(self, stream):
        import queue
        import threading
        self.queue = queue.Queue()
        self.seen = []
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream):
        for line in iter(stream.readline, ""):
            self.queue.put(line.rstrip("\n"))
        self.queue.put(None)

    def expect(self, pattern, what, timeout=20.0):
        import queue
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                fail(f"{what}: no line matching {pattern!r}; last lines {self.seen[-8:]}")
            try:
                line = self.queue.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                self.queue.put(None)
                fail(f"{what}: the output ended before {pattern!r}; last lines {self.seen[-8:]}")
            self.seen.append(line)
            match = re.fullmatch(pattern, line)
            if match:
                return match


def online(gtk, cli, folder):
    """An online game against a real server: Sign in with the Server field, trust the
    fingerprint, create a game, an opponent on the command line joins with the invite code,
    a guest on a second desktop watches with the code, a complete game through AT-SPI clicks
    with the opponent's client killed and back midway, and the server's record of the
    moves."""
    environment = dict(os.environ, TICTACTOE_PASSWORD_COST="test", LANG="C.UTF-8")
    environment.pop("TICTACTOE_DATABASE", None)
    started = []
    # A failed check exits at once: the server and the opponent's client go with it.
    atexit.register(lambda: [process.kill() for process in started if process.poll() is None])
    server = Server(cli, folder)
    started.append(server.process)
    address = server.address
    ok(f"tictactoe serve listens on {address}")
    passwords = {"ann": "correct horse", "bob": "battery staple"}
    accounts_on(server, cli, folder, passwords, environment)

    app = App(gtk, os.path.join(folder, "desktop.sqlite"))
    app.type_into("Server", address)
    app.one("label", f"Accounts on {address}.")
    ok("the Server field says whose accounts the form uses")
    question = sign_in_online(app, server, "ann", passwords["ann"])
    check(question.startswith(f"{address} is new to this computer. Its fingerprint is "
                              f"{server.fingerprint}."),
          f"the question names the server and the fingerprint it printed: {question!r}")
    ok("trusting the fingerprint signs in on the server")

    app.press("Create online game")
    code_label = wait_for(lambda: first([node for node in app.all("label")
                                         if node.name.startswith("Invite code ")]),
                          "the invite code shows")
    code = code_label.name.removeprefix("Invite code ")
    check(re.fullmatch(r"[23456789A-HJKMNP-Z]{6,}", code) is not None,
          f"the invite code is {code!r}")
    app.one("push button", "Copy the invite code")
    wait_for(lambda: app.title() == "Waiting for an opponent…", "the title waits for bob")
    ok("Create online game shows the invite code, with a button to copy it")

    def join():
        bob = opponent(cli, address, code, "bob", passwords["bob"],
                       os.path.join(folder, "bob-cli.sqlite"), environment)
        started.append(bob)
        return bob

    bob = join()
    bob.lines.expect(r"bob joined; bob plays O\.", "bob joins with the code")
    app.one("label", "ann (X, 1200) against bob (O, 1200)")
    app.one("label", f"Game {code} on {address} · bob is connected.")
    ok("the header bar names the players and says bob is connected")
    toast(app, "bob joined; bob plays O.")

    # A guest on another desktop watches with the invite code, without an account.
    watcher = App(gtk, os.path.join(folder, "watcher.sqlite"))
    started.append(watcher.process)
    watcher.type_into("Server", address)
    watcher.press("Play as guest")
    watcher.one("label", "Trust this server?")
    watcher.press("Trust it")
    watcher.type_into("Invite code", code)
    watcher.press("Watch")
    watcher.one("label", "Watching ann (X) against bob (O).")
    check(all(not is_enabled(button) for button in watcher.cell_buttons()),
          "the spectator's board takes no move")
    ok("a guest on another desktop watches the game with its invite code")

    played = []

    def move(cell, row, column):
        mark = "X" if len(played) % 2 == 0 else "O"
        if mark == "X":
            app.press(f"Row {row}, column {column}, empty")
        else:
            bob.stdin.write(cell + "\n")
            bob.stdin.flush()
        wait_for(lambda: app.cells().get((row, column)) == mark,
                 f"{cell} becomes {mark} on the desktop")
        bob.lines.expect(rf"{mark} plays {cell}\.", f"bob's client hears {mark} plays {cell}")
        wait_for(lambda: watcher.cells().get((row, column)) == mark,
                 f"the spectator sees {mark} on {cell}")
        played.append(cell)

    move("a1", 1, 1)
    move("b1", 1, 2)
    move("a2", 2, 1)

    # bob's client dies: the desktop hears it from the server, then bob comes back.
    bob.kill()
    bob.wait()
    toast(app, "bob lost the connection; waiting 60 seconds.", timeout=20)
    app.one("label", f"Game {code} on {address} · bob lost the connection.")
    ok("the header bar says bob lost the connection")
    bob = join()
    bob.lines.expect(r"ann, place your X|Waiting for ann to place X…|It is bob's turn\.|"
                     r"bob, place your O", "bob's client rejoins its seat")
    toast(app, "bob is back.")

    move("b2", 2, 2)
    move("a3", 3, 1)
    wait_for(lambda: app.title() == "Winner! Congrats ann!", "the title says ann won")
    toast(app, "X wins with a1, a2, a3.")
    check(all(not is_enabled(button) for button in app.cell_buttons()),
          "no cell takes a move after the game")
    bob.lines.expect(r"X wins with a1, a2, a3\.", "bob's client hears the result")
    wait_for(lambda: watcher.title() == "Winner! Congrats ann!", "the spectator sees ann win")
    ok(f"the spectator saw each of the {len(played)} moves as it was played, and the result")
    watcher.stop()
    subtitle = wait_for(lambda: first([node.name for node in app.all("label")
                                       if node.name.startswith(f"Game {code} on {address} · Ratings:")]),
                        "the header bar gives the new ratings")
    ok(f"the header bar gives the new ratings: {subtitle}")
    bob.wait(timeout=10)

    history = subprocess.run(
        [cli, "history", "ann", "--server", address, "--database",
         os.path.join(folder, "ann-cli.sqlite")],
        capture_output=True, text=True, env=environment, timeout=60)
    lines = history.stdout.splitlines()
    check(history.returncode == 0 and len(lines) == 1 and "ann (X) vs bob (O)" in lines[0],
          f"the server's history holds the game: {history.stdout!r} {history.stderr!r}")
    replay = subprocess.run(
        [cli, "replay", lines[0].split()[0], "--server", address, "--database",
         os.path.join(folder, "ann-cli.sqlite")],
        capture_output=True, text=True, env=environment, timeout=60)
    stored = re.findall(r"[XO] plays ([a-o]\d+)\.", replay.stdout)
    check(replay.returncode == 0 and stored == played,
          f"the server stored the moves played through AT-SPI: {stored} (played {played})")

    app.press("Leave")
    app.one("push button", "Create online game")
    ok("Leave returns to the server's New game")
    menu = wait_for(lambda: first([node for node in app.all("push button", "Main menu")
                                   if node.actions]), "the primary menu's button shows")
    menu.doActionNamed("click")
    app.press("Statistics", role="menu item")
    app.one("label", f"Stats on {address}")
    app.one("label", "Rating: 1216")
    app.one("label", "People: 1 win, 0 losses, 0 draws")
    wait_for(lambda: first([node for node in app.all("push button")
                            if "ann won in" in (node.name or "")]),
             "the server's record lists the game ann won")
    ok(f"Statistics gives ann's record on {address}: rating 1216 and the game won")
    app.stop()
    server.stop()


def accounts_on(server, cli, folder, passwords, environment):
    """Makes an account on `server` for each name in `passwords`, with the command line."""
    for name, password in passwords.items():
        result = subprocess.run(
            [cli, "account", "create", name, "--server", server.address, "--password-stdin",
             "--database", os.path.join(folder, f"{name}-cli.sqlite")],
            input=password + "\n", capture_output=True, text=True, env=environment, timeout=60)
        check(result.returncode == 0, f"the command line makes {name}'s account on the server "
              f"({result.stdout.strip()} {result.stderr.strip()})")


def opponent(cli, address, code, user, password, database, environment):
    """`tictactoe play --join CODE` in plain mode: moves go to its stdin, sentences come back."""
    process = subprocess.Popen(
        [cli, "play", "--server", address, "--user", user, "--password-stdin", "--join", code,
         "--database", database],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env=environment)
    process.lines = Lines(process.stdout)
    process.stdin.write(password + "\n")
    process.stdin.flush()
    return process


def sign_in_online(app, server, user, password):
    """Signs in on `server` with the Server field, trusting its fingerprint when asked."""
    app.type_into("User name", user)
    app.type_into("Password", password, role="password text")
    app.type_into("Server", server.address)
    app.press("Sign in")
    body = wait_for(lambda: first([node for node in app.all("label")
                                   if server.fingerprint in node.name]),
                    "the first connection asks about the server's fingerprint")
    question = body.name  # the dialog goes once answered
    app.one("label", "Trust this server?")
    app.press("Trust it")
    app.one("label", f"Signed in as {user} on {server.address}")
    return question


def toast(app, text, timeout=10.0):
    """Checks that `text` shows as a toast (the line under the board may say it too)."""

    def in_toast(label):
        node = label.parent
        for _ in range(4):
            if node is None:
                return False
            if node.name == "AdwToastWidget":
                return True
            node = node.parent
        return False

    wait_for(lambda: first([label for label in app.all("label", text) if in_toast(label)]),
             f"a toast says {text}", timeout)
    ok(f"a toast says {text}")


def failure(gtk, folder):
    """A database that cannot be opened, then a move that cannot be stored: each is said in a
    message dialog (started from the desktop, nobody reads standard error), and Quit exits 1."""
    import sqlite3

    def says(part):
        return first([label.name for label in app.all("label") if part in label.name])

    def quit_in_dialog():
        # The header bar's back button is named Quit too: press the dialog's own.
        def button():
            for window in app.root.children:
                if window.findChildren(lambda node: node.roleName == "label"
                                       and node.name == "Tic-Tac-Toe cannot go on"):
                    return first(window.findChildren(
                        lambda node: node.roleName == "push button" and node.name == "Quit"))
            return None
        wait_for(button, "the dialog has a Quit button").doActionNamed("click")

    garbage = os.path.join(folder, "garbage.sqlite")
    content = b"not a database\n" * 100
    with open(garbage, "wb") as file:
        file.write(content)
    app = App(gtk, garbage)
    app.one("label", "Tic-Tac-Toe cannot go on")
    sentence = wait_for(lambda: says("garbage.sqlite"), "the dialog names the file")
    ok(f"a file that is not a database is said in a dialog: {sentence!r}")
    quit_in_dialog()
    check(app.process.wait(timeout=10) == 1, "Quit leaves with exit status 1")
    with open(garbage, "rb") as file:
        check(file.read() == content, "the file is left as it was")

    locked = os.path.join(folder, "locked.sqlite")
    app = App(gtk, locked, "play", "--computer", "none", "--x", "Ann", "--o", "Bob")
    wait_for(lambda: app.title() == "Ann, place your X", "the game opens")
    app.press("Row 1, column 1, empty")
    wait_for(lambda: app.cells().get((1, 1)) == "X", "the first move is played")
    # Another program holds the database's write lock while O moves.
    holder = sqlite3.connect(locked, timeout=10, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        app.press("Row 2, column 2, empty")
        app.one("label", "Tic-Tac-Toe cannot go on", timeout=30)
        sentence = wait_for(lambda: says("is not stored"), "the dialog says what is not stored")
        ok(f"a move that cannot be stored is said in a dialog: {sentence!r}")
        check("b2" in sentence, "the sentence names the move")
        quit_in_dialog()
        check(app.process.wait(timeout=10) == 1, "Quit leaves with exit status 1")
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def main(arguments):
    scenarios = {
        "guest": guest, "board": board, "keys": keys, "signin": signin, "responsive": responsive,
        "chrome": chrome, "online": online, "failure": failure,
    }
    if not arguments or arguments[0] not in scenarios:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        scenarios[arguments[0]](*arguments[1:])
    except Exception as error:  # dogtail's hooks swallow the traceback: say what broke
        import traceback
        traceback.print_exc(file=sys.stdout)
        fail(f"{arguments[0]}: {type(error).__name__}: {error}")
    print(f"{checks} passed, 0 failed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
