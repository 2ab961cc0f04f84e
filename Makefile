# Two commands: `make serve` builds the database and serves it; `make test` runs every test.
VENV ?= .venv
PYTHON := $(VENV)/bin/python
DB ?= data/rules.db
PORT ?= 8001
STAMP := $(VENV)/.installed

.PHONY: serve build test lint bench clean

serve: $(STAMP)
	$(VENV)/bin/rules-db serve --db $(DB) --port $(PORT)

build: $(STAMP)
	$(VENV)/bin/rules-db build --db $(DB)

test: $(STAMP) chromium
	$(PYTHON) -m pytest -q

# Style, types and the layers' import contracts (pyproject.toml); CI runs it before the tests.
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-cache

bench: $(STAMP)
	for script in benchmarks/bench_*.py; do $(PYTHON) $$script || exit 1; done

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --upgrade pip
	$(PYTHON) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# Browser tests drive Debian's chromium (no browser download exists on these machines).
chromium:
	@test -x /usr/bin/chromium || { \
	  SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null; }

clean:
	rm -rf $(VENV) data test-artifacts
