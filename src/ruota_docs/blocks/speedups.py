"""The engine's speed tricks, each by name, and the one switch that turns them off.

A trick buys time and changes nothing else: each is listed here with the module it lives in,
benchmarks/RESULTS.md ("A budget for cleverness") says what it buys, and a test runs with it
switched off and finds the same result. A trick that buys less than a tenth of the loop it
speeds up is not kept.

``RUOTA_DOCS_NO_SPEEDUPS`` names the tricks to leave out, separated by commas (``all``: every
one): to check that a trick changes nothing but time, to profile the plain code, or to rule a
trick out in a bug report. A name no trick has is an error, so a misspelt switch never passes
for one that worked.
"""

from __future__ import annotations

import os

#: The environment variable that turns tricks off.
SWITCH = "RUOTA_DOCS_NO_SPEEDUPS"

#: Each trick by name: its stage and module, and what it does.
TRICKS: dict[str, str] = {
    "render_ahead": "run (run/render_ahead.py): the one page a run names is rendered in a forked child "
                    "while pytest sets itself up",
    "setup_cache": "blocks (blocks/setup_cache.py): the site's Markdown set-up and mkdocs.yml as read, "
                   "pickled on disk between runs",
    "gc_pause": "site (site/gc_pause.py): the records read with the garbage collector paused, then frozen",
    "template_cache": "serve (serve/caches.py): the theme's templates compiled once per process",
    "serve_caches": "serve (serve/caches.py): highlighted code and the theme's file listing kept between "
                    "rebuilds of the live preview",
    "render_cache": "blocks (blocks/render_cache.py): what the fast rendering of a page found, kept on disk "
                    "between runs",
    "page_ahead": "run (run/page_ahead.py): the next page's process started while the page before it runs",
}


class UnknownSpeedup(ValueError):
    """``RUOTA_DOCS_NO_SPEEDUPS`` names a trick that does not exist."""


def off() -> frozenset[str]:
    """The tricks ``RUOTA_DOCS_NO_SPEEDUPS`` turns off (read each time: a test may set it)."""
    said = {name.strip() for name in os.environ.get(SWITCH, "").split(",") if name.strip()}
    if "all" in said:
        return frozenset(TRICKS)
    unknown = sorted(said - set(TRICKS))
    if unknown:
        raise UnknownSpeedup(f"{SWITCH}={os.environ[SWITCH]}: no speed trick is called {', '.join(unknown)}; "
                             f"the tricks are {', '.join(TRICKS)} (or all)")
    return frozenset(said)


def on(name: str) -> bool:
    """Whether the trick ``name`` (one of `TRICKS`) is used in this process."""
    if name not in TRICKS:
        raise KeyError(name)
    return name not in off()
