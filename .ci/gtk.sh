#!/usr/bin/env bash
# The desktop front end in CI: packages, build, GTK widget tests, the screenshots, the
# AT-SPI end-to-end check, and the Debian package built, installed and run.
# Called by .ci/run; needs no standard input.
#
#   bash .ci/gtk.sh
# pipefail: a failing test run or script fails the step even though its output is filtered.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "GTK: installing system packages"
if [ "$(id -u)" = 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq libgtk-4-dev libadwaita-1-dev xvfb xauth imagemagick python3-dogtail xdotool \
    dbus at-spi2-core pkg-config fonts-dejavu-core \
    dpkg-dev binutils librsvg2-bin appstream desktop-file-utils man-db </dev/null >/dev/null
fi
pkg-config --exists gtk4 libadwaita-1 || { echo ".ci/gtk.sh: gtk4 or libadwaita-1 is not installed" >&2; exit 1; }

# The manifest adds the GTK targets when gtk4 is found; make that explicit and skip the cache,
# which may hold an evaluation from before GTK was installed.
export TICTACTOE_GTK=1

step "GTK: building tictactoe-gtk and the widget tests"
swift build --manifest-cache none --build-tests </dev/null
bin=$(swift build --manifest-cache none --show-bin-path)

step "GTK: widget tests (XCTest under Xvfb)"
xvfb-run -a -s "-screen 0 1024x768x24" \
  swift test --manifest-cache none --skip-build --filter GTKUITests </dev/null 2>&1 |
  grep -vE "Unable to acquire session bus|^$|^(◇|↳)|Test run with 0 tests" | tail -n 40

step "GTK: the screenshots, each checked for what it shows"
xvfb-run -a -s "-screen 0 1024x768x24" dbus-run-session -- \
  bash Scripts/screenshot.sh "$bin/tictactoe-gtk" "$bin/tictactoe" .build/screenshots </dev/null 2>&1 |
  grep -vE "Failed to set fd limit|dbus-daemon\[|SpiRegistry daemon|dbind-WARNING|^$"

step "GTK: end to end through AT-SPI"
xvfb-run -a -s "-screen 0 1024x768x24" dbus-run-session -- \
  bash Scripts/gtk-e2e.sh "$bin/tictactoe-gtk" "$bin/tictactoe" </dev/null 2>&1 |
  grep -vE "Failed to set fd limit|dbus-daemon\[|SpiRegistry daemon|dbind-WARNING|^$"

step "GTK: the Debian package, built, installed with dpkg -i and run from /usr/bin"
# The release build reuses what the end-to-end checks built in .build.
SCRATCH_PATH=.build bash Scripts/package-deb.sh .build/deb </dev/null | tee .build/package-deb.log
bash Scripts/check-deb.sh "$(tail -n 1 .build/package-deb.log)" </dev/null

step "GTK: all checks passed"
