# ruota-docs — two commands on a fresh machine:
#   make site    build the site into site/ (or: make serve, for authors)
#   make test    ruff and mypy, then every code block of every page, and the package's own tests
# Both create .venv and install what they need on first use. Run as root, the pages run as
# the unprivileged user ruota-docs-runner: `make test` first lets it reach .venv and the repository
# (`make runner` does only that).
# Also:
#   make preview         build site/ and serve it as GitHub Pages will (SITE_URL=… for its address)
#   make record-check RECORDS_FROM=list   validate the records named in list, one per NUL byte (git diff -z)
#   make bench           the side-by-side benchmarks (minutes; results: benchmarks/RESULTS.md)

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# The CPU build of PyTorch; a ROCm or CUDA build already in .venv is kept (see README).
# On Linux x86_64 PyPI's torch is the CUDA build (GBs of nvidia-* wheels): PyTorch's CPU index has
# the same release as 2.13.0+cpu, which pip takes first (a local version sorts above the plain one).
# An extra index, not --index-url, and for torch alone (--no-deps; its dependencies come next from the
# usual indexes): where the CPU index cannot be reached (a machine that reaches only a mirror, or a wheel
# folder set in pip's configuration) pip warns, spends its retries on torch's page alone rather than
# on every dependency's, and takes torch from what it can reach.
TORCH  ?= torch==2.13.0
TORCH_INDEX ?= https://download.pytorch.org/whl/cpu
PYTEST_ARGS ?= -n 2 --dist loadscope

# One thread per page process: two pytest workers already fill CI's two cores, and
# oversubscribed PyTorch CPU threads made a training epoch many times slower there (benchmarks/RESULTS.md).
OMP_NUM_THREADS ?= 1
export OMP_NUM_THREADS
export NO_MKDOCS_2_WARNING := 1
export KERAS_BACKEND := torch
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: site serve preview test check record-check runner bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# The site needs only the package and the MkDocs stack.
$(VENV)/.docs-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

# The tests also need what the guides' code imports (with Triton from the `compile` group where the
# torch brings none: see pyproject.toml), a browser, the pages' sandbox (bubblewrap), and ROCm's own
# tools from Debian's packages
# (hipcc, clang-15, rocminfo, librocrand1: no GPU needed) for the toolchain and compiled-code blocks.
# pip compiles what it installs on one core: compileall does it on all of them afterwards (pages
# run as a user who cannot write .venv, so their bytecode must be there; -qq: like pip, it passes
# over the odd file a package ships that is not Python 3, and its status says nothing more).
$(VENV)/.tests-installed: pyproject.toml scripts/ensure-chromium scripts/ensure-bwrap scripts/ensure-rocm-tools | $(BIN)/python
	$(BIN)/python -c "import torch" 2>/dev/null || { $(BIN)/python -m pip install -q --no-compile --no-deps \
	  --extra-index-url $(TORCH_INDEX) "$(TORCH)" && $(BIN)/python -m pip install -q --no-compile "$(TORCH)"; }
	extras=snippets,tests; $(BIN)/python -c "import triton" 2>/dev/null || extras=$$extras,compile; \
	  $(BIN)/python -m pip install -q --no-compile -e ".[$$extras]"
	$(BIN)/python -m compileall -qq -j 0 $(VENV)/lib || true
	scripts/ensure-chromium
	scripts/ensure-bwrap
	scripts/ensure-rocm-tools
	touch $@ $(VENV)/.docs-installed

site: $(VENV)/.docs-installed
	$(BIN)/mkdocs build --strict

# The live preview, which plain `mkdocs serve` gives too: saving a page rebuilds that page and what
# shows it (SERVE_ARGS="--full" rebuilds everything on every save, as MkDocs' own rebuild does).
serve: $(VENV)/.docs-installed
	$(BIN)/ruota-docs serve $(SERVE_ARGS)

# What will be published, as GitHub Pages will serve it: under the path of the site_url it
# is built for, with its 404.html for missing pages, on a free port (PORT=8001 to choose):
#   SITE_URL=https://<owner>.github.io/ruota-docs/ make preview
preview: site
	$(BIN)/python -m ruota_docs.serve.preview site $(if $(PORT),--port $(PORT))

test: $(VENV)/.tests-installed
	@# as root, the pages run as ruota-docs-runner: let it reach the interpreter, .venv and the repository
	@# (where root's Python lives under /root, say); `runner --grant` says what it changed, if anything
	@if [ "$$(id -u)" = 0 ]; then $(BIN)/ruota-docs runner --grant; fi
	$(BIN)/ruff check src tests benchmarks scripts hooks
	$(BIN)/python -m mypy
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# What CI adds after the tests: every block has a current record, every record passes
# `record check`, translations match their source's structure and none is older than its source
# (`i18n status` fails on a stale or missing translation: its banner must not reach the published site).
# The folder, not a shell glob: the check lists it as the build and status do (hidden files, links
# and anything that is not a regular file refused, named).
check: $(VENV)/.tests-installed
	$(BIN)/ruota-docs status --strict
	$(BIN)/ruota-docs record check verification/
	$(BIN)/ruota-docs i18n check
	$(BIN)/ruota-docs i18n status --no-diff

# The records named in the file RECORDS_FROM, one per NUL byte (`git diff -z --name-only`): a name
# never passes through make or a shell, whatever characters it holds.
record-check: $(VENV)/.docs-installed
	@test -n "$(RECORDS_FROM)" || { echo 'record-check: name a list of records: make record-check RECORDS_FROM=list (one name per NUL byte, as git diff -z --name-only writes them)' >&2; exit 2; }
	$(BIN)/ruota-docs record check --from "$(RECORDS_FROM)"

# Run as root: create the user the pages run as and let it in where it cannot reach
# (an ACL entry for it, or o+x on the folders in the way); it says what it changed.
runner: $(VENV)/.docs-installed
	$(BIN)/ruota-docs runner --grant

# Each script prints its measurements and ratios side by side, in one run, as Markdown.
$(VENV)/.bench-installed: pyproject.toml $(VENV)/.tests-installed
	$(BIN)/python -m pip install -q -e ".[snippets,tests,bench]"
	touch $@

bench: $(VENV)/.bench-installed
	$(BIN)/python benchmarks/author_loop.py
	$(BIN)/python benchmarks/site_build.py
	$(BIN)/python benchmarks/collect.py
	$(BIN)/python benchmarks/suite.py
	$(BIN)/python benchmarks/sandbox.py --docs
	$(BIN)/python benchmarks/scale_records.py
	$(BIN)/python benchmarks/speedups.py render_ahead setup_cache serve_caches template_cache

clean:
	rm -rf site $(VENV)
