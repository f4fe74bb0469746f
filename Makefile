# Two commands do all the set-up on a fresh machine with Python 3.11:
#   make serve   - the site on http://127.0.0.1:8000, rebuilt on every edit
#   make test    - the whole test suite (checker, library, full site build, browser)
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
AXE := tests/gates/node_modules/axe-core/axe.min.js
export NO_MKDOCS_2_WARNING := 1

.PHONY: serve test build check accept bench measure browser clean

$(STAMP): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $(STAMP)

serve: $(STAMP)
	$(BIN)/mkdocs serve -a 127.0.0.1:8000

test: $(STAMP) browser
	$(BIN)/python -m pytest $(PYTEST_ARGS)

build: $(STAMP)
	$(BIN)/mkdocs build --strict

check: $(STAMP)
	$(BIN)/python -m snipcheck check

accept: $(STAMP)
	$(BIN)/python -m snipcheck accept

bench: $(STAMP)
	$(BIN)/python bench/attention.py $(ARGS)

measure: $(STAMP)
	$(BIN)/python scripts/measure_build.py

browser:
	@scripts/install-chromium
	@$(MAKE) -s --no-print-directory $(AXE)

# axe-core for the accessibility tests, pinned by tests/gates/package-lock.json.
$(AXE): tests/gates/package.json tests/gates/package-lock.json
	cd tests/gates && npm ci --no-audit --no-fund --loglevel=error
	touch $@

clean:
	rm -rf site .cache test-artifacts
