#!/usr/bin/env bash
# Builds the Debian package of both programs, with the desktop entry, the icon in the hicolor
# sizes, the AppStream metainfo, the manual pages and the shell completions:
#
#   bash Scripts/package-deb.sh [OUTPUT_DIR]
#
# OUTPUT_DIR defaults to .build/deb; the package is OUTPUT_DIR/tictactoe_VERSION_ARCH.deb and its
# path is the last line printed. Release builds with the Swift runtime linked statically, so the
# package needs only the Debian libraries its Depends line names, as dpkg-shlibdeps computes
# them. SCRATCH_PATH (default .build-gtk) is the build folder. Needs the development files of
# GTK 4 and libadwaita, dpkg-dev, librsvg2-bin, appstream, desktop-file-utils and man-db. Fails
# on the first invalid file with a sentence.
set -euo pipefail
cd "$(dirname "$0")/.."

output=${1:-.build/deb}
scratch=${SCRATCH_PATH:-.build-gtk}
id=org.tictactoe.TicTacToe

fail() {
  echo "package-deb.sh: $*" >&2
  exit 1
}

for tool in dpkg-deb dpkg-shlibdeps rsvg-convert appstreamcli desktop-file-validate man strip; do
  command -v "$tool" >/dev/null || fail "$tool is missing; install dpkg-dev, librsvg2-bin, appstream, desktop-file-utils, man-db and binutils"
done
pkg-config --exists gtk4 libadwaita-1 ||
  fail "the development files of GTK 4 or libadwaita are missing; install libgtk-4-dev and libadwaita-1-dev"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "-- release build of tictactoe and tictactoe-gtk (Swift runtime linked statically)"
for product in tictactoe tictactoe-gtk; do
  if ! TICTACTOE_GTK=1 swift build --manifest-cache none --scratch-path "$scratch" -c release \
    --static-swift-stdlib --product "$product" </dev/null >"$work/build.log" 2>&1; then
    cat "$work/build.log" >&2
    fail "the release build of $product failed"
  fi
  grep -vE '^\[[0-9]+/[0-9]+\]|prohibited flag|mktemp' "$work/build.log" || true
done
bin=$(TICTACTOE_GTK=1 swift build --manifest-cache none --scratch-path "$scratch" -c release \
  --show-bin-path)
for product in tictactoe tictactoe-gtk; do
  [[ -x $bin/$product ]] || fail "the build made no $bin/$product"
done

version=$("$bin/tictactoe" --version)
version=${version#tictactoe }
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "tictactoe --version printed \"$version\""
[[ $("$bin/tictactoe-gtk" --version) == "tictactoe-gtk $version" ]] ||
  fail "tictactoe-gtk --version does not say $version"
architecture=$(dpkg --print-architecture)

root=$work/root
install -d "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/applications" \
  "$root/usr/share/metainfo" "$root/usr/share/man/man6" "$root/usr/share/doc/tictactoe" \
  "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
  "$root/usr/share/fish/vendor_completions.d" "$root/usr/share/icons/hicolor/scalable/apps"

echo "-- programs"
for product in tictactoe tictactoe-gtk; do
  install -m 0755 "$bin/$product" "$root/usr/bin/$product"
  strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/$product"
done

echo "-- desktop entry, metainfo and icons"
install -m 0644 "data/$id.desktop" "$root/usr/share/applications/$id.desktop"
desktop-file-validate "$root/usr/share/applications/$id.desktop" ||
  fail "data/$id.desktop is not valid"
install -m 0644 "data/$id.metainfo.xml" "$root/usr/share/metainfo/$id.metainfo.xml"
appstreamcli validate --no-net "$root/usr/share/metainfo/$id.metainfo.xml" >"$work/appstream.log" ||
  fail "data/$id.metainfo.xml is not valid: $(cat "$work/appstream.log")"
install -m 0644 "data/$id.svg" "$root/usr/share/icons/hicolor/scalable/apps/$id.svg"
for size in 16 22 24 32 48 64 128 256 512; do
  folder=$root/usr/share/icons/hicolor/${size}x$size/apps
  install -d "$folder"
  rsvg-convert --width "$size" --height "$size" --output "$folder/$id.png" "data/$id.svg"
  # A PNG's width and height are the big-endian words at bytes 16 to 23.
  [[ $(od -An -tx1 -j16 -N8 "$folder/$id.png" | tr -d ' \n') == $(printf '%08x%08x' "$size" "$size") ]] ||
    fail "the ${size}×$size icon came out at another size"
done

echo "-- manual pages"
for page in tictactoe tictactoe-gtk; do
  warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "data/man/$page.6" 2>&1 \
    >/dev/null) || fail "man could not format data/man/$page.6"
  [[ -z $warnings ]] || fail "data/man/$page.6 has warnings:"$'\n'"$warnings"
  gzip -9n <"data/man/$page.6" >"$root/usr/share/man/man6/$page.6.gz"
done

echo "-- shell completions"
completions=$root/usr/share
"$bin/tictactoe" completions bash >"$completions/bash-completion/completions/tictactoe"
"$bin/tictactoe" completions zsh >"$completions/zsh/vendor-completions/_tictactoe"
"$bin/tictactoe" completions fish >"$completions/fish/vendor_completions.d/tictactoe.fish"
# bash and fish load a command's completions from a file named after it.
ln -s tictactoe "$completions/bash-completion/completions/tictactoe-gtk"
ln -s tictactoe.fish "$completions/fish/vendor_completions.d/tictactoe-gtk.fish"
bash -n "$completions/bash-completion/completions/tictactoe" || fail "the bash completion does not parse"
if command -v zsh >/dev/null; then
  zsh -n "$completions/zsh/vendor-completions/_tictactoe" || fail "the zsh completion does not parse"
fi
if command -v fish >/dev/null; then
  fish --no-execute "$completions/fish/vendor_completions.d/tictactoe.fish" ||
    fail "the fish completion does not parse"
fi
find "$root/usr/share" -type f -exec chmod 0644 {} +

echo "-- dependencies"
# dpkg-shlibdeps reads the package's name from a debian/control; it fails on a library that no
# Debian package provides, such as a Swift runtime library outside the package.
install -d "$work/source/debian"
printf 'Source: tictactoe\n\nPackage: tictactoe\nArchitecture: any\n' \
  >"$work/source/debian/control"
depends=$(cd "$work/source" && dpkg-shlibdeps -O -e"$root/usr/bin/tictactoe" \
  -e"$root/usr/bin/tictactoe-gtk" 2>"$work/shlibdeps.err") ||
  fail "dpkg-shlibdeps failed: $(cat "$work/shlibdeps.err")"
depends=${depends#shlibs:Depends=}
[[ -n $depends ]] || fail "dpkg-shlibdeps found no dependencies"
if grep -qi swift <<<"$depends"; then fail "the package would depend on Swift: $depends"; fi

installed_size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat >"$root/DEBIAN/control" <<EOF
Package: tictactoe
Version: $version
Architecture: $architecture
Maintainer: The Tic-Tac-Toe developers <developers@tictactoe.invalid>
Installed-Size: $installed_size
Depends: $depends
Recommends: hicolor-icon-theme
Suggests: bash-completion
Section: games
Priority: optional
Description: tic-tac-toe against a friend or a perfect engine
 Tic-tac-toe on any board from 3×3 to 15×15 with k in a row to win, against
 a friend or a computer whose strength goes from easy to unbeatable.
 .
 tictactoe-gtk is the desktop game (GTK 4); tictactoe plays in a terminal,
 full screen or line by line for screen readers and scripts, and analyses
 positions and scripts the engine from the command line. Both keep local
 accounts with optional two-factor sign-in, statistics and replays.
EOF
printf 'The Tic-Tac-Toe programs for Linux, in Swift.\nSee tictactoe(6) and tictactoe-gtk(6).\n' \
  >"$root/usr/share/doc/tictactoe/README"

echo "-- copyright and changelog"
# Debian Policy 12.5 and 12.7: every package has a copyright file, and a native package a
# changelog.gz. The years and the date come from the commits (SOURCE_DATE_EPOCH when set), so
# the same source gives the same files.
holder="The Tic-Tac-Toe developers"
contact="$holder <developers@tictactoe.invalid>"
if [[ -n ${SOURCE_DATE_EPOCH:-} ]]; then
  last=$SOURCE_DATE_EPOCH
elif ! last=$(git log -1 --format=%ct 2>/dev/null); then
  last=$(date +%s)
fi
first=$(git log --reverse --format=%ct 2>/dev/null | head -n 1 || true)
first_year=$(date -u -d "@${first:-$last}" +%Y)
last_year=$(date -u -d "@$last" +%Y)
years=$first_year
[[ $last_year == "$first_year" ]] || years="$first_year-$last_year"
# The sources state no licence yet. A licence file added later must be named in the copyright
# file, not shipped under the sentence below.
for file in LICENSE LICENSE.md LICENSE.txt COPYING; do
  [[ ! -e $file ]] || fail "$file exists: name its licence in the copyright file package-deb.sh writes"
done
cat >"$root/usr/share/doc/tictactoe/copyright" <<COPYRIGHT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: tictactoe
Upstream-Contact: $contact
Comment: The sources carry no licence: there is no LICENSE file and the README
 names none.

Files: *
Copyright: $years $holder
License: none
 No licence has been granted for this work.
COPYRIGHT
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || true)
{
  printf 'tictactoe (%s) unstable; urgency=medium\n\n' "$version"
  printf '  * Release %s%s.\n\n' "$version" "${commit:+, built from commit $commit}"
  printf ' -- %s  %s\n' "$contact" "$(LC_ALL=C date -u -R -d "@$last")"
} | gzip -9n >"$root/usr/share/doc/tictactoe/changelog.gz"
chmod 0644 "$root/usr/share/doc/tictactoe/copyright" "$root/usr/share/doc/tictactoe/changelog.gz"

mkdir -p "$output"
package=$output/tictactoe_${version}_$architecture.deb
dpkg-deb --root-owner-group -Zxz -z1 --build "$root" "$package" >/dev/null
echo "-- $(du -h "$package" | cut -f1) package, depends: $depends"
echo "$package"
