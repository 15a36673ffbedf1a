"""The run's settings: one object from the pytest plugin to the evaluators and the page's process.

The pytest plugin builds a :class:`Settings` once per process (controller and each xdist
worker alike, from the same command line) out of its options, the site configuration
(:mod:`ruota_docs.blocks.site_config`) and the few environment variables that are a
user-facing interface. The evaluators receive it through the ``ruota_run`` fixture
(:class:`ruota_docs.run.run_state.RunState`); the page's process receives the part it
needs as one JSON argument (:meth:`Settings.for_worker`).

Environment variables read here, and only here, as inputs (each documented on its field):
``RUOTA_DOCS_NETWORK``, ``RUOTA_DOCS_RUN_AS_ROOT``, ``RUOTA_DOCS_RUN_AS``,
``RUOTA_DOCS_MEMORY_LIMIT``, ``RUOTA_DOCS_ISOLATION``, ``RUOTA_DOCS_PROCESS_LIMIT``,
``RUOTA_DOCS_FILE_SIZE_LIMIT``, ``RUOTA_DOCS_ALLOW_ENV`` and ``RUOTA_DOCS_FAKE_DEVICE`` (the device probe reads that one
too, since it describes the machine for any caller). The variables a run sets for the
processes it starts are not options: ``RUOTA_DOCS_SESSION`` marks every process of a page
so that none outlives it, ``RUOTA_DOCS_PAGE`` tells a block's code which page it is on, and
``RUOTA_DOCS_PROBED`` hands the device probe to child processes.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ruota_docs.blocks import site_config
from ruota_docs.records import provenance

#: Seconds a block may run unless its directive or ``--block-timeout`` says otherwise: a
#: documentation block takes seconds; one that trains says so with ``<!-- run: timeout=S -->``.
DEFAULT_TIMEOUT = 120.0
#: The user pages run as when the suite runs as root.
DEFAULT_USER = "ruota-docs-runner"

NETWORK_VARIABLE = "RUOTA_DOCS_NETWORK"
RUN_AS_ROOT_VARIABLE = "RUOTA_DOCS_RUN_AS_ROOT"
RUN_AS_VARIABLE = "RUOTA_DOCS_RUN_AS"
MEMORY_LIMIT_VARIABLE = "RUOTA_DOCS_MEMORY_LIMIT"
FAKE_DEVICE_VARIABLE = "RUOTA_DOCS_FAKE_DEVICE"
ISOLATION_VARIABLE = "RUOTA_DOCS_ISOLATION"
PROCESS_LIMIT_VARIABLE = "RUOTA_DOCS_PROCESS_LIMIT"
FILE_SIZE_LIMIT_VARIABLE = "RUOTA_DOCS_FILE_SIZE_LIMIT"
ALLOW_ENV_VARIABLE = "RUOTA_DOCS_ALLOW_ENV"


def _flag(value: str | None) -> bool:
    return (value or "").strip().lower() not in ("", "0", "false", "no")


@dataclass(frozen=True)
class Settings:
    """Every option of a run, with the defaults of a plain ``pytest docs/``."""

    #: The project directory (where mkdocs.yml is): the repository the guard watches, and what
    #: the unprivileged user must be able to reach.
    root: Path = field(default_factory=Path.cwd)
    #: The docs directory (``docs_dir`` of mkdocs.yml), absolute.
    docs_dir: Path | None = None
    #: The language the others are translated from: its pages run first, so that identical
    #: translations are credited (``source_language``, else i18n's default language).
    source_language: str = site_config.DEFAULT_SOURCE_LANGUAGE
    #: The folder of the committed records (``record_dir`` of the ``ruota_docs`` plugin), absolute.
    record_dir: Path | None = None
    #: Where this run writes its record: a ``.json`` file, or a folder in which the file is
    #: named after the machine (``--record``; default: ``record_dir``).
    record: Path | None = None
    #: Whether a record is written at all (``--no-record`` turns it off).
    write_record: bool = True
    #: Seconds a block may run (``--block-timeout``); a block's ``run: timeout=`` wins.
    timeout: float = DEFAULT_TIMEOUT
    #: Whether blocks marked ``requires: network`` run (``--network``, or ``RUOTA_DOCS_NETWORK=1``).
    network: bool = False
    #: Whether a translation whose blocks are identical to a page already run is credited
    #: with that run instead of executing again (``--no-reuse`` turns it off).
    reuse_translations: bool = True
    #: Whether pages that passed on this machine with the same code are not run again, their
    #: records kept as they were (``--reuse-record``; for authors, not CI).
    reuse_record: bool = False
    #: Whether ``#>`` lines that differ from this machine's output are rewritten (``--update-outputs``).
    update_outputs: bool = False
    #: When the suite runs as root, whether pages keep root (``--run-as-root``, or
    #: ``RUOTA_DOCS_RUN_AS_ROOT=1``) instead of running as :attr:`run_as_user`.
    run_as_root: bool = False
    #: The unprivileged user pages run as when the suite runs as root (``RUOTA_DOCS_RUN_AS``).
    run_as_user: str = DEFAULT_USER
    #: The address-space cap of each page's process, as written (``RUOTA_DOCS_MEMORY_LIMIT``:
    #: bytes or a number with a unit, ``1GiB``); checked when a page's process starts, so that
    #: a bad value fails the page's first block, naming it.
    memory_limit: str | None = None
    #: How pages are isolated (``--isolation``, ``RUOTA_DOCS_ISOLATION``): ``auto`` runs them in
    #: bubblewrap's sandbox where it can run and falls back to the unprivileged user where it
    #: cannot; ``sandbox`` refuses to run without it; ``user`` is the fallback (:mod:`ruota_docs.run.sandbox`).
    isolation: str = "auto"
    #: Whether every block runs in a fresh process of its own (the ``ruota_docs`` plugin's
    #: ``isolation: block``; one block asks with ``<!-- run: isolate -->``).
    block_isolation: bool = False
    #: Whether each of several blocks one directive brings in runs in a fresh process (``isolation: variants``).
    variant_isolation: bool = False
    #: The site's set-up file (the plugin's ``setup``), run by each page's process before its first block.
    setup: Path | None = None
    #: The most processes and threads a page may have at once (``RUOTA_DOCS_PROCESS_LIMIT``; 0: no limit).
    process_limit: int = 4096
    #: The largest file a page may write (``RUOTA_DOCS_FILE_SIZE_LIMIT``: bytes or a number with a
    #: unit; ``0``: no limit), and the data memory of each of its processes, 80 % of the machine's
    #: memory unless ``RUOTA_DOCS_MEMORY_LIMIT`` caps the address space instead.
    file_size_limit: str = "16GiB"
    #: Variables named like a secret (``GH_TOKEN``, ``AWS_SECRET_ACCESS_KEY``) that a page may get
    #: when it names them (``--allow-env NAME``, ``RUOTA_DOCS_ALLOW_ENV=A,B``): the user's to
    #: allow, never the page's (`ruota_docs.run.sandbox.environment`).
    allow_env: tuple[str, ...] = ()
    #: A device to pretend to be, ``"rocm gfx1102 AMD Radeon RX 7600 8GiB"``
    #: (``RUOTA_DOCS_FAKE_DEVICE``): previews how pages resolve elsewhere; no record is written.
    fake_device: str | None = None

    @property
    def pages_dir(self) -> Path:
        return self.docs_dir or self.root / "docs"

    def record_path(self, machine_id: str) -> Path:
        """The record file this run writes, for the machine ``machine_id``: ``--record``, else
        ``<machine-class>-<fingerprint>.json`` in the records directory (as ``contribute`` names it)."""
        target = self.record or self.record_dir or self.root / site_config.DEFAULT_RECORD_DIR
        if target.suffix == ".json":
            return target
        # a record of this machine named as before (``<machine-class>.json``) goes on being its record:
        # a second file of the same machine would be refused beside it
        earlier = target / f"{machine_id}.json"
        return earlier if _of_this_machine(earlier) else target / provenance.record_name(machine_id)

    def limits(self):
        """The page's resource limits (:class:`ruota_docs.run.sandbox.Limits`); raises
        `ruota_docs.run.process.worker.MemoryLimitError` for a size that is not one."""
        from ruota_docs.run.process.worker import memory_limit  # noqa: PLC0415 — the parser of sizes
        from ruota_docs.run.sandbox import Limits, default_memory  # noqa: PLC0415

        address_space = memory_limit(self.memory_limit)
        return Limits(memory=None if address_space else default_memory(), processes=self.process_limit or None,
                      file_size=memory_limit(self.file_size_limit, FILE_SIZE_LIMIT_VARIABLE) if self.file_size_limit
                      not in ("0", "") else None, address_space=address_space)

    def for_worker(self, isolation: str = "", parent: int = 0) -> str:
        """What the page's process needs, as one JSON argument (read by its ``main``): its limits,
        its isolation, and the process that must outlive it."""
        limits = self.limits().for_worker()
        if isolation == "none":  # the invoking user's own count of processes: not the page's to cap
            limits["nproc"] = None
        return json.dumps({"limits": limits, "isolation": isolation, "parent": parent,
                           "setup": str(self.setup) if self.setup else None})


def _of_this_machine(path: Path) -> bool:
    """Whether the record at ``path`` is this machine's (its fingerprint, or none: written before fingerprints)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.get("fingerprint") in (None, provenance.fingerprint())


def _count(value: str | None, name: str) -> int | None:
    if value is None or not value.strip():
        return None
    try:
        found = int(value)
    except ValueError:
        found = -1
    if found < 0:
        raise ValueError(f"{name}={value!r} is not a number of processes (0: no limit)")
    return found


def _names(value: str | None) -> tuple[str, ...]:
    return tuple(sorted({n.strip() for n in (value or "").replace(" ", ",").split(",") if n.strip()}))


def from_environment(root: Path | None = None, environ: Mapping[str, str] | None = None, **options) -> Settings:
    """Settings for ``root`` from the site configuration and the environment, ``options`` winning:
    what a run without command-line options gets (and the command line's ``runner``)."""
    environ = os.environ if environ is None else environ
    root = Path(root or Path.cwd()).resolve()
    site = site_config.read(root)
    values = {
        "root": site.root,
        "docs_dir": site.docs_dir,
        "source_language": site.source_language,
        "record_dir": site.record_dir,
        "block_isolation": site.block_isolation,
        "variant_isolation": site.variant_isolation,
        "setup": site.setup,
        "network": _flag(environ.get(NETWORK_VARIABLE)),
        "run_as_root": _flag(environ.get(RUN_AS_ROOT_VARIABLE)),
        "run_as_user": environ.get(RUN_AS_VARIABLE) or DEFAULT_USER,
        "memory_limit": environ.get(MEMORY_LIMIT_VARIABLE) or None,
        "fake_device": environ.get(FAKE_DEVICE_VARIABLE) or None,
        "isolation": (environ.get(ISOLATION_VARIABLE) or "auto").strip().lower(),
        "process_limit": _count(environ.get(PROCESS_LIMIT_VARIABLE), PROCESS_LIMIT_VARIABLE),
        "file_size_limit": (environ.get(FILE_SIZE_LIMIT_VARIABLE) or "").strip() or None,
        "allow_env": _names(environ.get(ALLOW_ENV_VARIABLE)),
    }
    values = {k: v for k, v in values.items() if v is not None or k not in ("process_limit", "file_size_limit")}
    values.update({k: v for k, v in options.items() if v is not None})
    return Settings(**values)


def from_pytest(config, environ: Mapping[str, str] | None = None, root: Path | None = None) -> Settings:
    """The settings of a pytest run: its ``ruota-docs`` options over :func:`from_environment`
    (``root``: the site the run is about; pytest's rootdir by default)."""
    option = config.getoption
    record = option("record") or option("ledger")  # --ledger: its name before
    if record:  # relative to where pytest was started, as any path on its command line
        record = Path(config.invocation_params.dir, record).resolve()
    no_record = option("no_record") or option("no_ledger")
    environ = os.environ if environ is None else environ
    return from_environment(
        Path(root or config.rootpath), environ,
        record=record,
        write_record=not no_record,
        timeout=option("block_timeout") or None,
        network=True if option("network") else None,
        reuse_translations=False if option("no_reuse") or option("update_outputs") else None,
        reuse_record=bool((option("reuse_record") or option("reuse_ledger")) and not no_record),
        update_outputs=bool(option("update_outputs")),
        run_as_root=True if option("run_as_root") else None,
        isolation=option("isolation") or None,
        allow_env=_names(",".join([environ.get(ALLOW_ENV_VARIABLE) or "", *(option("allow_env") or ())])) or None,
    )
