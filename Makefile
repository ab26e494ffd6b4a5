# The two commands of the README's quick start: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip
INSTALL := $(PIP) install -q --disable-pip-version-check -c constraints.txt

.PHONY: demo test lint check install constraints clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed-app: pyproject.toml constraints.txt | $(BIN)/python
	$(INSTALL) -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml constraints.txt | $(BIN)/python
	$(INSTALL) -e '.[test,lint]'
	touch $@ $(VENV)/.installed-app

install: $(VENV)/.installed-app

## demo: make a virtualenv, install, and walk the sample season
demo: $(VENV)/.installed-app
	$(BIN)/tracker demo

## test: install what the tests need and run them (PostgreSQL too if TRACKER_TEST_POSTGRES_URL is set)
test: $(VENV)/.installed-dev node_modules/.installed
	$(BIN)/pytest

# axe-core for the browser tests, from package-lock.json (npm's registry; never at test time)
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --silent
	touch $@

## lint: ruff, mypy (strict for tracker/), import-linter layers, alembic check
lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports
	rm -f $(VENV)/alembic-check.db*
	TRACKER_DB=$(VENV)/alembic-check.db $(BIN)/alembic upgrade head
	TRACKER_DB=$(VENV)/alembic-check.db $(BIN)/alembic check

check: lint test

constraints:
	rm -rf /tmp/tracker-constraints-venv
	$(PYTHON) -m venv /tmp/tracker-constraints-venv
	/tmp/tracker-constraints-venv/bin/pip install -q -e '.[test,lint]'
	( echo "# Pinned versions for reproducible installs: pip install -c constraints.txt -e '.[test,lint]'"; \
	  echo "# Regenerate with: make constraints"; \
	  /tmp/tracker-constraints-venv/bin/pip freeze --exclude-editable ) > constraints.txt

clean:
	rm -rf $(VENV) dist build .pytest_cache .mypy_cache .ruff_cache tracker-demo.db* tracker-demo*.png tracker-demo-site node_modules
