#!/usr/bin/env bash
# Build the wheel, install it into a fresh venv outside the checkout and use it from another
# folder: proves the wheel carries the data and the lessons. Run by `make wheel-check`, or by
# hand: tests/wheel_check.sh [python]
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${1:-python3}
ROOT=$PWD
WORK=$(mktemp -d)
trap 'rm -rf "$WORK" "$ROOT/build/wheel"' EXIT
"$PY" -m pip wheel . --no-deps --quiet -w build/wheel
"$PY" -m venv "$WORK/venv"
"$WORK/venv/bin/python" -m pip install --quiet build/wheel/cluedo_lab-*.whl
cp tests/data/records/classic-3p-ann.json "$WORK/record.json"
cd "$WORK"
BIN=$WORK/venv/bin
test "$("$BIN/cluedo-lab" editions | grep -c '^clue')" -eq 8 || {
  echo "wheel-check: cluedo-lab editions does not list 8 editions" >&2; exit 1; }
"$BIN/python" - <<'PY'
from cluedo_lab.rules.board import load_board
from cluedo_lab.rules.data import board_ids
from cluedo_lab.rules.clue_cards import load_clue_deck
from cluedo_lab.rules.data import data_dir
from cluedo_lab.rules.edition import all_editions

assert "site-packages" in str(data_dir()), data_dir()
editions = all_editions()
assert len(editions) == 8, [e.id for e in editions]
for edition in editions:
    if edition.board is not None:
        load_board(edition.board)
for board in board_ids():
    load_board(board)
load_clue_deck()
from importlib.resources import files
assert files("cluedo_lab").joinpath("py.typed").is_file(), "the wheel has no py.typed"
from cluedo_lab.rules.data import editions_dir
copies = sorted(p.stem for p in editions_dir().glob("*.json"))
assert copies == sorted(p.stem for p in editions_dir().glob("*.toml")), copies
PY
"$BIN/cluedo-lab" solve record.json >/dev/null
"$BIN/python" -c "import sys, io, contextlib; from cluedo_lab.cli import main
with contextlib.redirect_stdout(io.StringIO()): main(['solve', 'record.json'])
assert 'tomllib' not in sys.modules, 'the installed kit parsed an edition TOML'"
"$BIN/cluedo-lab" play --edition cluedo-card-game-2018 --players 3 --seed 1 >/dev/null
"$BIN/cluedo-lab" lessons lessons >/dev/null
test -f lessons/00_start_here.ipynb && test -f lessons/app/classroom.ipynb
test -f lessons/app/share/jupyter/voila/templates/classroom/index.html.j2
test -f lessons/app/share/jupyter/voila/templates/classroom/conf.json
echo "wheel-check: the wheel installs and runs from $WORK"
