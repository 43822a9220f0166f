"""Makes the desktop's screenshots: each screen reached through AT-SPI, captured with ImageMagick.

Run by Scripts/screenshot.sh inside `xvfb-run` and `dbus-run-session`, with the system
interpreter (`command -p python3`), which has dogtail and pyatspi:

    python3 Scripts/screenshot.py GTK CLI FOLDER

Writes game.png (a won game, light), game-dark.png (the same, dark), game-15x15.png (a
15×15 game with the hint drawn), sign-in.png, new-game.png, stats.png, replay.png and
online-game.png (a game against an opponent on a local `tictactoe serve`) into FOLDER. Each picture is checked for what it must show (the winning line
repainted the cells, dark is dark, the board filled up, the chart has colour); the first failed
check prints `FAILED: what` and exits 1.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import a11y_check as a  # noqa: E402
from dogtail.config import config  # noqa: E402

# dogtail rests a second after every action; each wait here is on what the action changes.
config.actionDelay = 0.1

shots = 0
started = time.monotonic()


def window_id():
    """The X window of the app, found by its title."""
    def search():
        result = subprocess.run(
            ["xdotool", "search", "--onlyvisible", "--name", "^Tic-Tac-Toe$"],
            capture_output=True, text=True)
        lines = result.stdout.split()
        return lines[0] if lines else None
    return a.wait_for(search, "the Tic-Tac-Toe window is mapped")


def capture(path, settle=0.8, counted=True):
    """Waits for animations to settle, then saves the window as a PNG."""
    global shots
    time.sleep(settle)
    # Park the pointer in a corner of the screen so no hover shows.
    subprocess.run(["xdotool", "mousemove", "1020", "760"], check=True)
    time.sleep(0.2)
    subprocess.run(["import", "-window", window_id(), path], check=True)
    shots += counted
    print(f"saved {path} ({time.monotonic() - started:.0f} s in)", flush=True)


def measure(path, expression):
    result = subprocess.run(
        ["convert", path, "-format", expression, "info:"], capture_output=True, text=True,
        check=True)
    return float(result.stdout.strip())


def brightness(path):
    """The picture's mean lightness, 0 (black) to 1 (white)."""
    return measure(path, "%[fx:mean]")


def colourfulness(path):
    """The share of the picture's pixels that are clearly coloured (saturated, not grey)."""
    result = subprocess.run(
        ["convert", path, "-colorspace", "HSL", "-channel", "G", "-separate", "-threshold", "35%",
         "-format", "%[fx:mean]", "info:"], capture_output=True, text=True, check=True)
    return float(result.stdout.strip())


def changed_share(before, after):
    result = subprocess.run(
        ["compare", "-metric", "AE", "-fuzz", "10%", before, after, "null:"],
        capture_output=True, text=True)
    changed = float(result.stderr.split()[0])
    return changed / measure(after, "%[fx:w*h]")


def won_game(gtk, folder, work, name, environment):
    """Ann against Bob at one keyboard; X takes the top row. Returns the picture's path."""
    app = a.App(gtk, os.path.join(work, name + ".sqlite"), "play", "--computer", "none",
                "--x", "Ann", "--o", "Bob", environment=environment)
    a.wait_for(lambda: app.title() == "Ann, place your X", "the game opens")
    for number, (row, column) in enumerate([(1, 1), (2, 1), (1, 2), (2, 2)]):
        app.press(f"Row {row}, column {column}, empty")
        turn = "Bob, place your O" if number % 2 == 0 else "Ann, place your X"
        a.wait_for(lambda: app.title() == turn, f"move {number + 1} is played: {turn}")
    before = os.path.join(work, name + "-before.png")
    capture(before, counted=False)
    app.press("Row 1, column 3, empty")
    a.wait_for(lambda: app.title() == "Winner! Congrats Ann!", "the fifth move wins")
    path = os.path.join(folder, name + ".png")
    capture(path, settle=1.0)
    share = changed_share(before, path)
    a.check(share > 0.1, f"{name}.png: the winning move repainted {share:.3f} of the window")
    app.stop()
    return path


def main(gtk, cli, folder):
    os.makedirs(folder, exist_ok=True)
    work = tempfile.mkdtemp()
    try:
        shoot(gtk, cli, folder, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def shoot(gtk, cli, folder, work):
    config = os.path.join(work, "config")
    os.makedirs(os.path.join(config, "tictactoe"))
    # A light and a dark run, whatever the machine's own preference says.
    light = dict(XDG_CONFIG_HOME=os.path.join(work, "light"))
    dark = dict(XDG_CONFIG_HOME=config)
    with open(os.path.join(config, "tictactoe", "tictactoe-gtk.ini"), "w") as ini:
        ini.write("[Desktop]\nappearance=dark\n")

    path = won_game(gtk, folder, work, "game", light)
    light_level = brightness(path)
    path = won_game(gtk, folder, work, "game-dark", dark)
    dark_level = brightness(path)
    a.check(light_level > 0.6 and dark_level < 0.4,
            f"light is light ({light_level:.2f}) and dark is dark ({dark_level:.2f})")

    # A 15×15 game at one keyboard, a dozen moves in, with the engine's hint drawn.
    app = a.App(gtk, os.path.join(work, "big.sqlite"), "play", "--size", "15",
                "--computer", "none", "--x", "Ann", "--o", "Bob", "--time", "0.3",
                environment=light)
    a.wait_for(lambda: app.title() == "Ann, place your X", "the 15×15 game opens")
    moves = [(8, 8), (8, 7), (7, 7), (9, 8), (9, 9), (7, 9), (6, 8), (7, 8), (8, 10), (9, 10),
             (10, 8), (6, 6)]
    # The cells are looked up once (a search of 225 over AT-SPI is slow) and keep their objects
    # as their names change; the title says whose turn it is.
    buttons = {(int(match[1]), int(match[2])): button for button in app.cell_buttons()
               for match in [a.CELL.match(button.name)]}
    for number, (row, column) in enumerate(moves):
        buttons[(row, column)].doActionNamed("click")
        turn = "Bob, place your O" if number % 2 == 0 else "Ann, place your X"
        a.wait_for(lambda: app.title() == turn, f"move {number + 1} is played: {turn}")
    app.press("Hint")
    a.wait_for(lambda: [label for label in app.all("label") if label.name.startswith("Hint: ")],
               "the hint's toast shows", 20)
    hint = a.first([button.name for button in app.cell_buttons()
                    if button.description == "Suggested move"])
    a.check(a.counts(app.cells()) == (6, 6), f"game-15x15.png: 12 marks, and the hint on {hint}")
    capture(os.path.join(folder, "game-15x15.png"))
    app.stop()

    # Sign in and New game, as a guest.
    app = a.App(gtk, os.path.join(work, "forms.sqlite"), environment=light)
    app.one("label", "Sign in")
    capture(os.path.join(folder, "sign-in.png"))
    app.press("Play as guest")
    app.one("push button", "Let's play!")
    app.type_into("X player", "Ann")
    app.press("Against the computer")
    app.press("Hard")
    capture(os.path.join(folder, "new-game.png"))
    app.stop()

    # Stats: games against each difficulty, played by the command line into one database.
    database = os.path.join(work, "stats.sqlite")
    sequences = [
        "b2 a1 c3 a3 c1 b1 c2 b3 a2", "a1 b2 c3 a3 c1 b1 c2 b3 a2", "b2 c3 a1 a3 c1 b1 c2 b3 a2",
        "c1 b2 a3 a1 c3 b1 c2 b3 a2",
    ]
    for number, difficulty in enumerate(
            ["easy", "easy", "easy", "medium", "medium", "medium", "hard", "hard", "unbeatable",
             "unbeatable", "easy", "medium"]):
        moves = "\n".join(sequences[number % len(sequences)].split()) + "\n"
        subprocess.run([cli, "play", "--plain", "--x", "Ann", "--computer", "o",
                        "--difficulty", difficulty, "--database", database],
                       input=moves, capture_output=True, text=True, check=True)
    app = a.App(gtk, database, environment=light)
    app.press("Play as guest")
    app.press("Stats")
    a.wait_for(lambda: [label for label in app.all("label")
                        if label.name.startswith("Computer (Unbeatable): ")],
               "Stats counts the games against Unbeatable")
    path = os.path.join(folder, "stats.png")
    capture(path)
    share = colourfulness(path)
    a.check(share > 0.01, f"stats.png: the chart colours {share:.3f} of the window")
    recent = a.wait_for(lambda: a.first([button for button in app.all("push button")
                                         if " · Ann vs Computer: " in button.name]),
                        "Stats lists the recent games, each with the time it ended")
    recent.doActionNamed("click")
    a.wait_for(lambda: any(label.name.startswith("Move 0 of ") for label in app.all("label")),
               "the replay opens at the start")
    for _ in range(4):
        app.press("Forward a move")
    a.wait_for(lambda: any(label.name.startswith("Move 4 of ") for label in app.all("label")),
               "the replay steps to move 4")
    capture(os.path.join(folder, "replay.png"))
    app.stop()

    online_game(gtk, cli, folder, work, light)
    print(f"{shots} screenshots, {a.checks} checks passed", flush=True)


def online_game(gtk, cli, folder, work, environment):
    """An online game against an opponent on the command line, three moves in, as it stands
    while the opponent thinks: the players and their connection in the header bar."""
    cli_environment = dict(os.environ, TICTACTOE_PASSWORD_COST="test", LANG="C.UTF-8")
    cli_environment.pop("TICTACTOE_DATABASE", None)
    online = os.path.join(work, "online")
    os.makedirs(online)
    server = a.Server(cli, online)
    opponent = None
    try:
        passwords = {"Ann": "correct horse", "Bob": "battery staple"}
        a.accounts_on(server, cli, online, passwords, cli_environment)
        app = a.App(gtk, os.path.join(online, "desktop.sqlite"), environment=environment)
        a.sign_in_online(app, server, "Ann", passwords["Ann"])
        app.press("Create online game")
        label = a.wait_for(lambda: a.first([node for node in app.all("label")
                                            if node.name.startswith("Invite code ")]),
                           "the invite code shows")
        code = label.name.removeprefix("Invite code ")
        opponent = a.opponent(cli, server.address, code, "Bob", passwords["Bob"],
                              os.path.join(online, "Bob-cli.sqlite"), cli_environment)
        app.one("label", f"Game {code} on {server.address} · Bob is connected.")
        for number, (cell, row, column) in enumerate(
                [("b2", 2, 2), ("a1", 1, 1), ("c1", 1, 3)]):
            mark = "X" if number % 2 == 0 else "O"
            if mark == "X":
                app.press(f"Row {row}, column {column}, empty")
            else:
                opponent.stdin.write(cell + "\n")
                opponent.stdin.flush()
            a.wait_for(lambda: app.cells().get((row, column)) == mark, f"{cell} becomes {mark}")
        a.wait_for(lambda: app.title() == "Waiting for Bob to place O…",
                   "online-game.png: the title waits for Bob")
        a.check(a.counts(app.cells()) == (2, 1), "online-game.png: three moves on the board")
        capture(os.path.join(folder, "online-game.png"), settle=4.0)
        app.stop()
    finally:
        if opponent is not None:
            opponent.kill()
        server.stop()


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(*sys.argv[1:])
