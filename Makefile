# Attention Explorer. Two commands on a fresh machine:
#   make serve    set up and serve the page at http://127.0.0.1:8000/
#   make test     set up and run the whole test suite (unit + Chromium end-to-end + WebKit and Firefox smoke)
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PORT   ?= 8000
# make test runs its files on this many processes (pytest-xdist; a file's tests stay together,
# so the pages a module shares are loaded once): JOBS=1 runs them one after another.
JOBS   ?= 2

.PHONY: serve test unit test-random bench setup build bundle clean python-version lexicon lexicon-eval model model-check scorm

serve: build
	$(PYTHON) -m tools.serve --port $(PORT)

test: setup
	$(PY) -m tools.chromium
	$(PY) -m tools.webkit
	$(PY) -m tools.firefox
	$(PY) -m tools.hosts
	$(PY) -m pytest $(if $(filter-out 1,$(JOBS)),-n $(JOBS) --dist loadfile --no-loadscope-reorder)

# The CPython tests only (no browser); sets up what they read (vendor/, node_modules/, .venv).
unit: setup
	$(PY) -m pytest -m "not browser"

# The whole suite in a random order (pytest-randomly); SEED=N replays the order of a run.
test-random: setup
	$(PY) -m tools.chromium
	$(PY) -m tools.webkit
	$(PY) -m tools.firefox
	$(PY) -m tools.hosts
	$(PY) -m pytest -p randomly $(if $(SEED),--randomly-seed=$(SEED))

# Performance figures against their budgets (a measurement, not a test; about 3 minutes).
bench: setup
	$(PY) -m tools.chromium
	$(PY) -m tools.bench

setup: vendor/.stamp $(VENV)/.stamp

# Refresh the pre-rendered example in index.html and app/app.zip after changing app/ or lexicon/.
build: vendor/.stamp
	$(PYTHON) -m tools.build prerender
	$(PYTHON) -m tools.docs

# The deployable folder and zip: dist/attention-explorer/ and dist/attention-explorer.zip
# (refused while the pre-rendered example in index.html is stale).
bundle: vendor/.stamp
	@$(PYTHON) -m tools.build check || { echo "make bundle: not bundling a stale page; run \`make build\` first." >&2; exit 1; }
	$(PYTHON) -m tools.bundle

# The SCORM packages, dist/attention-explorer-scorm12.zip and dist/attention-explorer-scorm2004.zip:
# the bundle plus imsmanifest.xml, launched with guess first on and lock=1 (EXERCISE='s=…&questions=3'
# sets the exercise; docs/teachers.en.md). Refused, like `make bundle`, while the page is stale.
scorm: vendor/.stamp
	@$(PYTHON) -m tools.build check || { echo "make scorm: not packaging a stale page; run \`make build\` first." >&2; exit 1; }
	$(PYTHON) -m tools.scorm $(if $(EXERCISE),--exercise '$(EXERCISE)')

# Regenerate lexicon/gpl/it.txt and lexicon/cc-by-sa/en.txt from the lexical resources (requirements-lexicon.txt)
# (Debian packages and PyPI; only needed to regenerate: the files are committed).
LEXICON_APT := wordnet-base lttoolbox apertium-spa-ita dict-freedict-ita-eng dict-freedict-eng-ita
lexicon: $(VENV)/.stamp
	@command -v lt-proc >/dev/null && test -f /usr/share/apertium/apertium-spa-ita/ita-spa.automorf.bin \
		&& test -f /usr/share/dictd/freedict-ita-eng.index && test -f /usr/share/dictd/freedict-eng-ita.index \
		&& test -f /usr/share/wordnet/cntlist.rev \
		|| { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(LEXICON_APT); }
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-lexicon.txt
	$(PY) -m tools.lexicon_build

# Score the committed lexicons on the hand-written set (needs none of the resources).
lexicon-eval:
	$(PYTHON) -m tools.lexicon_eval

# Train the small letter model and export its checkpoints to model/ (PyTorch, CPU; a few minutes on
# 2 cores; only needed to retrain: the files are committed). Exits non-zero if the induction head
# did not form. docs/model.md says what it writes.
model: $(VENV)/.stamp
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-model.txt
	$(PY) -m tools.model_train

# A tiny training run into a temporary folder: export, reload, compare forward passes (< 1 minute).
model-check: $(VENV)/.stamp
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-model.txt
	$(PY) -m tools.model_train --check


# One line naming what to install when python3 is older than the page's tools need.
python-version:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Attention Explorer needs Python 3.11 or newer (found %s): install python3.11 (python.org or your package manager) and run make PYTHON=python3.11" % sys.version.split()[0])'

node_modules/.stamp: package.json package-lock.json | python-version
	npm ci --no-audit --no-fund
	touch $@

vendor/.stamp: node_modules/.stamp tools/stdlib-keep.txt tools/bytecode.mjs tools/runtime_names.py | python-version
	$(PYTHON) -m tools.build vendor
	touch $@

$(VENV)/.stamp: requirements-test.txt | python-version
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-test.txt
	touch $@

clean:
	rm -rf vendor node_modules dist $(VENV) .pytest_cache .hypothesis
