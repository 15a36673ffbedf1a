"""Site build: the plugin's cost, and how fast `mkdocs serve` rebuilds after an edit.

    python benchmarks/site_build.py [--repeat 3]

Builds the real docs with the ruota_docs plugin and with it disabled (same docs,
same everything else), best of N each, and prints the ratio (goal: overhead < 15 %).
Then starts `mkdocs serve`, edits one page and times the rebuild.
"""

from __future__ import annotations

import argparse
import queue
import re
import threading
import subprocess
import tempfile
import time
from pathlib import Path

from _common import ENV, PYTHON, ROOT, best_of, report


def config_without_plugin(tmp: Path) -> Path:
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    text = text.replace("  - ruota_docs:\n      ledger_dir: verification", "  - ruota_docs:\n      ledger_dir: verification\n      enabled: false")
    assert "enabled: false" in text, "could not disable the plugin in mkdocs.yml"
    path = ROOT / f".mkdocs-noplugin-{tmp.name}.yml"
    path.write_text(text, encoding="utf-8")
    return path


def serve_rebuild(page: Path) -> float:
    """Seconds from touching a page to `mkdocs serve` finishing the rebuild."""
    proc = subprocess.Popen([PYTHON, "-m", "mkdocs", "serve", "--dev-addr", "127.0.0.1:8765"],
                            cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        _wait_for(proc, r"Serving on")
        time.sleep(2)  # let the file watcher settle
        original = page.read_text(encoding="utf-8")
        started = time.perf_counter()
        page.write_text(original + "\n", encoding="utf-8")
        try:
            _wait_for(proc, r"Documentation built in")
            return time.perf_counter() - started
        finally:
            page.write_text(original, encoding="utf-8")
    finally:
        proc.terminate()
        proc.wait(10)


def _wait_for(proc, pattern: str, timeout: float = 300) -> None:
    """Read the server's log until ``pattern`` shows up; give up after ``timeout`` seconds."""
    lines = getattr(proc, "lines", None)
    if lines is None:  # one reader thread per server: select() cannot see Python's line buffer
        lines = proc.lines = queue.Queue()
        threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout], daemon=True).start()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=1.0)
        except queue.Empty:
            continue
        if re.search(pattern, line):
            return
    proc.kill()
    raise SystemExit(f"mkdocs serve did not print {pattern!r} within {timeout:g} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        no_plugin = config_without_plugin(Path(tmp))
        try:
            with_plugin, _ = best_of(args.repeat, [PYTHON, "-m", "mkdocs", "build", "--strict", "-q", "-d", f"{tmp}/a"])
            without, _ = best_of(args.repeat, [PYTHON, "-m", "mkdocs", "build", "-q", "-f", str(no_plugin), "-d", f"{tmp}/b"])
        finally:
            no_plugin.unlink()
    rebuild = serve_rebuild(ROOT / "docs" / "es" / "guides" / "index.md")
    report("Site build", [("mkdocs build, plugin on (best of %d)" % args.repeat, with_plugin),
                          ("mkdocs build, plugin off (best of %d)" % args.repeat, without),
                          ("mkdocs serve: rebuild after editing one page", rebuild)],
           [("plugin on / plugin off", with_plugin / without, "< 1.15"),
            ("serve rebuild / full build", rebuild / with_plugin, "informative")])


if __name__ == "__main__":
    main()
