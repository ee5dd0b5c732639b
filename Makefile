# make run: set up and serve on http://127.0.0.1:8000   make test: the whole suite
# make check: the quick loop (lint, the tests but the browser's and those needing Caddy,
#   tesseract or gettext, Node's), with only what make run and requirements-dev install
# make production: the production stack on https://localhost:8443 (as root: it
#   installs PostgreSQL and Caddy with apt-get when they are missing)
# make image: the container image (Dockerfile), built with podman
# Python 3.13, the version the image runs; PYTHON=… names another 3.13 or newer.
PYTHON ?= $(shell command -v python3.13 || command -v python3)
VENV := .venv
# The catalogues (locale/*): every language of settings.LANGUAGES but the code's own.
CATALOGUES = $(shell DEBUG=1 $(BIN)/python -c 'from django.utils.translation import to_locale; \
	from scorekeeper.settings import LANGUAGE_CODE, LANGUAGES; \
	print(*(to_locale(c) for c, _ in LANGUAGES if c != LANGUAGE_CODE))')
BIN := $(VENV)/bin
export PIP_DISABLE_PIP_VERSION_CHECK := 1

CHROMIUM ?= /usr/bin/chromium
export CHROMIUM

.PHONY: run test check production image container-test lint format pytest pytest-quick \
	pytest-sqlite \
	pytest-postgresql jstest e2e \
	screenshots postgres browser caddy gettext ocr wrk messages bench load clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 13))' || { \
		echo "Python 3.13 or newer is needed; $(PYTHON) is $$($(PYTHON) --version)."; \
		echo "Install it (Debian 13: apt-get install python3) or name it: make PYTHON=/path/to/python3.13"; \
		exit 1; }
	$(PYTHON) -m venv $(VENV)

# What the app needs to run, and what its tests and tools need besides.
$(VENV)/.app-installed: requirements.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $(VENV)/.app-installed $@

run: $(VENV)/.app-installed
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py runserver 127.0.0.1:8000

# What a club's server runs, on this machine (deploy/production.py): PostgreSQL,
# gunicorn and Caddy on https://localhost:8443. Ctrl-C stops it; the data stays.
production: $(VENV)/.app-installed caddy postgres
	$(BIN)/python -m deploy.production

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/djlint templates --lint --quiet

format: $(VENV)/.installed
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Both cores (pytest-xdist); the tests that share the production stack share a
# worker (tests/conftest.py: FRONT_MODULES), so it starts once a run.
XDIST := -n auto
# PostgreSQL's database for a run: pytest-django makes test_<name>_gw<n> from it
# and drops them after; the process id keeps two runs on one machine apart.
PG_URL = postgres://postgres@127.0.0.1:5432/scorekeeper_$$$$

# make test: the whole suite in stages (scripts/test-stages), each test once
# where it means the most, with each stage's time at the end. .ci/run calls it.
test: $(VENV)/.installed gettext ocr caddy browser postgres node_modules/axe-core/axe.min.js
	scripts/test-stages

# The quick loop while working, with only what make run installs besides the
# tools of requirements-dev.txt: lint, the tests on SQLite but the browser's and
# those needing Caddy, tesseract or gettext (marked tools), Node's.
check: lint pytest-quick jstest

pytest-quick: $(VENV)/.installed
	$(BIN)/python -m pytest -m "not e2e and not container and not tools" $(XDIST) $(PYTEST_ARGS)

# Every test but the browser's, on SQLite (the ones that need PostgreSQL skip).
# PYTEST_ARGS="--lf" runs what failed last time, "--ff" runs it first.
pytest pytest-sqlite: $(VENV)/.installed gettext ocr caddy
	$(BIN)/python -m pytest -m "not e2e and not container" $(XDIST) $(PYTEST_ARGS)

# On PostgreSQL, what a club runs: the tests that reach a database (those that
# reach none ran on SQLite) and every browser test, in one run.
pytest-postgresql: $(VENV)/.installed caddy browser postgres node_modules/axe-core/axe.min.js
	DATABASE_URL=$(PG_URL) $(BIN)/python -m pytest -m "(e2e or not nodb) and not container" \
		$(XDIST) $(PYTEST_ARGS)

# The image and compose file as a self-hoster starts them (tests/container/): podman,
# buildah and the image's base made here first (scripts/container-setup), then
# built from a clean tree, run with only a volume, and the stack over HTTPS.
image:
	scripts/container-build

container-test: $(VENV)/.installed
	scripts/container-setup
	$(BIN)/python -m pytest -m container -p no:xdist -s $(PYTEST_ARGS)

# The browser tests alone (Playwright driving Chromium), on PostgreSQL.
e2e: $(VENV)/.installed caddy browser postgres node_modules/axe-core/axe.min.js
	DATABASE_URL=$(PG_URL) $(BIN)/python -m pytest -m e2e $(XDIST) $(PYTEST_ARGS)

# The browser tests' pictures of every screen, for a person to look at, in
# test-output/screenshots/, and the README's three in docs/images/
# (tests/e2e/test_readme_pictures.py; an ordinary run takes none; a failing test's
# page is kept in test-output/failures/).
screenshots: $(VENV)/.installed caddy browser postgres node_modules/axe-core/axe.min.js
	rm -rf test-output/screenshots
	SCREENSHOTS=1 DATABASE_URL=$(PG_URL) $(BIN)/python -m pytest -m e2e $(XDIST) $(PYTEST_ARGS)
	@echo "Screenshots: test-output/screenshots/ and docs/images/"

# The phone's check of an entry against the cases the engine is held to
# (tests/cases/entry_checks.json), with Node's own test runner.
jstest:
	node --test tests/js/

# PostgreSQL on 127.0.0.1:5432, started (or installed) if it is not running.
postgres:
	@scripts/postgres-up

# Debian's Chromium; Playwright can't download a browser here.
browser:
	@test -x $(CHROMIUM) || { \
		echo "Installing Chromium (apt-get)…"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# Debian's Caddy, the production front (deploy/Caddyfile): the tests of the front
# serve through it, and its certutil lets the browser trust Caddy's local authority.
caddy:
	@command -v caddy >/dev/null && command -v certutil >/dev/null || { \
		echo "Installing Caddy (apt-get)…"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq caddy libnss3-tools >/dev/null; }

# GNU gettext: the translation tests extract and compile the catalogue.
gettext:
	@command -v msgfmt >/dev/null && command -v xgettext >/dev/null || { \
		echo "Installing gettext (apt-get)…"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext >/dev/null; }

# Debian's tesseract, English and Norwegian: the tests read the result pictures back.
ocr:
	@command -v tesseract >/dev/null && tesseract --list-langs 2>/dev/null | grep -qx nor || { \
		echo "Installing tesseract (apt-get)…"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			tesseract-ocr tesseract-ocr-eng tesseract-ocr-nor >/dev/null; }

# After changing any text: update the catalogue of every language in settings.LANGUAGES,
# translate what is new (the tests list it), then compile.
MESSAGE_IGNORE := --ignore "node_modules/*" --ignore "test-output/*" --ignore "staticfiles/*" \
	--ignore "tests/*" --ignore "bench/*" --ignore "scripts/*"
messages: $(VENV)/.installed gettext
	DEBUG=1 $(BIN)/python manage.py makemessages $(foreach l,$(CATALOGUES),-l $(l)) \
		--add-location file --no-obsolete $(MESSAGE_IGNORE)
	for l in $(CATALOGUES); do \
		msgfmt --check -o locale/$$l/LC_MESSAGES/django.mo locale/$$l/LC_MESSAGES/django.po || exit 1; \
	done

node_modules/axe-core/axe.min.js: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The benchmark (see bench/run.py): SQLite in a temporary folder, or the
# throw-away PostgreSQL database that DATABASE_URL names.
bench: $(VENV)/.installed wrk
	$(BIN)/python -m bench.run $(BENCH_ARGS)

# The benchmark's load generator (Debian's wrk).
wrk:
	@command -v wrk >/dev/null || { \
		echo "Installing wrk (apt-get)…"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }

# The correctness load test (bench/load.py): needs DATABASE_URL naming a
# throw-away PostgreSQL database.
load: $(VENV)/.installed
	$(BIN)/python -m bench.load $(LOAD_ARGS)

clean:
	rm -rf $(VENV) node_modules staticfiles test-output .pytest_cache .hypothesis
