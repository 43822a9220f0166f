#!/usr/bin/env bash
# Installs the Debian package with dpkg -i, checks what it installed from /usr/bin, and removes
# it again:
#
#   bash Scripts/check-deb.sh PATH_TO_DEB
#
# Runs as root. Refuses to touch a tictactoe package installed before. Checks that every
# library the programs load comes from a Debian package the Depends line names (so no Swift
# runtime from the toolchain), runs tictactoe --version, a plain game and an analysis from
# /usr/bin in an empty environment, reads the manual pages and completions where they were
# installed, and opens the desktop window under Xvfb when xvfb-run and xdotool are present.
set -euo pipefail

deb=${1:?usage: bash Scripts/check-deb.sh PATH_TO_DEB}
[[ -f $deb ]] || { echo "check-deb.sh: no file $deb" >&2; exit 2; }
[[ $(id -u) == 0 ]] || { echo "check-deb.sh: dpkg -i needs root" >&2; exit 2; }
checks=0
ok() {
  checks=$((checks + 1))
  echo "ok $checks - $*"
}
fail() {
  echo "check-deb.sh: FAILED: $*" >&2
  exit 1
}

if dpkg-query -W -f='${Status}' tictactoe 2>/dev/null | grep -q "installed"; then
  fail "a tictactoe package is installed already; remove it first (dpkg -r tictactoe)"
fi
work=$(mktemp -d)
installed=
cleanup() {
  [[ -n $installed ]] && dpkg -r tictactoe >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT

version=$(dpkg-deb -f "$deb" Version)
depends=$(dpkg-deb -f "$deb" Depends)
dpkg -i "$deb" >"$work/dpkg.log" 2>&1 || fail "dpkg -i: $(cat "$work/dpkg.log")"
installed=1
ok "dpkg -i installs tictactoe $version"

# An empty environment: nothing from the toolchain's or the build's paths.
clean() { env -i PATH=/usr/bin:/bin HOME="$work" LANG=C.UTF-8 "$@"; }

[[ $(clean /usr/bin/tictactoe --version) == "tictactoe $version" ]] ||
  fail "/usr/bin/tictactoe --version does not print tictactoe $version"
[[ $(clean /usr/bin/tictactoe-gtk --version) == "tictactoe-gtk $version" ]] ||
  fail "/usr/bin/tictactoe-gtk --version does not print tictactoe-gtk $version"
ok "tictactoe --version and tictactoe-gtk --version print $version"

game=$(printf 'a1\nb1\nb2\nc1\nc3\n' | clean TICTACTOE_DATABASE="$work/game.sqlite" \
  /usr/bin/tictactoe play --plain --x Ada --o Bob --computer none 2>&1) ||
  fail "the plain game failed: $game"
grep -qxF "X wins with a1, b2, c3." <<<"$game" || fail "the plain game did not end: $game"
history=$(clean TICTACTOE_DATABASE="$work/game.sqlite" /usr/bin/tictactoe history 2>&1) ||
  fail "tictactoe history failed: $history"
grep -qF "Ada (X) vs Bob (O)  3×3  xoo/.x./..x  X won" <<<"$history" ||
  fail "the game was not saved: $history"
ok "a plain game from /usr/bin is played to a win and saved"

analysis=$(clean /usr/bin/tictactoe analyze x.o/.x./..o --json) || fail "analyze failed"
grep -q '"toMove"' <<<"$analysis" || fail "analyze printed $analysis"
ok "the engine answers from /usr/bin"

# Every library the programs ask for directly must come from a package that Depends names.
packages=$(sed 's/([^)]*)//g; s/|/,/g' <<<"$depends" | tr ',' '\n' | tr -d ' ' | sort -u)
for program in /usr/bin/tictactoe /usr/bin/tictactoe-gtk; do
  libraries=$(ldd "$program")
  if grep -q "not found" <<<"$libraries"; then
    fail "$program misses libraries: $(grep "not found" <<<"$libraries")"
  fi
  if grep -qi swift <<<"$libraries"; then
    fail "$program loads Swift runtime libraries: $(grep -i swift <<<"$libraries")"
  fi
  for needed in $(objdump -p "$program" | awk '$1 == "NEEDED" { print $2 }'); do
    # "libc.so.6 => /lib/…/libc.so.6 (…)", or the loader's own "/lib64/ld-linux-x86-64.so.2 (…)".
    path=$(awk -v name="$needed" '$1 == name { print $3 } substr($1, length($1) - length(name)) == "/" name { print $1 }' <<<"$libraries" | head -n 1)
    [[ -n $path ]] || fail "$program: ldd does not resolve $needed"
    owner=
    for candidate in "$path" "/usr$path" "${path#/usr}" "$(readlink -f "$path")"; do
      owner=$(dpkg -S "$candidate" 2>/dev/null | head -n 1 | cut -d: -f1) && [[ -n $owner ]] && break
    done
    [[ -n $owner ]] || fail "$program: no Debian package provides $path"
    grep -qxF "$owner" <<<"$packages" ||
      fail "$program: $needed comes from $owner, which Depends does not name ($depends)"
  done
done
ok "every library the programs need comes from a package in Depends: $depends"

for page in tictactoe tictactoe-gtk; do
  [[ $(man -w "$page") == /usr/share/man/man6/$page.6.gz ]] || fail "man -w $page: $(man -w "$page")"
  warnings=$(MANWIDTH=80 man --warnings "$page" 2>&1 >/dev/null) || fail "man $page failed"
  [[ -z $warnings ]] || fail "man $page warns: $warnings"
done
ok "man tictactoe and man tictactoe-gtk show the installed pages without warnings"

doc=/usr/share/doc/tictactoe
# Debian Policy 12.5: a copyright file, here machine-readable (DEP-5): the Format line, a header
# naming the upstream, and a Files: * paragraph with Copyright and License.
[[ -f $doc/copyright ]] || fail "no $doc/copyright"
[[ $(head -n 1 "$doc/copyright") == "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" ]] ||
  fail "$doc/copyright does not start with the DEP-5 Format line"
grep -qx "Upstream-Name: tictactoe" "$doc/copyright" || fail "$doc/copyright names no Upstream-Name"
# The paragraph after the header: Files: *, then its Copyright and License fields.
files=$(sed -n '/^Files: \*$/,/^$/p' "$doc/copyright")
grep -qE '^Copyright: [0-9]{4}(-[0-9]{4})? .+' <<<"$files" && grep -qE '^License: .+' <<<"$files" ||
  fail "$doc/copyright has no Files: * paragraph with Copyright and License"
ok "$doc/copyright is a DEP-5 copyright file"
# Policy 12.7: a native package's changelog.gz, compressed with gzip -9n (no name, no time).
[[ -f $doc/changelog.gz ]] || fail "no $doc/changelog.gz"
gzip -t "$doc/changelog.gz" || fail "$doc/changelog.gz is not gzip"
# Byte 3 holds the flags (8: a file name is stored), bytes 4 to 7 the time, byte 8 the level (2: -9).
header=$(od -An -tx1 -j3 -N6 "$doc/changelog.gz" | tr -d ' \n')
[[ $header == 000000000002 ]] || fail "$doc/changelog.gz was not made with gzip -9n ($header)"
zcat "$doc/changelog.gz" >"$work/changelog"
[[ $(dpkg-parsechangelog -l "$work/changelog" -S Version) == "$version" ]] ||
  fail "$doc/changelog.gz does not describe version $version: $(cat "$work/changelog")"
[[ -z $(dpkg-parsechangelog -l "$work/changelog" 2>&1 >/dev/null) ]] ||
  fail "dpkg-parsechangelog warns about $doc/changelog.gz"
ok "$doc/changelog.gz is a gzip -9n Debian changelog for $version"

id=org.tictactoe.TicTacToe
desktop-file-validate "/usr/share/applications/$id.desktop" || fail "the desktop entry is invalid"
appstreamcli validate --no-net "/usr/share/metainfo/$id.metainfo.xml" >/dev/null ||
  fail "the metainfo is invalid"
for size in 16x16 22x22 24x24 32x32 48x48 64x64 128x128 256x256 512x512 scalable; do
  ls "/usr/share/icons/hicolor/$size/apps/$id".* >/dev/null 2>&1 || fail "no $size icon"
done
ok "the desktop entry, metainfo and icons are installed and valid"

offered=$(bash --norc --noprofile -c '
  source /usr/share/bash-completion/completions/tictactoe-gtk
  COMP_WORDS=(tictactoe-gtk play --difficulty ""); COMP_CWORD=3; _tictactoe_gtk
  echo "${COMPREPLY[*]}"')
[[ $offered == "easy medium hard unbeatable" ]] || fail "bash completes --difficulty with $offered"
[[ -s /usr/share/zsh/vendor-completions/_tictactoe ]] || fail "no zsh completion"
[[ -s /usr/share/fish/vendor_completions.d/tictactoe-gtk.fish ]] || fail "no fish completion"
ok "the installed completions work"

if command -v xvfb-run >/dev/null && command -v xdotool >/dev/null; then
  cat >"$work/window.sh" <<'EOF'
set -u
/usr/bin/tictactoe-gtk play --computer none --database "$1/window.sqlite" >"$1/window.log" 2>&1 &
app=$!
for _ in $(seq 1 100); do
  xdotool search --onlyvisible --name '^Tic-Tac-Toe$' >/dev/null 2>&1 && break
  sleep 0.1
done
xdotool search --onlyvisible --name '^Tic-Tac-Toe$' >/dev/null 2>&1 || { kill $app; exit 3; }
kill -TERM $app
wait $app
EOF
  clean xvfb-run -a -s "-screen 0 1024x768x24" bash "$work/window.sh" "$work" ||
    fail "/usr/bin/tictactoe-gtk did not open its window and quit on SIGTERM: $(cat "$work/window.log")"
  ok "/usr/bin/tictactoe-gtk opens its window and quits on SIGTERM"
fi

dpkg -r tictactoe >/dev/null || fail "dpkg -r tictactoe failed"
installed=
[[ ! -e /usr/bin/tictactoe ]] || fail "dpkg -r left /usr/bin/tictactoe"
ok "dpkg -r removes the package"
echo "check-deb.sh: all $checks checks passed"
