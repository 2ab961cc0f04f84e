# Two commands: `make serve` builds the database and serves it; `make test` runs every test.
# For the edit-run cycle, `make test-fast` leaves out the browser, the full-corpus builds, the full-size
# hostile inputs, the re-extractions of the two big core rulebooks (it keeps those of the tournament
# rules) and the two tests that start a fresh process importing spaCy or serving with the warm-up, and tries
# 20 examples per property instead of 200.
VENV ?= .venv
PYTHON := $(VENV)/bin/python
DB ?= data/rules.db
PORT ?= 8001
# HOST=0.0.0.0 serves the local network too (the address and a QR code for a phone are printed).
HOST ?= 127.0.0.1
STAMP := $(VENV)/.installed
# Every command keeps compiled modules (__pycache__, ignored by git) even where the environment sets
# PYTHONDONTWRITEBYTECODE: the processes of a build, of a server (its sandbox workers too) and of a test run, and
# the next run, read them instead of compiling the project's modules again (a build's first process spends
# up to about 0.4 CPU-s on it; pytest's rewriting of the test modules costs each worker seconds).
unexport PYTHONDONTWRITEBYTECODE

# The exact versions of every package the suite was last run with (`make lock` writes it): `make` installs them,
# so a fresh machine runs what CI ran; pyproject.toml keeps the compatible ranges a wheel's users install from.
LOCK := requirements.lock

.PHONY: serve build test test-fast test-latest lock lint subjects wheel-check dist bench clean

serve: $(STAMP)
	$(VENV)/bin/rules-db serve --db $(DB) --host $(HOST) --port $(PORT)

build: $(STAMP)
	$(VENV)/bin/rules-db build --db $(DB)

# Tests run on every core (pytest-xdist); the workers share one build of the real database. A worker that
# runs out of tests takes half of another's (worksteal), so both stay busy to the end.
PYTEST := $(PYTHON) -m pytest -q -n auto --dist worksteal

test: $(STAMP) chromium
	$(PYTEST)

test-fast: $(STAMP)
	$(PYTEST) -m "not slow and not browser and not stress" --hypothesis-profile=quick

# The suite against the newest versions pyproject.toml's ranges allow, in a virtual environment of its own, so an
# upstream change is met on purpose (then `make lock` takes the new versions in), not by surprise on a fresh machine.
LATEST := .venv-latest
test-latest: chromium
	rm -rf $(LATEST) && python3 -m venv $(LATEST) && $(LATEST)/bin/python -m pip install --quiet --upgrade pip
	PYTHONWARNINGS="ignore:Editable installation" $(LATEST)/bin/python -m pip install --quiet --upgrade -e '.[test]'
	$(LATEST)/bin/python -m pip freeze --exclude-editable | diff $(LOCK) - || true
	$(LATEST)/bin/python -m pytest -q -n auto --dist worksteal

# Writes $(LOCK) anew: the newest versions the ranges allow, installed in a scratch virtual environment and frozen.
# Run the suite on them (`make test-latest`) before committing the new lock.
lock:
	rm -rf $(LATEST) && python3 -m venv $(LATEST) && $(LATEST)/bin/python -m pip install --quiet --upgrade pip
	PYTHONWARNINGS="ignore:Editable installation" $(LATEST)/bin/python -m pip install --quiet -e '.[test]'
	$(LATEST)/bin/python -m pip freeze --exclude-editable > $(LOCK)

# Style, types and the layers' import contracts (pyproject.toml); CI runs it before the tests.
lint: $(STAMP) subjects
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-cache

# Commit subjects say what changed in at most 72 characters (the body says why): every commit since the check came in.
subjects:
	.ci/check-subjects

# The wheel installed in a fresh virtual environment builds and serves the database (CI runs it).
wheel-check:
	.ci/wheel-check

# What `datasette publish` needs (README, "Serving more judges"): the database, its metadata, the wheel.
dist: build
	$(PYTHON) -c "from rules_db.serve import write_metadata; write_metadata('$(DB)')"
	$(PYTHON) -m pip wheel --quiet --no-deps --wheel-dir dist .

bench: $(STAMP)
	for script in benchmarks/bench_*.py; do $(PYTHON) $$script || exit 1; done

# The stamp holds a digest of what pip reads from pyproject.toml (the build system, the project's metadata and
# dependencies, setuptools' package lists): a merge that changes only the tools' settings (ruff, mypy, pytest)
# touches the stamp instead of spending seconds on an install that changes nothing. The virtual environment and
# its pip are made once. setuptools ends every editable install with an information note ("Editable
# installation") boxed in asterisks like a failure; it is only information, so it is not shown.
INSTALL_DIGEST := python3 -c 'import hashlib, tomllib; toml = tomllib.load(open("pyproject.toml", "rb")); \
	read = [toml.get("build-system"), toml.get("project"), toml.get("tool", {}).get("setuptools"), open("$(LOCK)").read()]; \
	print(hashlib.sha256(repr(read).encode()).hexdigest())'

$(STAMP): pyproject.toml $(LOCK)
	@digest=$$($(INSTALL_DIGEST)); \
	if [ "$$(cat $(STAMP) 2>/dev/null)" = "$$digest" ]; then touch $(STAMP); else \
	  set -e; \
	  test -x $(PYTHON) || { python3 -m venv $(VENV) && $(PYTHON) -m pip install --quiet --upgrade pip; }; \
	  echo "installing the project and its test tools into $(VENV)"; \
	  PYTHONWARNINGS="ignore:Editable installation" $(PYTHON) -m pip install --quiet --constraint $(LOCK) -e '.[test]'; \
	  echo "$$digest" > $(STAMP); \
	fi

# Browser tests drive Debian's chromium (no browser download exists on these machines).
chromium:
	@test -x /usr/bin/chromium || { \
	  SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null; }

clean:
	rm -rf $(VENV) $(LATEST) data dist build test-artifacts .pytest_cache
