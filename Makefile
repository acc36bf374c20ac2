# Two entry points: `make run` starts the bot, `make test` runs the whole test suite.
# Both create or update the virtual environment in .venv: `make run` installs the runtime dependencies from
# pyproject.toml's ranges (stamp .installed, the name tools/merge_catalogs relies on); `make test` (and CI, .ci/run)
# installs the exact, hash-checked versions of requirements-dev.lock, test tools included (.installed-dev). The
# image installs requirements.lock. After changing a dependency: `make lock` (pip-tools), commit both lock files.
# `make run` installs the project as a plain wheel (it runs `python -m bot` from the checkout, which comes first on
# sys.path): an editable install would print setuptools' "editable installation" warning box to a newcomer.
# `make test` installs it editable, so every test process (xdist workers included) imports the checkout.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: run test lint demo messages language merge-messages discord-sdk lock

# Message catalogs (docs/i18n.md): one domain, `tablebot`, sources in core/i18n/locale/<lang>/LC_MESSAGES/.
LOCALES := core/i18n/locale
POT := $(LOCALES)/tablebot.pot
BABEL_KEYWORDS := --no-default-keywords -k t:2 -k tn:2,3 -k N_

RUNTIME := $(VENV)/.installed
DEV := $(VENV)/.installed-dev

$(RUNTIME): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet .
	touch $@

$(DEV): $(RUNTIME) requirements-dev.lock
	$(PY) -m pip install --quiet -r requirements-dev.lock
	$(PY) -m pip install --quiet --no-deps -e .
	touch $@

LOCK := --quiet --generate-hashes --strip-extras --allow-unsafe --no-emit-index-url --no-emit-find-links
lock: $(RUNTIME)
	$(PY) -m pip install --quiet pip-tools
	$(VENV)/bin/pip-compile $(LOCK) -o requirements.lock pyproject.toml
	$(VENV)/bin/pip-compile $(LOCK) --extra dev -o requirements-dev.lock pyproject.toml

run: $(RUNTIME)
	$(PY) -m bot

test: $(DEV)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m pytest -n 2

lint: $(DEV)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

demo: $(RUNTIME)
	$(PY) -m tools.gallery gallery

# Extract every message of core, renderers and bot into the .pot and merge it into each language's .po.
messages: $(RUNTIME)
	$(VENV)/bin/pybabel extract -F babel.cfg $(BABEL_KEYWORDS) -c Translators: --sort-output --no-location \
		--project=tablebot --version=0.1 --copyright-holder="tablebot contributors" \
		--header-comment="# Messages of tablebot: game events, words in pictures, the bot (docs/i18n.md)." \
		--msgid-bugs-address="the project issue tracker" -o $(POT) core renderers bot
	$(VENV)/bin/pybabel update -i $(POT) -d $(LOCALES) -D tablebot --ignore-obsolete --no-wrap

# Start a new language: make language NEW_LANG=pl (then translate core/i18n/locale/pl/LC_MESSAGES/tablebot.po).
language: $(RUNTIME)
	test -n "$(NEW_LANG)" || (echo "usage: make language NEW_LANG=xx" && exit 2)
	$(VENV)/bin/pybabel init -i $(POT) -d $(LOCALES) -D tablebot -l $(NEW_LANG) --no-wrap

# In the middle of a git merge whose only conflicts left are the catalogs: keep both sides' translations.
merge-messages: $(RUNTIME)
	$(PY) -m tools.merge_catalogs

# Rebuild the vendored Discord Embedded App SDK (bot/webapp/static/discord-sdk.js and its licences) from npm, pinned.
discord-sdk:
	bash tools/build_discord_sdk.sh
