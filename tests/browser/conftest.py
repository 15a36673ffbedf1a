"""Fixtures of the browser tests: the real site, a fixture site with a synthetic ledger,
each served on 127.0.0.1, and one headless Chromium for the session.

Every test here is marked ``browser`` (and ``realdocs``); without /usr/bin/chromium they
are skipped with that reason. All of them run on one xdist worker (tests/conftest.py), so
each site is served and each survey made once per run.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path[:0] = [str(Path(__file__).parent), str(Path(__file__).parents[1])]

import browserkit  # noqa: E402  (needs the paths above)
import survey  # noqa: E402
from sitebuild import SOURCE, SUBPATH_SITE_URL  # noqa: E402


@pytest.hookimpl(tryfirst=True)  # before xdist's loadgroup reads the group marks
def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.path).parents:
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.realdocs)  # every test here builds the repository's docs
            item.add_marker(pytest.mark.xdist_group("browser"))


@pytest.fixture(scope="session")
def chromium_path() -> str:
    if not Path(browserkit.CHROMIUM).exists():
        pytest.skip(f"{browserkit.CHROMIUM} is missing: install Debian's chromium (scripts/ensure-chromium)")
    return browserkit.CHROMIUM


@pytest.fixture(scope="session")
def site(tmp_path_factory, chromium_path) -> browserkit.Site:
    """The repository's docs, built once with ``mkdocs build --strict`` (the build the site tests
    read too) and served locally."""
    with browserkit.serve(browserkit.shared_site(tmp_path_factory), browserkit.ROOT) as served:
        yield served


@pytest.fixture(scope="session")
def subpath_site(tmp_path_factory, chromium_path) -> browserkit.Site:
    """The repository's docs built for a project page (SITE_URL=https://owner.github.io/ruota-docs/,
    as the deploy does) and served under /ruota-docs/, as GitHub Pages serves them."""
    built = browserkit.shared_site(tmp_path_factory, SUBPATH_SITE_URL)
    with browserkit.serve(built, browserkit.ROOT, SUBPATH_SITE_URL) as served:
        yield served


@pytest.fixture(scope="session")
def fixture_site(tmp_path_factory, chromium_path) -> browserkit.Site:
    """A copy of the docs with fixture blocks on the home pages and a synthetic two-machine
    ledger, so marks, output tabs, charts and includes can be checked before real runs exist."""
    work = tmp_path_factory.mktemp("fixture")
    root = browserkit.make_fixture_repo(work / "repo")
    with browserkit.serve(browserkit.build_site(root, work / "site"), root) as served:
        yield served


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """test-artifacts/screenshots/, emptied once per session (git-ignored)."""
    shutil.rmtree(browserkit.SCREENSHOTS, ignore_errors=True)
    browserkit.SCREENSHOTS.mkdir(parents=True)
    return browserkit.SCREENSHOTS


@pytest.fixture(scope="session")
def real_survey(site, browser, screenshots) -> dict:
    """Every page of the real site in every language, visited once (see survey.py); full-page
    screenshots of the guides in their source language go to test-artifacts/screenshots/<lang>/
    (the translations share their layout, and the layout checks measure every copy)."""
    pages = [(page, lang) for page in site.pages() for lang in browserkit.LANGUAGES]
    shots = {(page, lang) for page, lang in pages if page.startswith("guides/") and lang == SOURCE}
    context = browser.new_context(base_url=site.url, viewport=survey.DESKTOP)
    try:
        copies = {key: [b.index for b in blocks] for key, blocks in browserkit.copy_plan(site).items()}
        # colours audited on the source's copy of each page; the fixture survey audits them everywhere, for
        # what only a translation shows (the banner of a translation older than its source)
        return survey.survey(context, site, pages, shots, screenshots, copies, colours_in={SOURCE})
    finally:
        context.close()


@pytest.fixture(scope="session")
def fixture_survey(fixture_site, browser, screenshots) -> dict:
    """The fixture site's pages with records (home, status page), visited once, without
    screenshots (the real site's guides have them)."""
    pages = [(page, lang) for page in ("index.md", "verification-status.md") for lang in browserkit.LANGUAGES]
    context = browser.new_context(base_url=fixture_site.url, viewport=survey.DESKTOP)
    try:
        copies = {key: [b.index for b in blocks] for key, blocks in browserkit.copy_plan(fixture_site).items() if key in pages}
        return survey.survey(context, fixture_site, pages, set(), screenshots / "fixture", copies)
    finally:
        context.close()


@pytest.fixture(scope="session")
def browser(chromium_path):
    sync_playwright = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=chromium_path, args=browserkit.CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.fixture
def new_context(browser):
    """``new_context(site, **options)``: a fresh browser context; all are closed after the test."""
    contexts = []

    def make(site: browserkit.Site, **options):
        contexts.append(browserkit.open_context(browser, site, **options))
        return contexts[-1]

    yield make
    for context in contexts:
        context.close()
