# Fleetscope: `make demo` sets up and starts the demo, `make test` runs every test suite.
SHELL := /bin/bash
PORT ?= 8000
export UV_PYTHON_DOWNLOADS := never
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1
# Tests import the package many times over; cached bytecode saves ~10 s per run.
unexport PYTHONDONTWRITEBYTECODE
VENV := .venv
PY := $(VENV)/bin/python
FLEETSCOPE := $(VENV)/bin/fleetscope

.PHONY: demo test install install-python install-frontend build system-deps test-deps \
	test-backend test-frontend test-e2e lint typecheck api-types clean

demo: system-deps install build
	$(FLEETSCOPE) demo --port $(PORT)

test: test-deps install build
	$(MAKE) lint typecheck
	$(MAKE) test-backend
	$(MAKE) test-frontend
	$(MAKE) test-e2e

install: install-python install-frontend

# Bytecode is compiled here, the libraries' and the project's: a process then starts in half
# the time (1.0 s instead of 2.1 s to import the server), also where the environment forbids
# writing it (PYTHONDONTWRITEBYTECODE). Stale bytecode of an edited file is simply not used.
install-python: $(VENV)/.synced
	$(PY) -m compileall -q -j 0 backend/fleetscope
$(VENV)/.synced: pyproject.toml uv.lock
	@command -v uv >/dev/null || python3 -m pip install -q uv
	uv sync --frozen --compile-bytecode
	@touch $@

install-frontend: frontend/node_modules/.installed
# `npm install` installs exactly what package-lock.json pins. Not `npm ci`: the registry
# reachable here lacks other platforms' optional Biome binaries, so npm cannot record them
# in the lock file and `npm ci`'s strict lock check refuses it. `--no-save` leaves the lock
# file as committed (npm would otherwise drop those binaries from it).
frontend/node_modules/.installed: frontend/package.json frontend/package-lock.json
	cd frontend && npm install --no-save --no-audit --no-fund
	@touch $@

build: install-frontend
	cd frontend && npm run build

system-deps:
	scripts/apt-install mosquitto

test-deps:
	scripts/apt-install mosquitto chromium postgresql

lint:
	$(VENV)/bin/ruff check backend benchmarks
	$(VENV)/bin/ruff format --check backend benchmarks
	cd frontend && npm run lint

typecheck:
	$(VENV)/bin/mypy
	scripts/api-types --check
	cd frontend && npm run typecheck

# The frontend's API types, generated from the backend's OpenAPI document.
api-types: install
	scripts/api-types

# Two pytest workers (pytest-xdist) keep both cores of a two-core machine busy: the suite
# takes half the time of one process (8.8 min instead of 17.3 on the same loaded host).
# Idle workers steal queued tests, so the few long ones at the end do not leave one idle.
# Every fixture takes free ports and private folders, so the workers never share a server.
test-backend:
	$(VENV)/bin/pytest -q --numprocesses 2 --dist worksteal

test-frontend:
	cd frontend && npm test

test-e2e:
	cd frontend && npm run e2e

clean:
	rm -rf $(VENV) frontend/node_modules frontend/dist var
