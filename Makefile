# The two commands a new user needs: `make run` and `make test`. See README.md.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
SYSTEM_PACKAGES := chromium poppler-utils fonts-dejavu-core libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0

.PHONY: run test venv system-deps lint format migrate seed clean bench bench-quick bench-deps vendor-npm

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

# System packages: Chromium for the browser tests, poppler for PDF checks, Pango for WeasyPrint.
system-deps:
	@missing=""; for p in $(SYSTEM_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing system packages:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  elif command -v sudo >/dev/null; then sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else echo "Please install as root: apt-get install$$missing" >&2; exit 1; fi; \
	fi

migrate: $(STAMP)
	$(PY) manage.py migrate --no-input

seed: migrate
	$(PY) manage.py seed_demo

run: system-deps seed
	$(PY) -m beano.devserver

# On both cores: pytest-xdist gives each worker whole files (a module's seeded demo is made once)
# and its own data folder and Redis database (tests/xdist_env.py). Python's compiled files are
# written even where the environment says not to (PYTHONDONTWRITEBYTECODE): each worker, and each
# worker, server and command the tests start, would otherwise compile the project again, and
# pytest rewrite every test file's asserts again (about 7 s a worker on this machine).
TEST_WORKERS ?= 2
test: system-deps $(STAMP)
	env -u PYTHONDONTWRITEBYTECODE BEANO_DATA_DIR=$${BEANO_DATA_DIR:-$(CURDIR)/var/test} $(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

# Speed is measured here, never asserted by timing tests (see bench/RESULTS.md). The load and
# statewide benchmarks need PostgreSQL and Redis running on 127.0.0.1 (bench/README.md); the
# load test runs two gunicorn servers behind HAProxy (installed here) with two Celery workers.
bench-deps:
	@$(MAKE) --no-print-directory system-deps SYSTEM_PACKAGES=haproxy

bench: $(STAMP) bench-deps
	$(PY) bench/queries.py
	$(PY) bench/load.py
	$(PY) bench/statewide.py
	$(PY) bench/report_generation.py

bench-quick: $(STAMP) bench-deps
	$(PY) bench/queries.py --quick
	$(PY) bench/load.py --quick
	$(PY) bench/statewide.py --quick
	$(PY) bench/report_generation.py --quick

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

clean:
	rm -rf var/test var/broker

# The browser libraries of vendor/npm/package-lock.json copied into static/vendor/, each tarball
# checked against the lock (needs npm and the registry; run when a version changes).
vendor-npm:
	python3 vendor/npm/vendor.py
