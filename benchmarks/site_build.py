"""Site build: the plugin's cost on a full build, and how fast the preview shows an edit.

    python benchmarks/site_build.py [--repeat 5] [--edits 3] [--no-builds] [--keep]

Works on a copy of the project in a temporary folder (the repository is never edited,
whatever happens to the run), and measures side by side, in one run:

- ``mkdocs build`` of the whole site (three languages) with the ruota_docs plugin and with
  it disabled (``enabled: false``), best of ``--repeat``, runs interleaved; wall and CPU
  seconds (goal: the plugin adds < 15 %);
- save → rebuilt page, under ``mkdocs serve`` (the plugin's partial rebuild), ``mkdocs serve``
  with ``partial_rebuild: false`` (MkDocs' own full rebuild) and ``python -m
  ruota_docs.serve.server`` (``make serve``), each on a free port: from writing the file to
  the server's "Reloading browsers" (the moment the browser is told to reload; the page is
  then fetched to check it shows the edit), for three edits of ``--edits`` saves each: a
  word changed in a Spanish guide, a paragraph added to it (the lines below it move: the
  pages listing its blocks change too), and a line added to a snippet that guide includes
  in every language (goals: ≤ 1.5 s for an edit of one page, ≤ 2 s for the snippet).
  ``--no-builds`` measures the servers only.

A server that exits stops the run at once, with its log. ``--keep`` keeps the copy.
Nothing here needs more than the site's own dependencies (``pip install -e .``).
"""

from __future__ import annotations

import argparse
import queue
import re
import shutil
import socket
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from _common import ENV, PYTHON, ROOT, report, run_timed

#: What the site is built from: copied, edited there.
PROJECT = ("mkdocs.yml", "docs", "snippets", "overrides", "verification", "src")
PAGE = "docs/es/guides/keras-rx7600.md"
PAGE_URL = "guides/keras-rx7600/"
SNIPPET = "snippets/keras_rx7600/030_check_install.py"  #: included by that guide in every language
WORD_ANCHOR = "Su autor entrenó"  #: a sentence of the guide's first paragraph
PARAGRAPH_ANCHOR = "## Requisitos previos"


def copy_project(into: Path) -> Path:
    into.mkdir(parents=True)
    for name in PROJECT:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, into / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(source, into / name)
    return into


def config_with(project: Path, option: str, name: str) -> Path:
    """A copy of mkdocs.yml beside it, named ``name``, with ``option`` added to the ruota_docs plugin's."""
    text = (project / "mkdocs.yml").read_text(encoding="utf-8")
    marker = "  - ruota_docs:\n      record_dir: verification\n"
    if marker not in text:
        raise SystemExit("site_build.py: cannot find the ruota_docs plugin entry in mkdocs.yml to set its options")
    path = project / name
    path.write_text(text.replace(marker, marker + f"      {option}\n"), encoding="utf-8")
    return path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """A preview server in the project copy, its log read line by line as it comes."""

    def __init__(self, name: str, command: list[str], project: Path) -> None:
        self.name, self.port = name, free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.log: list[str] = []
        self.lines: queue.Queue = queue.Queue()
        self.proc = subprocess.Popen(command + ["-a", f"127.0.0.1:{self.port}"], cwd=project,
                                     env=dict(ENV, PYTHONUNBUFFERED="1"), stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put((time.perf_counter(), line))
        self.lines.put((time.perf_counter(), None))  # the server's output ended: it exited

    def wait_for(self, pattern: str, timeout: float = 600) -> float:
        """When a line matching ``pattern`` came; fails at once, with the log, if the server exits."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                when, line = self.lines.get(timeout=0.5)
            except queue.Empty:
                continue
            if line is None:
                self.proc.wait(10)
                raise SystemExit(f"{self.name} exited ({self.proc.returncode}) before {pattern!r}:\n"
                                 + "".join(self.log[-60:]))
            self.log.append(line)
            if re.search(pattern, line):
                return when
        self.stop()
        raise SystemExit(f"{self.name} did not print {pattern!r} within {timeout:g} s:\n" + "".join(self.log[-60:]))

    def settle(self, quiet: float = 1.0) -> None:
        """Wait until the server has printed nothing for ``quiet`` seconds."""
        while True:
            try:
                _, line = self.lines.get(timeout=quiet)
            except queue.Empty:
                return
            if line is None:
                raise SystemExit(f"{self.name} exited ({self.proc.wait(10)}):\n" + "".join(self.log[-60:]))
            self.log.append(line)

    def page(self, path: str) -> str:
        with urllib.request.urlopen(self.url + path, timeout=30) as response:
            return response.read().decode("utf-8")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


class Edits:
    """The three edits, each save with a marker of its own that the rebuilt page must show."""

    def __init__(self, project: Path) -> None:
        self.project, self.count = project, 0

    def _change(self, rel: str, old: str, new: str) -> None:
        path = self.project / rel
        text = path.read_text(encoding="utf-8")
        if old not in text:
            raise SystemExit(f"site_build.py: {rel} no longer holds {old!r}: choose another anchor for the edit")
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    def word(self) -> str:
        self.count += 1
        marker = f"medida{self.count}"
        previous = re.search(r"medida\d+ ", (self.project / PAGE).read_text(encoding="utf-8"))
        old = previous.group() + WORD_ANCHOR if previous else WORD_ANCHOR
        self._change(PAGE, old, f"{marker} {WORD_ANCHOR}")
        return marker

    def paragraph(self) -> str:
        self.count += 1
        marker = f"parrafo{self.count}"
        self._change(PAGE, PARAGRAPH_ANCHOR, f"Un párrafo más: {marker}.\n\n{PARAGRAPH_ANCHOR}")
        return marker

    def snippet(self) -> str:
        self.count += 1
        marker = f"snippet{self.count}"
        path = self.project / SNIPPET
        path.write_text(f"# {marker}\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
        return marker


def save_to_reload(server: Server, edits: Edits, kind: str, saves: int) -> list[float]:
    """Seconds from each save to the server's "Reloading browsers"; the page must show the edit."""
    times = []
    for _ in range(saves):
        server.settle()
        started = time.perf_counter()
        marker = getattr(edits, kind)()
        times.append(server.wait_for(r"Reloading browsers") - started)
        if marker not in server.page(PAGE_URL):
            raise SystemExit(f"{server.name}: {PAGE_URL} does not show the edit {marker!r} after the rebuild:\n"
                             + "".join(server.log[-40:]))
    return times


def serve_times(name: str, command: list[str], project: Path, saves: int) -> dict[str, list[float]]:
    server = Server(name, command, project)
    try:
        server.wait_for(r"Serving on")
        edits = Edits(project)
        return {kind: save_to_reload(server, edits, kind, saves) for kind in ("word", "paragraph", "snippet")}
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="full builds of each kind; the best counts (default 5)")
    parser.add_argument("--edits", type=int, default=3, help="saves of each edit per server (default 3)")
    parser.add_argument("--no-builds", action="store_true", help="measure the preview servers only")
    parser.add_argument("--keep", action="store_true", help="keep the project copy and print where it is")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-site-"))
    try:
        builds = copy_project(tmp / "builds")
        no_plugin = config_with(builds, "enabled: false", "mkdocs-noplugin.yml")
        runs: dict[str, list[tuple[float, float]]] = {"on": [], "off": []}
        for n in range(0 if args.no_builds else args.repeat):
            runs["on"].append(run_timed([PYTHON, "-m", "mkdocs", "build", "--strict", "-q",
                                         "-d", str(tmp / f"on{n}")], cwd=builds))
            runs["off"].append(run_timed([PYTHON, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(no_plugin),
                                          "-d", str(tmp / f"off{n}")], cwd=builds))
        best = {(k, kind): min(r[i] for r in v) for k, v in runs.items() for i, kind in enumerate(("wall", "cpu")) if v}
        plain = serve_times("mkdocs serve", [PYTHON, "-m", "mkdocs", "serve"], copy_project(tmp / "plain"), args.edits)
        ours = serve_times("ruota_docs.serve.server", [PYTHON, "-m", "ruota_docs.serve.server"],
                           copy_project(tmp / "ours"), args.edits)
        full_copy = copy_project(tmp / "full")
        config_with(full_copy, "partial_rebuild: false", "mkdocs-full.yml")
        full = serve_times("mkdocs serve, partial_rebuild: false",
                           [PYTHON, "-m", "mkdocs", "serve", "-f", "mkdocs-full.yml"], full_copy, args.edits)
    finally:
        if args.keep:
            print(f"project copies kept in {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    edits = {"word": "a word changed in a Spanish guide", "paragraph": "a paragraph added to it",
             "snippet": "a snippet it includes (every language)"}
    rows, ratios = [], []
    kinds, n = ("wall", "cpu"), args.repeat
    if not args.no_builds:
        rows = [(f"mkdocs build, plugin on (best of {n}, {kind})", best["on", kind]) for kind in kinds]
        rows += [(f"mkdocs build, plugin off (best of {n}, {kind})", best["off", kind]) for kind in kinds]
        ratios = [(f"plugin on / plugin off ({kind})", best["on", kind] / best["off", kind], "< 1.15")
                  for kind in kinds]
    median, saves = statistics.median, args.edits
    for kind, words in edits.items():
        goal = "goal ≤ 2" if kind == "snippet" else "goal ≤ 1.5"
        rows += [(f"save → reload, {words}: mkdocs serve (median of {saves}; max {max(plain[kind]):.2f}; {goal})",
                  median(plain[kind])),
                 (f"save → reload, {words}: make serve (median of {saves}; max {max(ours[kind]):.2f})",
                  median(ours[kind])),
                 ((f"save → reload, {words}: mkdocs serve, partial_rebuild: false (median of {saves}; "
                   f"max {max(full[kind]):.2f})"), median(full[kind]))]
        ratios.append((f"{words}: mkdocs serve / its full rebuild", median(plain[kind]) / median(full[kind]),
                       "informative"))
        ratios.append((f"{words}: mkdocs serve / make serve", median(plain[kind]) / median(ours[kind]), "informative"))
    report("Site build and preview", rows, ratios)


if __name__ == "__main__":
    main()
