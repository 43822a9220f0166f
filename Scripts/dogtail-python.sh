# Sourced by the scripts that drive tictactoe-gtk through AT-SPI (gtk-e2e.sh, screenshot.sh):
#
#   source Scripts/dogtail-python.sh
#
# Sets `python` to an interpreter that has dogtail and pyatspi, and turns on GTK's AT-SPI
# bridge; exits with a sentence naming the calling script when there is none.

# The system interpreter has dogtail and pyatspi; a pyenv or venv python3 on PATH may not.
python=
for candidate in /usr/bin/python3 "$(command -p -v python3)" python3; do
  if "$candidate" -c "import dogtail, pyatspi" 2>/dev/null; then
    python=$candidate
    break
  fi
done
[[ -n $python ]] || {
  echo "$(basename "$0"): no python3 with dogtail (python3-dogtail)" >&2
  exit 1
}
export NO_AT_BRIDGE=0 GTK_A11Y=atspi
