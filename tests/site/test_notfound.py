"""site.notfound: a 404 page per language, the default language's at the root."""

from __future__ import annotations

from types import SimpleNamespace

from ruota_docs.site.notfound import TEMPLATE, NotFoundPages
from ruota_docs.site.site_languages import SiteLanguage

LANGS = [SiteLanguage("es", ""), SiteLanguage("en", "en")]


class Extra(dict):
    """config.extra: an item, and attributes mkdocs-static-i18n sets."""


def config(tmp_path, lang: str):
    return SimpleNamespace(theme={"language": lang}, site_url="https://x.example/docs", site_dir=str(tmp_path),
                           extra=Extra(alternate=[{"link": "/docs/"}]))


def test_the_template_gets_the_words_and_addresses_of_its_language(tmp_path):
    template = SimpleNamespace(globals={})
    cfg = config(tmp_path, "en")
    NotFoundPages().prepare(template, cfg, LANGS)
    found = template.globals["not_found"]
    assert (found["home_url"], found["base"], found["folder"], found["folders"]) == ("/docs/en/", "/docs/", "en", ["en"])
    assert isinstance(found["title"], str) and found["title"] and cfg.extra.alternate == [{"link": "/docs/"}]


def test_each_language_writes_its_copy_and_the_root_keeps_the_defaults(tmp_path):
    pages = NotFoundPages()
    assert pages.place("<p>es</p>", config(tmp_path, "es"), LANGS) == "<p>es</p>"
    assert pages.place("<p>en</p>", config(tmp_path, "en"), LANGS) == "<p>es</p>"  # what MkDocs writes at the root
    assert (tmp_path / "en" / TEMPLATE).read_text(encoding="utf-8") == "<p>en</p>"
