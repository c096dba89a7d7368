# Quick start: `make run` plays, `make test` checks everything. Both set up .venv on first use.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp

.PHONY: run test lint bench clean

$(STAMP): pyproject.toml
	python3 tools/mkvenv.py $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m engine.forbidden_city play --players 4 --random-seats

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy

test: lint
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) -m engine.forbidden_city bench

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis
