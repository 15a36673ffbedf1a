"""Sending every language of a page to one pytest-xdist worker.

A page's blocks share one process, so they must run on one worker; its
translations should run there too, so that identical pages execute once and are
credited. With ``pytest -n N --dist loadscope`` the project's scheduler groups the
blocks of ``docs/es/x.md``, ``docs/en/x.md`` and ``docs/fr/x.md`` into one unit of
work; every other test is grouped by module, as loadscope does.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from xdist.scheduler import LoadScopeScheduling


class PageScopeScheduling(LoadScopeScheduling):
    """loadscope, with a page's translations in the same scope."""

    def __init__(self, config: pytest.Config, log=None) -> None:
        from ruota_docs.blocks import site_config  # noqa: PLC0415
        from ruota_docs.run.sybil.parsers import PageLayout  # noqa: PLC0415 — the renderer: for pages only

        super().__init__(config, log)
        root = Path(config.rootpath)
        site = site_config.languages(root)
        docs = PageLayout(root).docs_dir
        if site.known:  # one folder per language, or none: a site in one language has no language folders
            self.languages = set(site.locales) if site.folders else set()
        else:
            self.languages = {p.name for p in docs.iterdir() if p.is_dir()} if docs.is_dir() else set()

    def _split_scope(self, nodeid: str) -> str:
        path, _, rest = nodeid.partition("::")
        if path.endswith(".md") and rest.startswith("sybil:"):
            parts = path.split("/")
            for i, part in enumerate(parts[:-1]):
                if part in self.languages:
                    return "/".join(parts[:i] + parts[i + 1:])
        return super()._split_scope(nodeid)


class SchedulingPlugin:
    """Registered by the project's pytest plugin when pytest-xdist is installed."""

    @pytest.hookimpl(tryfirst=True)
    def pytest_xdist_make_scheduler(self, config, log):
        if config.getoption("dist") == "loadscope":
            return PageScopeScheduling(config, log)
        return None
