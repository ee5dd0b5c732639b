# make run: set up and serve on http://127.0.0.1:8000   make test: the whole suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: run test lint format pytest clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $@

run: $(VENV)/.installed
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py runserver 127.0.0.1:8000

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(VENV)/.installed
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

pytest: $(VENV)/.installed
	$(BIN)/python -m pytest $(PYTEST_ARGS)

test: lint pytest

clean:
	rm -rf $(VENV) staticfiles test-output .pytest_cache .hypothesis
