# kwx — one entry point. `make run` serves the site on SQLite; `make test` runs every test.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-$(shell cksum requirements.txt | cut -d' ' -f1)
DEV    := $(VENV)/.installed-dev-$(shell cat requirements.txt requirements-dev.txt | cksum | cut -d' ' -f1)
HOST   ?= 127.0.0.1
PORT   ?= 8000

# Python writes its bytecode caches (__pycache__/, ignored by git) even where the environment says not to (this project's
# machines set PYTHONDONTWRITEBYTECODE=1): otherwise every test process, worker and spawned pool process compiles the
# project's modules again, and every pytest process rewrites all the test modules' asserts again (collection: 10.9 s a
# process without the caches, 5.5 s with them).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: setup run test lint test-sqlite test-postgres bench loadtest serve-prod messages clean

$(STAMP): requirements.txt  ## what the site needs to run
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r requirements.txt
	rm -f $(VENV)/.installed-[0-9]* && touch $@

$(DEV): $(STAMP) requirements-dev.txt  ## and what the tests, benchmarks and checks need
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	rm -f $(VENV)/.installed-dev-* && touch $@

setup: $(STAMP)  ## virtual environment, database tables (migrations: schema only), the puzzle banks, reviews queued for finished hands without one
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_banks
	$(PY) manage.py createcachetable
	$(PY) manage.py enqueue_reviews

run: setup  ## serve the site on SQLite at http://127.0.0.1:8000/ with one task worker beside it (scripts/run-dev.sh)
	DEBUG=1 PY=$(PY) scripts/run-dev.sh $(HOST):$(PORT)

# On PostgreSQL: every test that can meet a database (marked `database` by tests/conftest.py); not the
# engine's (pure Python, no Django), not those that compute without one, not the browser tests marked
# presentation (the same HTML and requests whatever the database; the browser's smoke test runs on both),
# not what runs on SQLite alone (marked sqlite_only: `make run`'s development server and its worker).
PG_TESTS = --ignore=tests/engine -m "database and not presentation and not sqlite_only"

# Both runs spread their tests over the cores that were free when `make test` started, before its own
# lint loaded them (scripts/test-workers reads the cores idle over two seconds: `-n 2` on an idle 2-core machine, one process on a busy one);
# every worker has its own database, live-server port and EV slot directory, and all share the decisions
# reviews_worked_out_once works out (KWX_TEST_REVIEWS, both runs; tests/conftest.py).
test: $(DEV)  ## every test: lint and types, then SQLite, then PostgreSQL, browsers included
	scripts/system-deps.sh
	workers="$$(scripts/test-workers)"; echo "pytest workers: $${workers:-none (one process)}, load $$(cut -d' ' -f1-3 /proc/loadavg)" && \
	export KWX_TEST_REVIEWS="$$(mktemp -d /tmp/kwx-reviews.XXXXXX)" && trap 'rm -rf "$$KWX_TEST_REVIEWS"' EXIT && \
	$(MAKE) --no-print-directory lint && \
	$(PY) -m pytest $$workers && \
	scripts/with-postgres.sh $(PY) -m pytest $$workers $(PG_TESTS)

lint: $(DEV)  ## ruff (pyproject.toml) lint and format check over the tree, mypy --strict over the engine
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

test-sqlite: $(DEV)
	$(PY) -m pytest $$(scripts/test-workers)

test-postgres: $(DEV)
	scripts/with-postgres.sh $(PY) -m pytest $$(scripts/test-workers) $(PG_TESTS)

bench: $(DEV)  ## engine vs the mahjong-package peer, figures printed
	$(PY) -m bench.engine

serve-prod: setup  ## gunicorn + whitenoise, production settings (see docs/deploy.md)
	scripts/serve-prod.sh

messages: $(STAMP)  ## refresh and compile translations
	$(PY) manage.py makemessages -l zh_Hans --ignore=$(VENV) --ignore=staticfiles --ignore=tests
	$(PY) manage.py compilemessages -l zh_Hans --ignore=$(VENV)

clean:
	rm -rf $(VENV) staticfiles db.sqlite3
