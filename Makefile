# Attention Explorer. Two commands on a fresh machine:
#   make serve    set up and serve the page at http://127.0.0.1:8000/
#   make test     set up and run the whole test suite (unit + Chromium end-to-end)
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PORT   ?= 8000

.PHONY: serve test unit bench setup build bundle clean

serve: vendor/.stamp
	$(PYTHON) -m tools.serve --port $(PORT)

test: setup
	$(PY) -m tools.chromium
	$(PY) -m pytest

unit: $(VENV)/.stamp
	$(PY) -m pytest -m "not browser"

# Performance figures against their budgets (a measurement, not a test; about 3 minutes).
bench: setup
	$(PY) -m tools.chromium
	$(PY) -m tools.bench

setup: vendor/.stamp $(VENV)/.stamp

# Refresh the pre-rendered example in index.html after changing app/ or lexicon/.
build: vendor/.stamp
	$(PYTHON) -m tools.build prerender

# The deployable folder and zip: dist/attention-explorer/ and dist/attention-explorer.zip
bundle: vendor/.stamp
	$(PYTHON) -m tools.bundle

node_modules/.stamp: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

vendor/.stamp: node_modules/.stamp tools/stdlib-keep.txt
	$(PYTHON) -m tools.build vendor
	touch $@

$(VENV)/.stamp: requirements-test.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-test.txt
	touch $@

clean:
	rm -rf vendor node_modules dist $(VENV) .pytest_cache .hypothesis
