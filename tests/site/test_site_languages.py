"""site.site_languages: the languages the site is built in, the default at the root."""

from __future__ import annotations

from types import SimpleNamespace

from ruota_docs.site.site_languages import SiteLanguage, build_language, site_languages


def config(languages=None, theme_language="", theme_locale=""):
    plugins = {}
    if languages is not None:
        plugins["i18n"] = SimpleNamespace(config=SimpleNamespace(languages=[
            SimpleNamespace(locale=locale, default=default, build=build) for locale, default, build in languages]))
    return SimpleNamespace(plugins=plugins, theme={"language": theme_language, "locale": theme_locale})


def test_the_default_language_is_at_the_root_and_comes_first():
    langs = site_languages(config([("en", False, True), ("es", True, True), ("de", False, False), ("fr", False, True)]))
    assert langs == [SiteLanguage("es", ""), SiteLanguage("en", "en"), SiteLanguage("fr", "fr")]
    assert [lang.prefix for lang in langs] == ["", "en/", "fr/"]


def test_a_site_without_i18n_has_its_themes_language_at_the_root():
    assert site_languages(config(theme_language="de")) == [SiteLanguage("de", "")]
    assert site_languages(config()) == [SiteLanguage("en", "")]
    assert site_languages(config(theme_locale="it")) == [SiteLanguage("it", "")]  # the mkdocs theme's locale


def test_the_build_language_is_the_themes_current_one():
    langs = [SiteLanguage("es", ""), SiteLanguage("en", "en")]
    assert build_language(config(theme_language="en"), langs) == langs[1]
    assert build_language(config(theme_language="xx"), langs) == langs[0]
