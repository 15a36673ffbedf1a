"""The pytest side of the engine: options, grouping, and the verification record.

Loaded automatically (entry point ``pytest11``). Options:

``--record PATH``        file or folder for the record (default: ``verification/``
                         beside mkdocs.yml, file named after the machine id)
``--no-record``          write no record
``--block-timeout S``    seconds a block may run (default 120; ``run: timeout=`` wins)
``--network``            let blocks marked ``requires: network`` run
``--no-reuse``           execute identical translations again instead of crediting them
``--reuse-record``       do not run pages whose code passed here last time, unchanged
                         (their records are kept as they were; for authors, not CI)
``--update-outputs``     rewrite the ``#>`` lines of blocks whose output differs, from this
                         machine's output, in the page or snippet file they are written in
``--run-as-root``        when run as root, run the pages as root too (by default they run
                         as the unprivileged user ``ruota-docs-runner``: see
                         :mod:`ruota_docs.run.unprivileged`); each entry records ``as_root``
``--mkdocs-config PATH`` the site's mkdocs.yml, where it is not at or above the folder the run
                         names (``pytest docs --mkdocs-config docs/en/mkdocs.yml``)
``--isolation MODE``     ``auto`` (default): each page in bubblewrap's sandbox where it can run,
                         else as the unprivileged user, said once; ``sandbox``: refuse to run
                         without it; ``user``: the fallback (:mod:`ruota_docs.run.sandbox`);
                         each entry records ``isolation``
``--allow-env NAME``     let pages that name it (``run: env=NAME``) get a variable named like a
                         secret (``HF_TOKEN``); also ``RUOTA_DOCS_ALLOW_ENV=A,B``

mkdocs.yml is read as MkDocs reads it: a file that is not valid YAML stops the run with its
file and line; an option the ``ruota_docs`` plugin does not have is a warning, an error with
pytest's ``--strict``. A run that collects nothing while a mkdocs.yml lies below the folder
it names says so, with the file and the option; one under a Zensical ``zensical.toml`` names that
file and what to write instead.

``--ledger``, ``--no-ledger`` and ``--reuse-ledger``, the options' names before, still work,
with a warning.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from collections.abc import Callable, Generator, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:  # imported where a hook needs them (see below)
    from ruota_docs.records.schema import BlockRef, Machine, Result
    from ruota_docs.blocks.block import Block
    from ruota_docs.run.accounting import Accounting
    from ruota_docs.run.run_state import RunState
    from ruota_docs.run.settings import Settings

# pytest loads this plugin in every run of this environment, most of which collect no page:
# the engine's modules are imported where a hook needs them, so that such a run pays nothing
# for them (benchmarks/RESULTS.md, "The author's loop").
_KEY = "ruota_block"
_UPDATED = "ruota_updated"
#: The key of an xdist worker's ``workeroutput`` that carries what it collected (run.accounting).
_WORKER_KEY = "ruota_collected"
#: Where the run's settings are kept on pytest's config (built once per process, on first use).
SETTINGS = pytest.StashKey["Settings"]()
#: The run's state: the settings, and the record read at session start.
RUN = pytest.StashKey["RunState"]()


@dataclass
class _Run:
    """What this plugin keeps of one pytest run, on its config (`RECORDING`)."""

    sites: list[Path] = field(default_factory=list)  #: the sites the run's paths point at
    #: each block's entry (`ruota_docs.records.schema.Result.to_entry`) and its page's block count
    entries: list[tuple[dict[str, Any], int]] = field(default_factory=list)
    updates: list[dict[str, Any]] = field(default_factory=list)  #: #> lines planned by the blocks, written at the end
    updated: list[str] = field(default_factory=list)  #: what writing them changed, for the summary
    accounting: Accounting | None = None  #: made once a block is collected or reported
    collectors: dict[Path, Any] = field(default_factory=dict)  #: each site's Sybil collector
    #: the one page the run names, whose process starts ahead when it is collected; None once started.
    #: pytest asks about every file of that page's folder, not that page only.
    ahead: Path | None = None
    unaccounted: list[str] = field(default_factory=list)  #: blocks collected that never reported
    summary: str | None = None  #: the record's line in the terminal summary


RECORDING = pytest.StashKey[_Run]()


def _run(config: pytest.Config) -> _Run:
    """This plugin's state of the run, made on first use."""
    if RECORDING not in config.stash:
        config.stash[RECORDING] = _Run()
    return config.stash[RECORDING]


def _settings(config: pytest.Config) -> Settings:
    """The run's `ruota_docs.run.settings.Settings`, built on first use from the same command line
    in the controller and in every xdist worker, for the site the run is about."""
    if SETTINGS not in config.stash:
        from ruota_docs.run import settings as run_settings  # noqa: PLC0415 — see the imports above

        config.stash[SETTINGS] = run_settings.from_pytest(config, root=_site_root(config))
    return config.stash[SETTINGS]


def _state(config: pytest.Config) -> RunState:
    """The run's `ruota_docs.run.run_state.RunState`, made on first use."""
    if RUN not in config.stash:
        from ruota_docs.run.run_state import RunState  # noqa: PLC0415 — see the imports above

        config.stash[RUN] = RunState(_settings(config), progress=_live_line(config))
    return config.stash[RUN]


def run_state(config: pytest.Config) -> RunState:
    """The run's state (its settings, the record read at its start) for plugins beside this one
    (`ruota_docs.run.page_progress`)."""
    return _state(config)


def _live_line(config: pytest.Config) -> Callable[[str, float, bool], None] | None:
    """``progress(where, elapsed, done)`` for a block that runs long: on a terminal, one line
    rewritten each second and cleared when the block ends; elsewhere (a log, CI) a line at 5 s,
    then every minute. Written past pytest's capture."""
    terminal = config.pluginmanager.get_plugin("terminalreporter")
    capture = config.pluginmanager.get_plugin("capturemanager")
    if terminal is None or hasattr(config, "workerinput"):  # xdist workers' output does not reach a terminal
        return None
    tty = getattr(terminal, "isatty", False)
    tty = bool(tty() if callable(tty) else tty)
    shown: dict[str, int] = {}

    def progress(where: str, elapsed: float, done: bool) -> None:
        if done:  # a line rewritten in place goes; one written into a log stays
            if tty and where in shown:
                with capture.global_and_fixture_disabled() if capture else contextlib.nullcontext():
                    terminal._tw.write("\r\x1b[K", flush=True)
            shown.pop(where, None)
            return
        step = int(elapsed) if tty else (0 if elapsed < 60 else int(elapsed // 60))
        if shown.get(where) == step:
            return
        first = where not in shown
        shown[where] = step
        text = f"ruota-docs: {where} still running after {elapsed:.0f} s (--block-timeout, run: timeout=S)"
        with capture.global_and_fixture_disabled() if capture else contextlib.nullcontext():
            if tty:
                if first:
                    terminal.ensure_newline()
                terminal._tw.write("\r\x1b[K" + text, flush=True)
            else:
                terminal.write_line(text)

    return progress


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("ruota-docs", "verified documentation")
    group.addoption("--record", metavar="PATH", help="verification record file or folder (default: verification/)")
    group.addoption("--no-record", action="store_true", help="do not write the verification record")
    group.addoption("--block-timeout", type=float, metavar="S",
                    help="seconds a code block may run (default 120; run: timeout=S for one block)")
    group.addoption("--network", action="store_true", help="run blocks that need the internet")
    group.addoption("--no-reuse", action="store_true", help="execute identical translations again")
    group.addoption("--reuse-record", action="store_true",
                    help="skip executing pages that passed on this machine with the same code (author runs)")
    for old, new in DEPRECATED_OPTIONS.items():
        kind: dict[str, Any] = {"metavar": "PATH"} if old == "--ledger" else {"action": "store_true"}
        group.addoption(old, dest=old[2:].replace("-", "_"), help=f"deprecated: use {new}", **kind)
    group.addoption("--update-outputs", action="store_true",
                    help="rewrite #> output lines from this machine's output (pages and snippet files)")
    group.addoption("--mkdocs-config", metavar="PATH",
                    help="the site's mkdocs.yml, where it is not at or above the folder the run names")
    group.addoption("--isolation", choices=("auto", "sandbox", "user"),
                    help="how pages are isolated: auto (default: bubblewrap's sandbox where it runs, else the "
                         "unprivileged user), sandbox (required), user (the fallback)")
    group.addoption("--allow-env", action="append", metavar="NAME",
                    help="let pages that name it (run: env=NAME) get this variable, though named like a secret "
                         "(a token, key or password); repeat for several")
    group.addoption("--run-as-root", action="store_true",
                    help="when run as root, run the pages' code as root too (default: as an unprivileged user, "
                         "see `ruota-docs runner`)")


#: The options' names before ``record`` named what they write: still read, with a warning.
DEPRECATED_OPTIONS = {"--ledger": "--record", "--no-ledger": "--no-record", "--reuse-ledger": "--reuse-record"}


def _warn_deprecated(config: pytest.Config) -> None:
    for old, new in DEPRECATED_OPTIONS.items():
        if config.getoption(old[2:].replace("-", "_"), default=None):
            config.issue_config_time_warning(
                pytest.PytestDeprecationWarning(f"ruota-docs: {old} is deprecated: use {new}"), stacklevel=2)


def pytest_configure(config: pytest.Config) -> None:
    from ruota_docs.blocks import compat  # noqa: PLC0415 — see the imports above

    try:  # before any page is collected: a stack the capture cannot work with, named as such
        compat.check()
    except compat.UnsupportedDependency as error:
        raise pytest.UsageError(f"ruota-docs: {error}") from None
    _warn_deprecated(config)
    # The settings reach the evaluators through the ruota_run fixture, the page's process as an argument.
    if _one_page_named(config):  # first of all: the page renders while the rest of the set-up goes on
        from ruota_docs.run import render_ahead  # noqa: PLC0415 — a one-page run only

        render_ahead.start(Path(config.invocation_params.dir, config.args[0]).resolve())
    run = _run(config)
    try:
        run.sites = _sites_asked(config)
    except ValueError as error:  # site_config.ConfigError: the file, its line, what is wrong
        raise pytest.UsageError(f"ruota-docs: {error}") from None
    if run.sites and not hasattr(config, "workerinput"):
        _check_options(config)
    if not hasattr(config, "workerinput") and _runs_pages(config):
        from ruota_docs.run import unprivileged  # noqa: PLC0415 — a site's run only

        try:  # once per run, before any page: who runs the pages, and can it reach them
            runner = unprivileged.prepare(_settings(config))
        except unprivileged.RunnerError as error:
            raise pytest.UsageError(f"ruota-docs: {error}") from None
        finally:
            notice = unprivileged.created_notice()  # the first run as root creates the user: said once, then
            if notice:
                _say(config, notice, yellow=True)
        _isolation(config, runner)
        _record_folder_writable(_settings(config))
    # The machine is described only when a block asks something of it or a record is
    # written (device.probe: lazy, and cached on disk for the next run and the workers).
    if (config.pluginmanager.hasplugin("xdist") and _runs_pages(config) and not hasattr(config, "workerinput")
            and config.getoption("dist", default="no") in ("load", "worksteal")):
        # a page's blocks share its process, so one worker must run them all: `-n N` alone (xdist's "load")
        # would spread them, and a block would miss the names the blocks before it defined
        config.option.dist = "loadscope"
        _say(config, "ruota-docs: pages go to the workers whole (--dist loadscope): a page's blocks share one process")
    if config.pluginmanager.hasplugin("xdist") and config.getoption("dist", default="no") == "loadscope":
        from ruota_docs.run.scheduling import SchedulingPlugin  # noqa: PLC0415 — xdist is optional and slow to import

        config.pluginmanager.register(SchedulingPlugin(), "ruota-docs-scheduling")
    run.ahead = Path(config.invocation_params.dir, config.args[0]).resolve() if _one_page(config) else None
    config.pluginmanager.register(_Reports(config), "ruota-docs-reports")


def _say(config: pytest.Config, line: str, **markup: bool) -> None:
    """One line on pytest's terminal, or on stderr where no terminal reporter runs (`-p no:terminal`)."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter:
        reporter.write_line(line, **markup)
    else:
        print(line, file=sys.stderr)


def _isolation(config: pytest.Config, runner: Any) -> None:
    """Once per run: whether pages run in the sandbox; where they cannot, say so (once)."""
    from ruota_docs.run import sandbox  # noqa: PLC0415 — a site's run only

    settings = _settings(config)
    if settings.isolation not in sandbox.CHOICES:
        raise pytest.UsageError(f"ruota-docs: RUOTA_DOCS_ISOLATION={settings.isolation!r}: "
                                f"expected one of {', '.join(sandbox.CHOICES)}")
    try:
        user = (runner.uid, runner.gid, runner.groups) if runner else None
        isolation, why = sandbox.choose(settings.isolation, user, runner is not None)
    except sandbox.SandboxError as error:
        raise pytest.UsageError(f"ruota-docs: {error}") from None
    if why:
        who = f"the unprivileged user {runner.name}" if runner else "this user, with nothing between them"
        sys.stderr.write(f"ruota-docs: no sandbox for the pages ({why}); they run as {who}, and their results "
                         f"record isolation: {isolation}\n")


def _record_folder_writable(settings: Settings) -> None:
    """Before any page: a record folder that cannot be written stops the run at once, named."""
    if not settings.write_record or settings.fake_device:
        return
    target = settings.record or settings.record_dir or settings.root / "verification"
    folder = target.parent if target.suffix == ".json" else target
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not os.access(folder, os.W_OK):
        raise pytest.UsageError(f"ruota-docs: the record folder {folder} cannot be written (read-only or not "
                                "yours): make it writable, or name another with --record PATH, or run with --no-record")


def _one_page_named(config: pytest.Config) -> bool:
    """Whether the run names a single Markdown file, to collect and run here, in this process (no xdist)."""
    args = config.args
    return (len(args) == 1 and args[0].endswith(".md") and not config.getoption("collectonly", default=False)
            and not hasattr(config, "workerinput") and config.getoption("numprocesses", default=None) in (None, 0))


def _one_page(config: pytest.Config) -> bool:
    """Whether the run names a single page of a site and runs it here, in this process (no xdist)."""
    return _runs_pages(config) and _one_page_named(config)


@pytest.fixture(scope="session")
def ruota_run(pytestconfig: pytest.Config) -> RunState:
    """The run's `ruota_docs.run.run_state.RunState` (settings, the record read at the start):
    Sybil puts it in each page's namespace."""
    return _state(pytestconfig)


#: The names MkDocs reads its configuration from: `ruota_docs.blocks.site_config.CONFIG_NAMES`, which a run
#: that collects no page never imports (``tests/run/test_pytest_plugin.py`` keeps the two equal).
_CONFIG_NAMES = ("mkdocs.yml", "mkdocs.yaml")


def _config_above(path: Path) -> bool:
    """Whether a mkdocs.yml is at or above ``path`` (nothing read, nothing imported)."""
    folder = path if path.is_dir() else path.parent
    return any((f / name).exists() for f in (folder, *folder.parents) for name in _CONFIG_NAMES)


def _sites_asked(config: pytest.Config) -> list[Path]:
    """The sites the run's paths point at (see :mod:`ruota_docs.run.discovery`), or the one
    ``--mkdocs-config`` names; a run whose paths are under no mkdocs.yml reads nothing and
    imports nothing for it."""
    here = Path(config.invocation_params.dir)
    named = config.getoption("mkdocs_config", default=None)
    if named:
        path = (here / named).resolve()
        if not path.is_file() or path.name not in _CONFIG_NAMES:
            raise pytest.UsageError(f"ruota-docs: --mkdocs-config {named}: no mkdocs.yml (or mkdocs.yaml) file there")
        from ruota_docs.run import discovery  # noqa: PLC0415 — see the imports above

        discovery.docs_dir(path.parent)  # read now: a malformed file stops the run here, with its line
        return [path.parent]
    if not any(_config_above((here / arg.split("::", 1)[0]).resolve()) for arg in config.args):
        return []
    from ruota_docs.run import discovery  # noqa: PLC0415 — see the imports above

    return discovery.sites_asked(here, config.args)


def _check_options(config: pytest.Config) -> None:
    """The ``ruota_docs`` plugin's options, checked as MkDocs checks them (`ruota_docs.blocks.plugin_config`):
    a wrong value stops the run; an unknown option or an old name is a warning (``mkdocs build --strict``
    stops), a usage error under pytest's ``--strict``."""
    from ruota_docs.blocks import site_config  # noqa: PLC0415 — a site's run only

    strict = bool(config.getoption("strict", default=False)) or _ini_strict(config)
    for root in _run(config).sites:
        try:
            warnings = site_config.read(root).warnings
        except site_config.ConfigError as error:
            raise pytest.UsageError(f"ruota-docs: {error}") from None
        for message in warnings:
            if strict:
                raise pytest.UsageError(f"ruota-docs: {message}")
            config.issue_config_time_warning(pytest.PytestConfigWarning(f"ruota-docs: {message}"), stacklevel=2)


def _ini_strict(config: pytest.Config) -> bool:
    try:
        return bool(config.getini("strict"))
    except (ValueError, KeyError):  # a pytest before the ``strict`` setting
        return False


def _runs_pages(config: pytest.Config) -> bool:
    """Whether this run collects a docs directory (or part of it) to run it: only then do pages run."""
    return bool(_run(config).sites) and not config.getoption("collectonly", default=False)


def _site_root(config: pytest.Config) -> Path:
    """The folder of the site this run is about (its mkdocs.yml's), else pytest's rootdir."""
    sites = _run(config).sites
    return sites[0] if sites else Path(config.rootpath)


def _conftest_collects(config: pytest.Config, file_path: Path) -> bool:
    """Whether a conftest already collects this page with the engine's Sybil (``make_sybil(…).pytest()``,
    whose hook says which pages it collects: `ruota_docs.run.sybil.compat.PageSybil`)."""
    for plugin in config.pluginmanager.get_plugins():
        collects = getattr(getattr(plugin, "pytest_collect_file", None), "ruota_docs_collects", None)
        if callable(collects) and collects(file_path):
            return True
    return False


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """Each page of the site the run points at (see :mod:`ruota_docs.run.discovery`): no
    conftest needed. A conftest that builds the engine's Sybil itself is left to collect."""
    config = parent.config
    if file_path.suffix != ".md" or not _run(config).sites:
        return None
    from ruota_docs.run import discovery  # noqa: PLC0415 — a site's run only

    root = discovery.site_of_page(file_path)
    sites = _run(config).sites
    if config.getoption("mkdocs_config", default=None):  # the named site's pages, wherever its file is
        root = sites[0] if discovery.docs_dir(sites[0]) in file_path.parents else None
    if root is None or root not in sites or _conftest_collects(config, file_path):
        return None
    if _run(config).ahead == file_path.resolve():  # the one page of the run: its process starts while it renders
        _run(config).ahead = None
        from ruota_docs.run.process import session  # noqa: PLC0415
        from ruota_docs.run.sybil.parsers import PageLayout  # noqa: PLC0415

        try:
            session.start_ahead(PageLayout(root).page_of(file_path)[0], _settings(config))
        except session.MachineFault:
            pass  # the page's first block meets it again, and stops the run there
    collectors = _run(config).collectors
    if root not in collectors:
        from ruota_docs.run.sybil import make_sybil  # noqa: PLC0415

        collectors[root] = make_sybil(root).pytest()
    collected: pytest.Collector | None = collectors[root](file_path, parent)
    return collected


def _accounting(config: pytest.Config) -> Accounting:
    """The run's `ruota_docs.run.accounting.Accounting`, made on first use."""
    run = _run(config)
    if run.accounting is None:
        from ruota_docs.run.accounting import Accounting  # noqa: PLC0415 — a site's run only

        run.accounting = Accounting()
    return run.accounting


def _collected(items: Iterable[pytest.Item]) -> list[tuple[str, tuple[str, int] | None]]:
    """``(node id, (page, index))`` of each block test, ``(node id, None)`` of each page problem."""
    found: list[tuple[str, tuple[str, int] | None]] = []
    for item in items:
        parsed = getattr(getattr(item, "example", None), "parsed", None)
        if parsed is not None and hasattr(parsed, "signature"):
            found.append((item.nodeid, (parsed.page, parsed.index)))
        elif type(parsed).__name__ == "PageProblem":
            found.append((item.nodeid, None))
    return found


def pytest_collection_finish(session: pytest.Session) -> None:
    """What this run collected, after deselection: each of it must report once."""
    found = _collected(session.items)
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is None and found and not session.config.getoption("collectonly", default=False):
        from ruota_docs.run import page_ahead  # noqa: PLC0415 — a run of pages only

        _state(session.config).pages = page_ahead.pages_in_order(session.items, block_of)
    if workeroutput is not None:  # an xdist worker: the controller does the accounting
        workeroutput[_WORKER_KEY] = found
    elif found:
        _accounting(session.config).collect(found)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """xdist's controller: a worker finished, with what it collected."""
    found = getattr(node, "workeroutput", {}).get(_WORKER_KEY)
    if found:
        _accounting(node.config).collect(found)


def block_of(item: pytest.Item) -> Block | None:
    """The block a test item runs; None for any other item."""
    if "sybil.integration.pytest" not in sys.modules:  # no Sybil item can exist
        return None
    from ruota_docs.run.sybil.compat import example_of  # noqa: PLC0415 — Sybil is loaded by then

    block = getattr(example_of(item), "parsed", None)
    return block if block is not None and hasattr(block, "signature") else None


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keep each page's blocks together, the Spanish source before its translations, so
    that identical translations are credited with the source's run (with xdist, use
    ``--dist loadscope``: see :mod:`ruota_docs.run.scheduling`)."""
    pages: dict[str, list[Any]] = defaultdict(list[Any])
    others = []
    for item in items:
        block = block_of(item)
        if block is None:
            others.append(item)
        else:
            pages[block.page].append(item)

    source = _settings(config).source_language if pages else None

    def order(page: str) -> tuple[str, bool, str]:
        lang, _, rest = page.partition("/")
        return (rest, lang != source, lang)

    items[:] = others + [item for page in sorted(pages, key=order) for item in pages[page]]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    block = block_of(item)
    if block is None or report.when != "call":
        return
    from ruota_docs.run.results import block_ref, result_of  # noqa: PLC0415 — a block's report only

    if report.skipped and isinstance(report.longrepr, tuple):
        # point the skip at the page and line (or the included file and line), not at pytest's unittest shim
        path, line = item.written() if hasattr(item, "written") else (item.path, block.line)
        report.longrepr = (str(path), line, report.longrepr[2])
    decided = _state(item.config).take(block.page, block.index)
    if decided is not None and decided.update is not None:  # travels with the report, from an xdist worker too
        report.user_properties.append((_UPDATED, decided.update.to_json()))
    # an entry (`Result.to_entry`) travels with the report, from an xdist worker too
    problem = str(call.excinfo.value) if call.excinfo else None
    found = result_of(block, decided, problem, report.duration)
    report.user_properties.append((_KEY, [found.to_entry(block_ref(block)), block.page_total]))


class _Reports:
    """What each test report brings (a block's result, a ``#>`` update), kept on its run's config:
    a plugin object per config, so that runs in one process (nested, in-process) keep theirs apart."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if "::sybil:" in report.nodeid:
            _accounting(self.config).report(report)
        if report.when != "call":
            return
        run = _run(self.config)
        for key, value in report.user_properties:
            if key == _KEY:
                run.entries.append(value)  # type: ignore[arg-type]  # what makereport put there
            elif key == _UPDATED:
                run.updates.append(value)  # type: ignore[arg-type]


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    option = session.config.getoption
    if (option("reuse_record") or option("reuse_ledger")) and _settings(session.config).reuse_record:
        from ruota_docs.run.device import probe  # noqa: PLC0415 — an author's run only

        _state(session.config).read_record(probe().machine_id)  # once, before any page (in each xdist worker too)


def _sites_below(config: pytest.Config, depth: int = 3) -> list[str]:
    """The mkdocs.yml files up to ``depth`` folders below the folders the run names (hidden
    folders, virtual environments and built sites left out), as paths from where it was run."""
    here = Path(config.invocation_params.dir)
    found: list[str] = []
    skip = {"node_modules", "site", "venv", "__pycache__"}
    for arg in config.args:
        start = (here / arg.split("::", 1)[0]).resolve()
        level = [start] if start.is_dir() else []
        for _ in range(depth):
            level = [d for f in level for d in sorted(f.iterdir()) if d.is_dir()
                     and not d.name.startswith(".") and d.name not in skip]
            for folder in level:
                for name in _CONFIG_NAMES:
                    if (folder / name).is_file():
                        found.append(os.path.relpath(folder / name, here))
    return found


def _zensical_config(config: pytest.Config) -> str | None:
    """A Zensical ``zensical.toml`` at or above the first folder the run names, as a path from
    where it was run: a site the engine cannot read (it reads mkdocs.yml)."""
    here = Path(config.invocation_params.dir)
    for arg in config.args[:1]:
        start = (here / arg.split("::", 1)[0]).resolve()
        for folder in (start, *start.parents):
            if (folder / "zensical.toml").is_file():
                return os.path.relpath(folder / "zensical.toml", here)
    return None


def _write_updates(session: pytest.Session) -> None:
    """``--update-outputs``: write the ``#>`` lines the blocks planned, before the record is
    written; a block whose lines cannot be written fails, in the record too."""
    from ruota_docs.records import reason_codes  # noqa: PLC0415 — an update's run only
    from ruota_docs.run.run_state import OutputUpdate, apply_updates  # noqa: PLC0415

    config = session.config
    settings = _settings(config)

    def shown(path: str) -> str:
        try:
            return Path(path).resolve().relative_to(settings.root).as_posix()
        except ValueError:
            return path

    by_key = {f"{e['page']}#{e['index']}": e for e, _ in _run(config).entries}
    for applied in apply_updates([OutputUpdate.from_json(u) for u in _run(config).updates], shown):
        where = applied.update.where
        if applied.error is None:
            _run(config).updated.extend(f"{shown(c.path)}{str(c)[len(c.path):]} (the block at {where})"
                                         for c in applied.changes)
            continue
        code = reason_codes.reason("outputs_not_updated", at=None, error=applied.error)
        _run(config).updated.append(f"{where}: {code.english()}")
        entry = by_key.get(applied.update.block)
        if entry is not None:  # recorded with the code it still has
            entry.update(outcome="failed", reason=code.english(), reason_code=code.to_record(),
                         error=applied.update.diff, sha256=applied.update.sha256)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_sessionfinish(session: pytest.Session, exitstatus: int | pytest.ExitCode) -> None:
    config = session.config
    if "ruota_docs.run.process.session" in sys.modules:  # a page started ahead: end it if none of its blocks ran
        sys.modules["ruota_docs.run.process.session"].close_ahead()
    if "ruota_docs.run.render_ahead" in sys.modules:  # a rendering no collector took (the page was not collected)
        sys.modules["ruota_docs.run.render_ahead"].discard()
    if hasattr(config, "workerinput"):  # xdist worker: the controller writes the record
        return
    if _run(config).updates:
        _write_updates(session)
    entries = _run(config).entries
    accounting = _run(config).accounting
    unrun: set[str] = set()
    if accounting is not None and not config.getoption("collectonly", default=False):
        # a run that runs nothing (collect-only) accounts for nothing
        stopped = (bool(session.shouldfail or session.shouldstop) or exitstatus == pytest.ExitCode.INTERRUPTED
                   or bool(_state(config).fault))
        _run(config).unaccounted = accounting.problems(stopped)
        if _run(config).unaccounted:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        unrun = {f"{page}#{index}" for page, index in accounting.unrun_blocks()}  # BlockRef.key
        if _state(config).fault:  # the machine stopped the run: what it did not reach keeps its earlier results
            unrun = set()
    if not (entries or unrun) or config.getoption("no_record") or config.getoption("no_ledger"):
        return
    _write_record(session, entries, unrun)


def _write_record(session: pytest.Session, entries: list[tuple[dict[str, Any], int]], unrun: set[str]) -> None:
    """This run's results merged into this machine's record; the summary says what was written."""
    from ruota_docs.records import ledger  # noqa: PLC0415 — a record's run only
    from ruota_docs.records.schema import OUTCOMES, BlockRef, RecordError, Result  # noqa: PLC0415
    from ruota_docs.run import settings as run_settings  # noqa: PLC0415
    from ruota_docs.run.device import probe  # noqa: PLC0415

    run, settings = _run(session.config), _settings(session.config)
    if settings.fake_device:
        # a preview of other hardware: its results describe this machine, not the one named
        run.summary = (f"verification record NOT written: {run_settings.FAKE_DEVICE_VARIABLE} is set "
                       "(a preview, not a real machine)")
        return
    recorded: defaultdict[str, set[int]] = defaultdict(set)
    totals: dict[str, int] = {}
    results: dict[BlockRef, Result] = {}
    for entry, page_blocks in entries:
        block = BlockRef.from_entry(entry)
        results[block] = Result.from_entry(entry)
        recorded[block.page].add(block.index)
        totals[block.page] = page_blocks or 0
    # a page that could not be read has no known total (0): its earlier records are kept
    complete = {page for page, seen in recorded.items() if totals[page] and len(seen) >= totals[page]}
    path = settings.record_path(probe().machine_id)
    try:
        ledger.record(path, results, complete, probe(), forget=unrun)
    except RecordError as error:
        run.summary = f"verification record NOT written: {error}"
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
        return
    except OSError as error:  # the machine's fault (no space, a read-only folder): the results are kept aside
        kept = _kept_aside(path, results, complete, probe(), unrun)
        run.summary = (f"verification record NOT written: {error.filename or path}: {error.strerror}; the "
                       f"record was left as it was. "
                       + (f"This run's results are kept, merged with it, in {kept}: move that file to "
                          f"{path} once it can be written." if kept else "This run's results are lost."))
        session.exitstatus = pytest.ExitCode.INTERNAL_ERROR
        return
    counts = Counter(r.outcome for r in results.values())
    credited = sum(1 for r in results.values() if r.reused_from)
    as_root = sum(1 for r in results.values() if r.as_root)
    shown = os.path.relpath(path) if not os.path.relpath(path).startswith("..") else str(path)
    run.summary = (
        f"{len(results)} blocks recorded in {shown}: "
        + ", ".join(f"{counts[k]} {k}" for k in OUTCOMES if counts[k])
        + (f"; {credited} credited from an identical translation run once" if credited else "")
        + (f"; {as_root} ran as root" if as_root else "")
    )


def _kept_aside(path: Path, results: Mapping[BlockRef, Result], complete: set[str], machine: Machine,
                unrun: set[str]) -> Path | None:
    """The run's record written in the temporary directory instead (merged with the record at
    ``path`` as it is): the path, or None where that fails too."""
    import shutil  # noqa: PLC0415 — a fault's only
    import tempfile  # noqa: PLC0415

    from ruota_docs.records import ledger  # noqa: PLC0415
    from ruota_docs.records.schema import RecordError  # noqa: PLC0415

    try:
        aside = Path(tempfile.mkdtemp(prefix="ruota-docs-unsaved-")) / path.name
        if path.exists():
            shutil.copyfile(path, aside)
        ledger.record(aside, results, complete, machine, forget=unrun)
    except (OSError, RecordError):
        return None
    return aside


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int | pytest.ExitCode,
                            config: pytest.Config) -> None:
    if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED and not _run(config).sites:
        _no_site_collected(terminalreporter, config)
    updated = _run(config).updated
    if updated:
        terminalreporter.write_sep("-", "ruota-docs #> lines updated")
        for line in updated:
            terminalreporter.write_line(line)
    elif config.getoption("update_outputs", default=False):
        terminalreporter.write_sep("-", "ruota-docs #> lines updated")
        terminalreporter.write_line("none: every block's output matched its #> lines")
    unaccounted = _run(config).unaccounted
    if unaccounted:
        terminalreporter.write_sep("=", "ruota-docs: blocks not accounted for", red=True, bold=True)
        for line in unaccounted:
            terminalreporter.write_line(line, red=True)
        terminalreporter.write_line("their earlier results were removed from the record; with xdist, use "
                                    "--dist loadscope and a collection that is the same on every worker")
    fault = getattr(config.stash.get(RUN, None), "fault", None)
    if fault:
        terminalreporter.write_sep("=", "ruota-docs: the machine stopped the run", red=True, bold=True)
        terminalreporter.write_line(f"{fault}; free it and run again (no block was recorded as failed for it)",
                                    red=True)
    summary = _run(config).summary
    if summary:
        terminalreporter.write_sep("-", "ruota-docs verification record")
        terminalreporter.write_line(summary)


def _no_site_collected(terminalreporter: Any, config: pytest.Config) -> None:
    """A run that collected nothing and found no site: where the sites below it are, or that
    the one there is configured for Zensical alone."""
    below = _sites_below(config)
    if below:
        terminalreporter.write_sep("-", "ruota-docs: no site collected")
        terminalreporter.write_line(
            f"no mkdocs.yml at or above the folder this run names; below it: {', '.join(below[:5])}"
            + (f" and {len(below) - 5} more" if len(below) > 5 else "")
            + f". Run pytest on that site's folder (pytest {Path(below[0]).parent}) or name it with "
              f"--mkdocs-config {below[0]}")
    elif zensical := _zensical_config(config):
        terminalreporter.write_sep("-", "ruota-docs: no site collected")
        terminalreporter.write_line(
            f"{zensical}: the engine reads a site's settings from mkdocs.yml, not from zensical.toml. Zensical "
            "reads mkdocs.yml too (where no zensical.toml is beside it): write the same settings there, "
            "project.markdown_extensions as markdown_extensions, and run pytest again")
