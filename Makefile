# cluedo-lab: two commands do all the set-up (see README.md).
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
PORT   ?= 8888
APP_PORT ?= 8866

.PHONY: lab app test test-slow unit notebooks outputs lint parsed-editions wheel-check bench clean site serve-site site-test site-bench \
	site-class-test screens

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Stamp files so re-running only reinstalls when pyproject.toml changes.
$(VENV)/.lab-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[lab]'
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.lab-installed

## make lab: install the kit with its notebook front end and open JupyterLab on lesson 00 (the
## URL it prints opens lesson 00 too, not the Launcher; Ctrl-C twice stops it).
## JupyterLab saves widget state in the notebooks (docs/site/overrides.json), so a notebook keeps
## the learner's exercise attempts for `cluedo-lab grade`.
## The lessons open from a working copy in $(LESSONS) (made once; a learner's work there is kept,
## and running a lesson never changes notebooks/ in git). A notebook there is marked trusted (its
## saved drawings show) only if it is byte for byte one the kit ships: one replaced or dropped
## there is not, so its scripts do not run.
LESSONS ?= build/lessons
lab: $(VENV)/.lab-installed
	mkdir -p $(VENV)/share/jupyter/lab/settings
	cp docs/site/overrides.json $(VENV)/share/jupyter/lab/settings/overrides.json
	$(BIN)/cluedo-lab lessons $(LESSONS) --keep >/dev/null
	$(BIN)/python -m cluedo_lab.lab.trust $(LESSONS)
	cd $(LESSONS) && $(abspath $(BIN))/jupyter lab --ip=127.0.0.1 --port=$(PORT) \
		$$( [ "$$(id -u)" = 0 ] && echo --allow-root ) \
		--LabApp.default_url=/lab/tree/00_start_here.ipynb 00_start_here.ipynb

## make app: the classroom page (play at the table against bots, the board explorer) without
## code cells, served by Voila on http://127.0.0.1:$(APP_PORT) only (Ctrl-C stops it). A page
## closed (or left idle with no connection) for $(APP_IDLE) s has its kernel shut down, so a
## class reloading pages does not pile up kernels; at most $(APP_KERNELS) run at once, and
## only requests naming the local host are served (notebooks/app/voila.py). `make app
## CLASS=class.toml`: under a class's settings (the bots and editions offered, Reveal, the
## engine's notepad, the number style).
APP_IDLE ?= 300
APP_KERNELS ?= 12
app: $(VENV)/.lab-installed
	PYTHONHASHSEED=0 JUPYTER_PATH=notebooks/app/share/jupyter \
		$(if $(CLASS),CLUEDO_LAB_CLASS=$(abspath $(CLASS))) $(BIN)/voila \
		notebooks/app/classroom.ipynb --template=classroom --Voila.ip=127.0.0.1 \
		--Voila.config_file_paths=notebooks/app \
		--CappedKernelManager.max_kernels=$(APP_KERNELS) \
		--port=$(APP_PORT) --no-browser \
		--MappingKernelManager.cull_idle_timeout=$(APP_IDLE) \
		--MappingKernelManager.cull_interval=60 --MappingKernelManager.cull_connected=False

## make test: install the test extras and run unit tests, lint and every notebook under nbval,
## nbgrader's own commands on the course included. Tests marked `slow` (whole lessons run as
## student copies, minutes each) wait for `make test-slow`; the slowest tests are listed.
test: lint wheel-check
	PYTHONHASHSEED=0 $(BIN)/python -m pytest tests notebooks -m "not slow" -n auto --dist loadfile \
		--durations=40 --nbval --nbval-current-env --nbval-sanitize-with notebooks/nbval_sanitize.cfg

## make test-slow: the tests marked slow: every lesson's student copy run and searched for every
## answer its teacher's copy makes, and the board bots' 1,000-game sweep at every player count
## (`make test` sweeps one count per edition).
test-slow: $(VENV)/.test-installed
	PYTHONHASHSEED=0 $(BIN)/python -m pytest tests -m slow -n auto --dist loadfile --durations=40

## make screens: every lesson's first screen as a learner opens it, and the classroom page for
## every edition, at 1280 x 800 in build/screens/*.png, for a person to look at.
screens: $(VENV)/.test-installed
	PYTHONHASHSEED=0 $(BIN)/python -m pytest tests/views/test_screens.py \
		"tests/views/test_browser.py::test_the_app_fits_a_classroom_screen"

unit: $(VENV)/.test-installed
	PYTHONHASHSEED=0 $(BIN)/python -m pytest tests

notebooks: $(VENV)/.test-installed
	PYTHONHASHSEED=0 $(BIN)/python -m pytest notebooks --nbval --nbval-current-env \
		--nbval-sanitize-with notebooks/nbval_sanitize.cfg

## make lint: ruff, the layer contracts (pyproject.toml) and mypy --strict on the whole package
## (pyproject.toml's [tool.mypy]).
lint: $(VENV)/.test-installed
	$(BIN)/ruff check cluedo_lab tests benchmarks
	$(BIN)/lint-imports
	$(BIN)/mypy cluedo_lab

## make parsed-editions: after changing an edition file, write its parsed copy beside it
## (data/editions/*.json, read instead of the TOML while made from the same text).
parsed-editions: $(BIN)/python
	$(BIN)/python -c "from cluedo_lab.rules.edition import write_parsed_copies; write_parsed_copies()"

## make wheel-check: build the wheel, install it in a fresh venv and run it from elsewhere.
wheel-check: $(BIN)/python
	tests/wheel_check.sh $(BIN)/python

## make outputs: re-run every notebook and store its outputs (after changing the library).
outputs: $(VENV)/.test-installed
	PYTHONHASHSEED=0 $(BIN)/python notebooks/refresh_outputs.py notebooks/*.ipynb

## make bench: seeded positions of every edition (run.py), then the whole-game corpus: every
## seat's and the public record of bot games played to the end, its worst records listed.
bench: $(VENV)/.test-installed
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/whole_games.py

## make site: the lessons and the classroom page as a static JupyterLite site in build/site,
## Python running in the browser (Pyodide): any static host serves it (docs/site/build_site.py).
## It runs offline (Pyodide and every wheel included); `make site CDN=1` builds a smaller site
## that fetches Pyodide and its own wheels from Pyodide's public CDN. Downloads are cached in
## build/cache-site, so a rebuild takes seconds.
## `make site STUDENT=1` builds the student site (student copies only: no solutions), and
## `make site CLASS=class.toml` the student site under a class's settings (lessons, Reveal, the
## engine's notepad, bots, editions, number style: cluedo_lab/lab/class_settings.py).
CDN ?=
STUDENT ?=
CLASS ?=
SITE_PORT ?= 8000
site:
	$(PYTHON) docs/site/build_site.py $(if $(CDN),--cdn) $(if $(STUDENT),--student) \
		$(if $(CLASS),--class $(CLASS))

## make serve-site: serve build/site on http://127.0.0.1:$(SITE_PORT) (Ctrl-C stops it).
serve-site:
	@test -f build/site/index.html || { echo "no build/site: run make site first" >&2; exit 1; }
	$(PYTHON) -m http.server --bind 127.0.0.1 $(SITE_PORT) --directory build/site

## make site-test: build the site and open it in Chromium (tests/views/test_site.py), offline.
site-test: site $(VENV)/.test-installed
	PYTHONHASHSEED=0 $(BIN)/python -m pytest tests/views/test_site.py

## make site-class-test: build the student site under tests/data/class-handin.toml and test it in
## Chromium (tests/views/test_handin_site.py): no answer shown, no Reveal, attempts saved, reopened,
## downloaded and graded; the classroom page offers only the class's bots and editions.
site-class-test: $(VENV)/.test-installed
	$(MAKE) site CLASS=tests/data/class-handin.toml
	PYTHONHASHSEED=0 $(BIN)/python -m pytest tests/views/test_handin_site.py

## make site-bench: the site's size, seconds to a ready kernel (first and warm load) with the
## browser's CPU seconds and the machine's load beside each, where the kernel's start goes
## (Python, wheels, IPython, the first cell), and one notepad update in the browser against
## CPython (benchmarks/site.py; about 3 minutes on an idle machine).
## `benchmarks/site.py --site DIR` measures another build (a copy of an earlier build/site).
## `benchmarks/site.py --against OLD` times build/site and an older build in turns (both meet
## the same load), first and warm, and prints their ratio.
site-bench: site $(VENV)/.test-installed
	PYTHONHASHSEED=0 $(BIN)/python benchmarks/site.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
