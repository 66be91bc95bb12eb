# The two commands: `make demo` (the engine on the embedded default) and `make test` (everything).
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
export OMP_NUM_THREADS ?= 2

.PHONY: demo test lint bench pg-start pg-stop clean

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[dev]"
	touch $@

demo: $(VENV)/.installed
	$(VENV)/bin/memquill demo

# The whole suite on both backends: SQLite, then a real PostgreSQL + pgvector on 127.0.0.1.
test: $(VENV)/.installed
	$(VENV)/bin/ruff check src tests bench
	$(VENV)/bin/mypy
	bash scripts/pg.sh start $(PY) >/dev/null
	MEMQUILL_PG_URL=$$(bash scripts/pg.sh url) $(VENV)/bin/pytest --backend=all; status=$$?; \
		bash scripts/pg.sh stop >/dev/null; exit $$status

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check src tests bench
	$(VENV)/bin/ruff format --check src tests bench
	$(VENV)/bin/mypy

bench: $(VENV)/.installed
	$(PY) bench/bench_store.py
	$(PY) bench/locomo.py

clean:
	bash scripts/pg.sh clean || true
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
