# Two entry points: `make run` starts the bot, `make test` runs the whole test suite.
# Each creates or updates its own virtual environment in .venv from pyproject.toml.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: run test lint demo

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

run: $(VENV)/.installed
	$(PY) -m bot

test: $(VENV)/.installed
	$(PY) -m ruff check .
	$(PY) -m pytest -n 2

lint: $(VENV)/.installed
	$(PY) -m ruff check .

demo: $(VENV)/.installed
	$(PY) -m renderers.demo gallery
