"""Helpers of the browser tests: building and serving a site, recording what a page
does over the network and on its console, and what the engine makes of each page."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from sitebuild import LANGUAGES, ROOT, SITE_URL, SOURCE, build, page_paths, shared_build, url_path

from ruota_docs.blocks.expected_output import expected
from ruota_docs.records import ledger as ledger_mod
from ruota_docs.records import verdicts
from ruota_docs.records.reason_codes import reason as reason_code
from ruota_docs.records.schema import Record
from ruota_docs.serve import preview
from ruota_docs.records.schema import Machine
from ruota_docs.run.conditions import unmet
from ruota_docs.blocks.collect import page_blocks

__all__ = ["LANGUAGES", "ROOT", "SOURCE", "page_paths", "url_path"]

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync",
    # Nothing leaves this machine even if a page asks for another host: the request is
    # still reported (and fails the tests), but it never reaches the network.
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
]
ARTIFACTS = ROOT / "test-artifacts"
SCREENSHOTS = ARTIFACTS / "screenshots"


# -- building and serving ------------------------------------------------------------
def _check(result, what: str) -> None:
    if result.returncode != 0:
        pytest.fail(f"mkdocs build --strict of {what} failed:\n{result.stdout[-4000:]}\n{result.stderr[-8000:]}", pytrace=False)


def build_site(root: Path, target: Path, site_url: str | None = None) -> Path:
    """``mkdocs build --strict`` of the repository (copy) at ``root`` for ``site_url``."""
    _check(build(target, site_url, root), "the repository's docs" if root == ROOT else f"the fixture copy {root}")
    return target


def shared_site(tmp_path_factory, site_url: str | None = None) -> Path:
    """The repository's docs built for ``site_url`` once per test run (sitebuild.shared_build)."""
    target, result = shared_build(tmp_path_factory, site_url)
    _check(result, "the repository's docs")
    return target


@dataclass
class Site:
    """A built site served on 127.0.0.1, and the repository (copy) it was built from.

    The page list, each page's source and the engine's blocks are read once, right after
    the build, so tests compare the served pages with the sources they were built from
    even while people keep editing docs/ and snippets/.
    """

    dir: Path | None  #: the folder served (None: mkdocs serve's own)
    root: Path
    url: str  #: ``http://127.0.0.1:PORT`` or ``http://127.0.0.1:PORT/ruota-docs`` (no trailing slash)
    site_url: str = SITE_URL  #: the address it was built for
    ledgers: list = field(default_factory=list)
    _pages: list = field(default_factory=list, repr=False)
    _sources: dict = field(default_factory=dict, repr=False)
    _blocks: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if self.root == ROOT:
            self._pages = page_paths()
        else:
            source = self.root / "docs" / SOURCE
            self._pages = sorted(p.relative_to(source).as_posix() for p in source.rglob("*.md"))
        for page in self._pages:
            for lang in LANGUAGES:
                # a missing translation is built from the source page (with a banner)
                written = lang if (self.root / "docs" / lang / page).exists() else SOURCE
                text = (self.root / "docs" / written / page).read_text(encoding="utf-8")
                self._sources[(page, lang)] = text
                self._blocks[(page, lang)] = engine_blocks(f"{written}/{page}", lang, self.root)

    @property
    def host(self) -> str:
        return urlsplit(self.url).netloc

    @property
    def origin(self) -> str:
        return f"{urlsplit(self.url).scheme}://{self.host}"

    def pages(self) -> list[str]:
        """Every source page relative to its language folder (``guides/keras-rx7600.md``)."""
        return list(self._pages)

    def guides(self) -> list[str]:
        return [p for p in self._pages if p.startswith("guides/")]

    def href(self, page: str, lang: str) -> str:
        return self.url + url_path(page, lang)

    def source(self, page: str, lang: str) -> str:
        """The Markdown the page in ``lang`` was built from."""
        return self._sources[(page, lang)]

    def blocks(self, page: str, lang: str) -> list:
        """The checked blocks of a page as the engine (and the plugin) number them."""
        return self._blocks.get((page, lang), [])

    def verdicts(self, page: str, lang: str) -> list:
        indexed = verdicts.index_ledgers(self.ledgers)
        return [(b, verdicts.verdict(b.page, b.index, b.sha256, indexed)) for b in self.blocks(page, lang)]


def engine_blocks(page_key: str, lang: str, root: Path) -> list:
    """The blocks of ``docs/<page_key>`` as the engine (and the plugin) number them, read in ``lang``."""
    blocks = page_blocks(root, root / "docs", root / "docs" / page_key)
    for block in blocks:
        block.lang = lang
    return blocks


@contextlib.contextmanager
def serve(site_dir: Path, root: Path, site_url: str = SITE_URL):
    """Serve ``site_dir`` as GitHub Pages would (ruota_docs.serve.preview), under the path of
    ``site_url``, on a free port of 127.0.0.1."""
    with preview.serving(site_dir, urlsplit(site_url).path) as url:
        yield Site(site_dir, root, url.rstrip("/"), site_url, ledger_mod.load_all(root / "verification"))


@contextlib.contextmanager
def mkdocs_serve(root: Path = ROOT, site_url: str | None = None, timeout: float = 300):
    """``mkdocs serve`` of the docs at ``root`` on a free port, as authors run it (live
    reload included), once it answers; stopped afterwards. It serves under the path of
    ``site_url`` (None: mkdocs.yml's, the root)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    env.pop("SITE_URL", None)
    if site_url:
        env["SITE_URL"] = site_url
    url = f"http://127.0.0.1:{port}{urlsplit(site_url or SITE_URL).path}".rstrip("/")
    with tempfile.TemporaryFile("w+") as log:
        process = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "--dev-addr", f"127.0.0.1:{port}"],
                                   cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + timeout
            while True:
                if process.poll() is not None:
                    log.seek(0)
                    pytest.fail(f"mkdocs serve stopped (exit {process.returncode}):\n{log.read()[-6000:]}", pytrace=False)
                try:
                    with urllib.request.urlopen(url + "/", timeout=5):
                        break
                except (urllib.error.URLError, ConnectionError, TimeoutError):
                    if time.monotonic() > deadline:
                        log.seek(0)
                        pytest.fail(f"mkdocs serve did not answer within {timeout:.0f} s:\n{log.read()[-6000:]}", pytrace=False)
                    time.sleep(1)
            yield Site(None, root, url, site_url or SITE_URL)
        finally:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


# -- what a page does ------------------------------------------------------------------
class Recorder:
    """Every request a page makes, the ones that failed, console errors and uncaught errors."""

    def __init__(self, page, host: str) -> None:
        self.host = host
        self.requests: list[str] = []
        self.failed: list[str] = []
        self.errors: list[str] = []
        self.inflight = 0
        self.last = time.monotonic()  #: when a request last started or ended
        page.on("request", self._started)
        page.on("requestfinished", self._ended)
        page.on("requestfailed", lambda r: (self._ended(r), self.failed.append(f"{r.url} ({r.failure})")))
        page.on("response", lambda r: r.status >= 400 and self.failed.append(f"{r.url} (HTTP {r.status})"))
        page.on("console", lambda m: m.type == "error" and self.errors.append(f"console: {m.text} @ {m.location.get('url')}"))
        page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))

    def _started(self, request) -> None:
        self.requests.append(request.url)
        self.inflight += 1
        self.last = time.monotonic()

    def _ended(self, request) -> None:
        self.inflight = max(0, self.inflight - 1)
        self.last = time.monotonic()

    def settle(self, page, quiet_ms: int = 300, limit_ms: int = 10_000) -> None:
        """Wait until no request has been in flight for ``quiet_ms`` (cheaper than networkidle,
        long enough for Material's search worker to ask for its index and languages). Quiet
        time already past counts: called after other work on the page, it returns at once."""
        deadline = time.monotonic() + limit_ms / 1000
        while time.monotonic() < deadline:
            page.wait_for_timeout(0)  # lets Playwright deliver the events that came in
            if self.inflight == 0 and time.monotonic() - self.last >= quiet_ms / 1000:
                return
            page.wait_for_timeout(50)

    def foreign(self) -> list[str]:
        """Requests to any host but the local server (data: and blob: URLs have none)."""
        return [u for u in self.requests if urlsplit(u).scheme in ("http", "https", "ws", "wss") and urlsplit(u).netloc != self.host]

    def problems(self, navigated: bool = False) -> list[str]:
        """What went wrong; ``navigated``: the test moved on before pages had settled, so
        requests the browser cancelled on leaving a page (net::ERR_ABORTED) are expected."""
        failed = [f for f in self.failed if not (navigated and "net::ERR_ABORTED" in f)]
        return [f"request to another host: {u}" for u in self.foreign()] + [f"failed: {f}" for f in failed] + self.errors

    def clear(self) -> None:
        self.inflight = 0
        self.requests.clear()
        self.failed.clear()
        self.errors.clear()


#: Material's search shows its placeholder once the worker has loaded the index and lunr.
SEARCH_READY_JS = """() => {
  const meta = document.querySelector('.md-search-result__meta');
  const words = JSON.parse(document.getElementById('__config').textContent).translations;
  return !!meta && meta.textContent.trim() === words['search.result.placeholder'];
}"""


def open_context(browser, site: Site, **options):
    """A browser context for ``site``: a desktop window and a 10 s limit per action, unless
    ``options`` say otherwise."""
    options.setdefault("viewport", {"width": 1280, "height": 900})
    context = browser.new_context(base_url=site.url, **options)
    context.set_default_timeout(10_000)
    return context


def recorded_page(context, site: Site):
    page = context.new_page()
    return page, Recorder(page, site.host)


def contrast(fg: tuple, bg: tuple) -> float:
    """WCAG 2 contrast ratio of two sRGB colours (0–255 channels)."""
    def luminance(rgb):
        def channel(c):
            c = c / 255
            return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
        r, g, b = (channel(c) for c in rgb[:3])
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    high, low = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def parse_rgb(css: str) -> tuple[float, float, float, float]:
    """``rgb(1, 2, 3)`` / ``rgba(1, 2, 3, 0.5)`` / ``color(srgb r g b / a)`` → 0–255 channels + alpha."""
    numbers = [float(n) for n in re.findall(r"[-+]?\d*\.?\d+(?:e[-+]?\d+)?", css)]
    if css.startswith("color(srgb"):
        r, g, b, *a = numbers
        return r * 255, g * 255, b * 255, (a[0] if a else 1.0)
    r, g, b, *a = numbers
    return r, g, b, (a[0] if a else 1.0)


# -- the fixture repository ----------------------------------------------------------------
FIXTURE_SNIPPET = '''"""Fixture for the browser tests: a snippet with a section, a tab and a long line."""
import os

# --8<-- [start:greet]
def greet(name: str) -> str:
    return f"hello {name}\\tfrom {os.name}"  # a tab inside the string, kept as written
# --8<-- [end:greet]

print(greet("ruota"))
print("seconds_per_epoch: 12.5")
'''

FIXTURE_SECTION = '''

## Browser fixture { #browser-fixture }

<!-- run: id=fixture-metric -->
```python title="greet.py" hl_lines="2 3"
--8<-- "browser_fixture/greet.py"
```

<!-- requires: rocm arch=gfx906 vram>=16GiB -->
```python
--8<-- "browser_fixture/greet.py:greet"
print(greet("gfx906"))
```

!!! note "Indented"

    ```python
    --8<-- "browser_fixture/greet.py:greet"
    print(greet("admonition"))
    ```

<!-- run: skip reason="installs system packages" -->
```bash
sudo apt-get install -y rocm-hip-sdk
```

<!-- chart: block=fixture-metric metrics=seconds_per_epoch unit=s title="Seconds per epoch" reported="RX 7600 (source document)=5" -->
'''

MACHINES = {
    "cpu-x86_64": dict(backend="cpu", gpu_name=None, arch=None, vram_bytes=None, gpu_count=0, os="linux",
                       machine="x86_64", python="3.11.2", torch="2.13.0+cpu", hip=None, cuda=None, packages={"torch": "2.13.0"}),
    "cuda-nvidia-h200": dict(backend="cuda", gpu_name="NVIDIA H200", arch="sm_90", vram_bytes=150_000_000_000,
                             gpu_count=1, os="linux", machine="x86_64", python="3.11.2", torch="2.13.0+cu130",
                             cuda="13.0", hip=None, packages={"torch": "2.13.0"}),
}
FAILING = "print(greet(\"admonition\"))"  #: the fixture block that fails on the GPU machine


def fixture_output(machine_id: str, block) -> str:
    """What the synthetic ledger says ``block`` printed on ``machine_id``."""
    lines = [f"{machine_id} ran {block.page}#{block.index}"]
    if block.block_id:
        lines.append(f"seconds_per_epoch: {30.5 if machine_id.startswith('cpu') else 2.25}")
        # wider than any page: the output scrolls sideways, so it must take the keyboard's focus
        lines.append("per_layer_ms: " + " ".join(f"L{n}={n * 0.25:.2f}" for n in range(48)))
    # and what its #> lines state: the build's record check refuses a pass that did not print them
    lines += [line.text for line in expected(block.code) if not line.loose]
    return "\n".join(lines)


def copy_repo(dest: Path, folders=("docs", "snippets", "overrides", "verification")) -> Path:
    """What the site is built from, copied to ``dest`` as it is now: a preview served from the copy
    does not rebuild when the tests running beside it write the repository's records."""
    dest.mkdir(parents=True)
    shutil.copy2(ROOT / "mkdocs.yml", dest / "mkdocs.yml")
    for name in folders:
        shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
    # mkdocstrings reads the package from src/, which the preview watches: a copy, as the tests beside it
    # write Python's caches into the repository's own (a fresh clone's first run), and each would rebuild
    shutil.copytree(ROOT / "src", dest / "src", ignore=shutil.ignore_patterns("__pycache__"))
    (dest / "hooks").symlink_to(ROOT / "hooks")  # mkdocs.yml's hook, which packs the engine's source archive
    return dest


def make_fixture_repo(dest: Path) -> Path:
    """A copy of the repository's docs with fixture blocks on the home pages and a
    synthetic ledger of two machines (passed, failed, skipped and stale records)."""
    copy_repo(dest, ("docs", "snippets", "overrides"))
    (dest / "snippets" / "browser_fixture").mkdir()
    (dest / "snippets" / "browser_fixture" / "greet.py").write_text(FIXTURE_SNIPPET, encoding="utf-8")
    for lang in LANGUAGES:
        home = dest / "docs" / lang / "index.md"
        home.write_text(home.read_text(encoding="utf-8").rstrip("\n") + FIXTURE_SECTION, encoding="utf-8")

    (dest / "verification").mkdir()
    stamp = "2026-11-20T10:00:00Z"
    for machine_id, facts in MACHINES.items():
        device = Machine(**facts)
        entries = {}
        for lang in LANGUAGES:
            for path in sorted((dest / "docs" / lang).rglob("*.md")):
                page = path.relative_to(dest / "docs").as_posix()
                for block in engine_blocks(page, lang, dest):
                    entry = dict(page=page, lang=lang, index=block.index, line=block.line, language=block.fence_language,
                                 sha256=block.sha256, id=block.block_id, outcome="passed", reason=None,
                                 duration=1.25 + block.index, output=fixture_output(machine_id, block),
                                 ran_at=stamp, reused_from=None)
                    unmet_code = unmet(block.requirements, device)
                    if block.not_run_reason is not None:
                        code = reason_code("not_run", why=block.not_run_reason)
                        entry.update(outcome="skipped", reason=code.english(), reason_code=code.to_record(), output="")
                    elif unmet_code:
                        entry.update(outcome="skipped", reason=unmet_code.english(), reason_code=unmet_code.to_record(),
                                     output="")
                    elif machine_id.startswith("cuda") and FAILING in block.code:
                        entry.update(outcome="error", error="Traceback (most recent call last):\nAssertionError: fixture failure")
                    elif machine_id.startswith("cuda") and not page.endswith("index.md"):
                        entry.update(sha256="0" * 64)  # recorded for older code: stale
                    entries[f"{page}#{block.index}"] = entry
        record = Record.from_dict({"machine_id": machine_id, "machine": dict(facts, machine_id=machine_id),
                                   "updated": stamp, "blocks": entries,
                                   "provenance": {"kind": "sent", "commit": None}})  # as record check wants
        ledger_mod.write_atomic(dest / "verification" / f"{machine_id}.json", record)  # as the engine writes it
    return dest


def copy_plan(site: Site) -> dict[tuple[str, str], list]:
    """Blocks whose copy button is tried, per ``(page, lang)``: every block with an
    include, and the first block without one."""
    plan = {}
    for lang in LANGUAGES:
        for page in site.pages():
            blocks = site.blocks(page, lang)
            chosen = [b for b in blocks if b.includes] + [b for b in blocks if not b.includes][:1]
            if chosen:
                plan[(page, lang)] = sorted(chosen, key=lambda b: b.index)
    return plan


# -- accessibility -------------------------------------------------------------------------
#: What axe-core checks: WCAG 2.0 and 2.1, levels A and AA.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
#: What fails a test: axe-core's two highest impacts (moderate and minor are reported, not failed).
AXE_FAILING = ("serious", "critical")
#: The rules whose result depends on the colours: the only ones a change of scheme can change.
AXE_COLOUR_RULES = ["color-contrast", "link-in-text-block"]

# Highlighted code is most of a guide's elements (8,000 of 9,000 spans) and most of axe-core's
# time, yet its contrast depends only on each token's colour, size and weight and the backgrounds
# behind it (the code's, a highlighted line's, a tab's or an admonition's). One element per such
# combination stands for the others; the rest of the page is checked element by element.
CODE_SAMPLES_JS = """() => {
  document.querySelectorAll('[data-axe-sample]').forEach(e => e.removeAttribute('data-axe-sample'));
  const seen = new Set();
  for (const el of document.querySelectorAll('.highlight code, .highlight code *')) {
    // text of its own, shown (axe-core leaves out what is hidden: a closed tab, a folded admonition)
    if (![...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()) || !el.checkVisibility()) continue;
    const s = getComputedStyle(el), behind = [];
    for (let n = el; n && n !== document.body; n = n.parentElement) {
      const b = getComputedStyle(n).backgroundColor;
      if (b !== 'rgba(0, 0, 0, 0)') behind.push(b);
    }
    const key = [s.color, s.fontSize, s.fontWeight, s.opacity, behind.join('/')].join('|');
    if (!seen.has(key)) { seen.add(key); el.setAttribute('data-axe-sample', ''); }
  }
  return seen.size;
}"""


def axe_audit(page, include: list[str] | None = None, colours_only: bool = False, colours: bool = True) -> list[str]:
    """axe-core's serious and critical WCAG 2.1 A/AA violations on ``page`` as it is now, one line
    per element (rule, impact, element, why): in the elements ``include`` selects, or the whole
    page, where highlighted code is sampled for contrast (CODE_SAMPLES_JS). ``colours_only``: only
    the rules a change of colour scheme can change (the page was audited whole in another); ``colours=False``:
    every rule but those (another copy of the page, with the same styles, was audited for them).
    axe-core comes with axe-playwright-python; it is injected once per loaded page."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        from axe_playwright_python.sync_playwright import Axe

        page.evaluate(Axe().axe_script)
    runs = []  # (context, rules run, rules left out)
    if include:
        runs.append(({"include": [[s] for s in include]}, AXE_COLOUR_RULES if colours_only else None, []))
    else:
        if not colours_only:
            runs.append((None, None, AXE_COLOUR_RULES))
        if colours:
            runs.append(({"exclude": [[".highlight"]]}, AXE_COLOUR_RULES, []))
            if page.evaluate(CODE_SAMPLES_JS):
                runs.append(({"include": [[".highlight [data-axe-sample]"]]}, AXE_COLOUR_RULES, []))
    found = []
    for context, only, without in runs:
        options = {"runOnly": {"type": "rule", "values": only} if only else {"type": "tag", "values": AXE_TAGS},
                   "rules": {rule: {"enabled": False} for rule in without}, "resultTypes": ["violations"]}
        results = page.evaluate("([context, options]) => axe.run(context || document, options)", [context, options])
        for rule in results["violations"]:
            if rule["impact"] not in AXE_FAILING:
                continue
            for node in rule["nodes"]:
                checks = node.get("any", []) + node.get("all", []) + node.get("none", [])
                why = " ".join(check["message"] for check in checks)
                found.append(f"{rule['id']} ({rule['impact']}): {' '.join(map(str, node['target']))}: {why or rule['help']}")
    return found


# -- small DOM helpers -------------------------------------------------------------------
COPY_BUTTON = ".md-clipboard, .md-code__button[data-md-type='copy']"

REVEAL_JS = """el => {
  // open collapsed admonitions and select the content tab that holds the element
  for (let node = el; node; node = node.parentElement) {
    if (node.tagName === 'DETAILS') node.open = true;
    if (node.classList && node.classList.contains('tabbed-block')) {
      const blocks = [...node.parentElement.children];
      const set = node.parentElement.parentElement;
      const inputs = [...set.children].filter(c => c.tagName === 'INPUT');
      const input = inputs[blocks.indexOf(node)];
      if (input) input.click();
    }
  }
  el.scrollIntoView({block: 'center'});
}"""
