# make run: set up and serve on http://127.0.0.1:8000   make test: the whole suite
# make production: the production stack on https://localhost:8443
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
export PIP_DISABLE_PIP_VERSION_CHECK := 1

CHROMIUM ?= /usr/bin/chromium
export CHROMIUM

.PHONY: run test production lint format pytest jstest e2e browser caddy gettext ocr wrk messages bench load clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $@

run: $(VENV)/.installed
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py createcachetable
	DEBUG=1 $(BIN)/python manage.py runserver 127.0.0.1:8000

# What a club's server runs, on this machine (deploy/production.py): PostgreSQL,
# gunicorn and Caddy on https://localhost:8443. Ctrl-C stops it; the data stays.
production: $(VENV)/.installed
	$(BIN)/python -m deploy.production

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(VENV)/.installed
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# The fast suite: everything but the browser tests.
pytest: $(VENV)/.installed gettext ocr caddy
	$(BIN)/python -m pytest -m "not e2e" $(PYTEST_ARGS)

# The phone's check of an entry against the cases the engine is held to
# (tests/cases/entry_checks.json), with Node's own test runner.
jstest:
	node --test tests/js/

# Browser tests, in their own run: their live server empties the database.
e2e: $(VENV)/.installed browser node_modules/axe-core/axe.min.js
	$(BIN)/python -m pytest -m e2e $(PYTEST_ARGS)

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

# After changing any text: update the Bokmål catalogue, translate what is new
# (the tests list it), then compile.
MESSAGE_IGNORE := --ignore "node_modules/*" --ignore "test-output/*" --ignore "staticfiles/*" \
	--ignore "tests/*" --ignore "bench/*" --ignore "scripts/*"
messages: $(VENV)/.installed gettext
	DEBUG=1 $(BIN)/python manage.py makemessages -l nb --add-location file --no-obsolete $(MESSAGE_IGNORE)
	msgfmt --check -o locale/nb/LC_MESSAGES/django.mo locale/nb/LC_MESSAGES/django.po

node_modules/axe-core/axe.min.js: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

test: lint pytest jstest e2e

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
