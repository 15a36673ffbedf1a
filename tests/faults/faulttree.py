"""Throwaway documentation trees for the fault-injection tests, and the real commands run on them.

A `DocTree` is a small copy of the project's layout in a temporary directory: a
``mkdocs.yml`` adapted from the repository's (docs_dir, pymdownx.snippets base
path, the ruota_docs plugin, i18n es/en/fr, Material with the repository's
``overrides/``), ``docs/<lang>/`` pages
and ``snippets/``. Its methods run the commands users run — ``python -m pytest``,
``python -m mkdocs build --strict``, ``ruota-docs status`` and ``ruota-docs i18n
check`` — in subprocesses, exactly as on the command line.
"""

from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


class Spawned(subprocess.Popen):
    """A spawned run (`DocTree.spawn_pytest`), its output in the file ``log``."""

    log: Path

    def output(self) -> str:
        """What it has printed so far."""
        return self.log.read_text(errors="replace")
LANGUAGES = ("es", "en", "fr")
PYTHON = sys.executable
RUOTA_DOCS = str(Path(sys.executable).with_name("ruota-docs"))

MKDOCS_YML = """\
site_name: fault tree
site_url: https://faults.example.org/
strict: true
docs_dir: docs
site_dir: site
validation:
  omitted_files: warn
  absolute_links: warn
  unrecognized_links: warn
  anchors: warn
theme:
  name: material
  custom_dir: {overrides}
  language: es
  font: false
plugins:
  - search
  - ruota_docs:
      record_dir: verification
  - i18n:
      docs_structure: folder
      fallback_to_default: true
      reconfigure_material: true
      reconfigure_search: true
      languages:
        - locale: es
          default: true
          name: Español
          build: true
        - locale: en
          name: English
          build: true
        - locale: fr
          name: Français
          build: true
markdown_extensions:
  - admonition
  - attr_list
  - md_in_html
  - toc:
      permalink: true
  - pymdownx.details
  - pymdownx.highlight
  - pymdownx.snippets:
      base_path: [snippets]
      check_paths: true
  - pymdownx.superfences
  - pymdownx.tabbed:
      alternate_style: true
"""


#: A pytest plugin (``-p faultplug``) that slows or synchronises the ledger write,
#: so a test can kill the run in the middle of it or make two runs write together.
FAULT_PLUGIN = '''\
"""Fault hooks around ruota_docs.records.ledger, driven by environment variables."""

import contextlib
import os
import time
from pathlib import Path

from ruota_docs.records import ledger, stored

_record = ledger.record
SIGNALS = Path(os.environ["FAULT_SIGNALS"])


def _mark(name):
    (SIGNALS / f"{name}-{os.getpid()}").write_text(repr(time.time()))


_replacing, _lines, _handles = ledger._replacing, stored.lines, []


@contextlib.contextmanager
def replacing(*args, **kwargs):
    """The writer's temporary file, kept at hand so that `slow_lines` can flush half of it."""
    with _replacing(*args, **kwargs) as handle:
        _handles.append(handle)
        yield handle


def slow_lines(written):
    """Write half of the new ledger, then stall: the test SIGKILLs us here."""
    every = list(_lines(written))
    yield from every[: len(every) // 2]
    if _handles:
        _handles[-1].flush()
    _mark("mid-write")
    if os.environ.get("FAULT_STALL_WRITE"):
        time.sleep(120)
    time.sleep(float(os.environ.get("FAULT_WRITE_DELAY", "0")))
    yield from every[len(every) // 2:]
    _mark("written")


def barrier_record(*args, **kwargs):
    """Wait until every concurrent run has reached the write, then write."""
    _mark("ready")
    deadline = time.time() + 60
    while len(list(SIGNALS.glob("ready-*"))) < int(os.environ["FAULT_BARRIER"]) and time.time() < deadline:
        time.sleep(0.01)
    return _record(*args, **kwargs)


ledger._replacing, stored.lines = replacing, slow_lines
if os.environ.get("FAULT_BARRIER"):
    ledger.record = barrier_record
'''


@dataclass
class Run:
    """A finished command."""

    args: list[str]
    returncode: int
    stdout: str
    stderr: str
    seconds: float

    @property
    def output(self) -> str:
        return self.stdout + self.stderr

    def __str__(self) -> str:  # shown by failing assertions
        return f"$ {' '.join(self.args)}\nexit {self.returncode} after {self.seconds:.1f} s\n{self.output[-6000:]}"


class DocTree:
    """A throwaway project: mkdocs.yml, docs/<lang>/, snippets/, verification/."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.docs = self.root / "docs"
        self.snippets = self.root / "snippets"
        self.verification = self.root / "verification"
        self.signals = self.root.parent / f"{self.root.name}-signals"
        for folder in (self.snippets, self.signals, *(self.docs / lang for lang in LANGUAGES)):
            folder.mkdir(parents=True, exist_ok=True)
        (self.root / "mkdocs.yml").write_text(MKDOCS_YML.format(overrides=REPO / "overrides"), encoding="utf-8")
        (self.root / "faultplug.py").write_text(FAULT_PLUGIN, encoding="utf-8")
        for lang in LANGUAGES:
            self.page(f"{lang}/index.md", "# Inicio { #home }\n\nTexto.\n", langs=(lang,))

    # -- writing the tree ---------------------------------------------------------
    def page(self, rel: str, text: str, langs=LANGUAGES) -> Path:
        """Write ``docs/<lang>/<rel>`` for each language (``rel`` may start with a language)."""
        if rel.split("/", 1)[0] in LANGUAGES:
            langs, rel = (rel.split("/", 1)[0],), rel.split("/", 1)[1]
        text = textwrap.dedent(text).lstrip("\n")
        path = None
        for lang in langs:
            path = self.docs / lang / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        return path

    def snippet(self, rel: str, text: str) -> Path:
        path = self.snippets / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return path

    def ledger_path(self, machine: str | None = None) -> Path:
        """A record's file: this machine's as the engine names it, another's as the test wrote it."""
        from ruota_docs.records import provenance

        return self.verification / (provenance.record_name(this_machine()) if machine in (None, this_machine())
                                 else f"{machine}.json")

    def ledger(self, machine: str | None = None) -> dict:
        """The record as the engine and the site read it: one entry per page and language."""
        from _support import read_ledger

        return read_ledger(self.ledger_path(machine))

    def entries(self, page: str, machine: str | None = None) -> list[dict]:
        """The recorded entries of one page, in block order."""
        blocks = self.ledger(machine)["blocks"].values()
        return sorted((e for e in blocks if e["page"] == page), key=lambda e: e["index"])

    # -- running the real commands ------------------------------------------------------
    def env(self, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("RUOTA_DOCS_", "PYTEST_", "FAULT_"))}
        # the project's folder first (for -p faultplug), then whatever the caller had
        path = os.pathsep.join(p for p in (str(self.root), os.environ.get("PYTHONPATH", "")) if p)
        env.update(NO_MKDOCS_2_WARNING="1", FAULT_SIGNALS=str(self.signals), PYTHONPATH=path, PYTHONDONTWRITEBYTECODE="1")
        env.update(extra)
        return {k: v for k, v in env.items() if v is not None}

    def command(self, args: list[str], timeout: float = 120, env: dict | None = None, **extra_env) -> Run:
        started = time.perf_counter()
        proc = subprocess.run(args, cwd=self.root, env=env or self.env(**extra_env), capture_output=True, text=True,
                              timeout=timeout, stdin=subprocess.DEVNULL)
        return Run(args, proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - started)

    def pytest_args(self, *args: str, report: str = "-rA") -> list[str]:
        """``python -m pytest`` with a summary line per block (``report``; pytest's ``-rA``
        summary costs quadratic time, so a page of thousands of blocks asks for less)."""
        return [PYTHON, "-m", "pytest", "-p", "no:cacheprovider", "-q", report, *args]

    def pytest(self, *args: str, timeout: float = 120, **env) -> Run:
        return self.command(self.pytest_args(*args), timeout=timeout, **env)

    def spawn_pytest(self, *args: str, **env) -> Spawned:
        """A run left going while the test acts on it. Its output goes to a file, not a pipe: a pipe
        nobody reads stops the run once it is full, and what it printed is there when a check fails."""
        handle, log = tempfile.mkstemp(prefix="spawned-", suffix=".log")
        with os.fdopen(handle, "w") as output:
            proc = Spawned(self.pytest_args(*args), cwd=self.root, env=self.env(**env), stdin=subprocess.DEVNULL,
                           stdout=output, stderr=subprocess.STDOUT, text=True)
        proc.log = Path(log)
        return proc

    def build(self, timeout: float = 120, **env) -> Run:
        return self.command([PYTHON, "-m", "mkdocs", "build", "--strict"], timeout=timeout, **env)

    def status(self, *args: str, **env) -> Run:
        return self.command([RUOTA_DOCS, "status", *args], **env)

    def i18n_check(self, **env) -> Run:
        return self.command([RUOTA_DOCS, "i18n", "check"], **env)

    def wait_for_signal(self, name: str, timeout: float = 60) -> Path:
        deadline = time.time() + timeout
        while time.time() < deadline:
            found = sorted(self.signals.glob(f"{name}-*"))
            if found:
                return found[0]
            time.sleep(0.02)
        raise AssertionError(f"no {name!r} signal within {timeout} s")

    def html(self, page: str, lang: str = "es") -> str:
        """The built HTML of ``page`` (``guides/x.md``): es at the root, others under /<lang>/."""
        stem = page[:-3]
        rel = "index.html" if stem == "index" else f"{stem}/index.html"
        site = self.root / "site"
        return ((site / rel) if lang == "es" else (site / lang / rel)).read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def this_machine() -> str:
    """The machine id the runs in a tree record under (what ``ruota_docs.run.device.probe`` says here)."""
    code = "from ruota_docs.run.device import probe; print(probe().machine_id)"
    env = {k: v for k, v in os.environ.items() if not k.startswith("RUOTA_DOCS_")}
    return subprocess.run([PYTHON, "-c", code], env=env, capture_output=True, text=True, check=True).stdout.strip()


def fence(code: str, lang: str = "python", directives: str = "") -> str:
    """A fenced block with optional directive lines above it."""
    head = "".join(f"{d.strip()}\n" for d in directives.splitlines() if d.strip())
    return f"{head}```{lang}\n{textwrap.dedent(code).strip()}\n```\n"


def compose(title: str, *parts: str) -> tuple[str, list[int]]:
    """A page: a title, then each part (a `fence` or prose) after a blank line. Returns the
    text and the line of each opening fence, counted here independently of the engine."""
    text, lines = f"# {title}\n", []
    for part in parts:
        text += "\n"
        for n, line in enumerate(part.splitlines(), text.count("\n") + 1):
            if line.lstrip().startswith("```") and line.strip() != "```":
                lines.append(n)
        text += part if part.endswith("\n") else part + "\n"
    return text, lines


def alive(pid: int) -> bool:
    """Whether a process exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def running(*argv: str) -> list[int]:
    """Live processes of the machine whose command line is exactly ``argv`` (found by what they
    run, not by a process id a block printed: in the sandbox, that is its own namespace's)."""
    wanted = "\0".join(argv).encode() + b"\0"
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes()
        except OSError:
            continue
        if cmdline == wanted and alive(int(name)):
            found.append(int(name))
    return found


def survivors(daemons: list[tuple[str, ...]], wait: float = 0.0) -> list[int]:
    """The processes of ``daemons`` (command lines) still running after up to ``wait`` seconds;
    killed, so that a failing test leaves nothing behind."""
    deadline = time.time() + wait
    while any(running(*argv) for argv in daemons) and time.time() < deadline:
        time.sleep(0.05)
    left = [pid for argv in daemons for pid in running(*argv)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    return left


def bwrap_runs() -> bool:
    """Whether pages run in the sandbox here (bubblewrap installed and able to run)."""
    from ruota_docs.run import sandbox, unprivileged
    from ruota_docs.run.settings import from_environment

    runner = unprivileged.prepare(from_environment(REPO))
    user = (runner.uid, runner.gid, runner.groups) if runner else None
    return sandbox.unusable(user) is None
