# Quick start: `make run` plays, `make test` checks everything. Both set up .venv on first use.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp

.PHONY: run selfplay test lint bench clean messages mutants wheels deploy-test

# Exact versions from constraints.txt: a new release of a library cannot break the build.
$(STAMP): pyproject.toml constraints.txt
	python3 tools/mkvenv.py $(VENV)
	$(PY) -m pip install -q -c constraints.txt --upgrade pip
	@# setuptools tells of every editable install in a framed warning, which a newcomer's first
	@# screen would show as if something failed: it says nothing wrong here.
	PYTHONWARNINGS="ignore:Editable installation" $(PY) -m pip install -q -c constraints.txt -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m bot

selfplay: $(STAMP)
	$(PY) -m engine.forbidden_city play --players 4 --random-seats

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	$(VENV)/bin/lint-imports

test: lint
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) -m engine.forbidden_city bench
	$(PY) -m engine.verbotene_stadt bench
	$(PY) -m render bench
	$(PY) -m bot bench
	$(PY) -m bot web-bench

# Mutation run ([tool.mutmut] in pyproject.toml) over the kept results, ratings, history, the
# leaderboard image, the leases and the moves of a table's keys: long (hours on two cores);
# `mutmut results` then lists the mutants no test caught. MUTANTS names a part, as mutmut names
# mutants: `make mutants MUTANTS='bot.store.* engine.ratings.*'`.
MUTANTS ?=
mutants: $(STAMP)
	PATH=$(CURDIR)/$(VENV)/bin:$$PATH nice -n 10 $(VENV)/bin/mutmut run --max-children 2 $(MUTANTS)
	PATH=$(CURDIR)/$(VENV)/bin:$$PATH $(VENV)/bin/mutmut results

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis .import_linter_cache mutants

# Refresh the translation catalogues after changing messages in bot/ or render/.
messages: $(STAMP)
	$(VENV)/bin/pybabel extract --no-location --sort-output -k tr:2 -k trn:2,3 -k N_ \
		-o bot/locales/messages.pot bot render
	for lang in fr it de; do \
		if [ -f bot/locales/$$lang/LC_MESSAGES/messages.po ]; then \
			$(VENV)/bin/pybabel update --no-fuzzy-matching --ignore-obsolete -i bot/locales/messages.pot \
				-d bot/locales -l $$lang; \
		else \
			$(VENV)/bin/pybabel init -i bot/locales/messages.pot -d bot/locales -l $$lang; \
		fi; \
	done

# The wheels of fc-bot and everything it needs, at constraints.txt's pins, for deploy/Dockerfile
# (installed there with no package index). async-timeout: redis needs it on Debian bookworm's
# Python 3.11.2 (deploy/local images), not on a newer 3.11.
wheels: $(STAMP)
	rm -f deploy/wheels/*.whl
	$(PY) -m pip wheel -q -c constraints.txt --wheel-dir deploy/wheels . async-timeout

# The deploy files run for real (docs/operations.md): images built here with no registry, the
# compose files brought up, a game played through them while containers are killed and rolled.
# Exit status 77: no Docker engine could start on this machine (nothing was tested).
deploy-test: wheels
	$(PY) -m tests.deploy
