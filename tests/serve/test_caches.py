"""serve.caches: what the preview keeps between rebuilds — highlighted code, the theme's file listing."""

from __future__ import annotations

from collections import OrderedDict
from types import SimpleNamespace

import jinja2
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

from ruota_docs.serve import caches


def test_each_distinct_block_is_highlighted_once(monkeypatch):
    from pymdownx import highlight as pymdownx_highlight

    calls = []
    monkeypatch.setattr(caches, "_HIGHLIGHTED", OrderedDict())
    monkeypatch.setattr(pymdownx_highlight, "highlight", lambda code, lexer, formatter, outfile=None: calls.append(code) or f"<{code}>")
    caches.keep_highlighted_code()
    caches.keep_highlighted_code()  # installed once
    memo = pymdownx_highlight.highlight
    assert memo("x = 1", PythonLexer(), HtmlFormatter()) == "<x = 1>"
    assert memo("x = 1", PythonLexer(), HtmlFormatter()) == "<x = 1>"
    assert memo("x = 1", PythonLexer(), HtmlFormatter(linenos=True)) == "<x = 1>"  # other options: highlighted again
    assert calls == ["x = 1", "x = 1"]


def test_the_theme_is_listed_once_per_set_of_folders(monkeypatch):
    listed = []

    class Loader(jinja2.DictLoader):
        def list_templates(self):
            listed.append(1)
            return super().list_templates()

    theme = SimpleNamespace(dirs=["/theme"], static_templates={"404.html"},
                            get_env=lambda: jinja2.Environment(loader=Loader({"a.html": "", "b.css": ""})))
    monkeypatch.setattr(caches, "_LISTINGS", {})
    caches.keep_theme_listing(theme)

    def static(name):
        return name.endswith(".css")

    assert theme.get_env().list_templates(filter_func=static) == ["b.css"]
    assert theme.get_env().list_templates(filter_func=static) == ["b.css"]
    assert listed == [1]
    assert theme.get_env().list_templates(extensions=["html"]) == ["a.html"]  # asked otherwise: not kept


def test_switched_off_nothing_is_patched_and_code_highlights_the_same(monkeypatch):
    from pymdownx import highlight as pymdownx_highlight

    monkeypatch.setattr(caches, "_HIGHLIGHTED", OrderedDict())
    monkeypatch.setattr(pymdownx_highlight, "highlight", pymdownx_highlight.highlight)  # restored after the test
    real = pymdownx_highlight.highlight
    monkeypatch.setenv("RUOTA_DOCS_NO_SPEEDUPS", "serve_caches")
    caches.keep_highlighted_code()
    get_env = lambda: jinja2.Environment(loader=jinja2.DictLoader({"a.css": ""}))  # noqa: E731
    theme = SimpleNamespace(dirs=["/theme"], static_templates=set(), get_env=get_env)
    caches.keep_theme_listing(theme)
    assert pymdownx_highlight.highlight is real and theme.get_env is get_env
    plain = real("x = 1", PythonLexer(), HtmlFormatter())
    monkeypatch.delenv("RUOTA_DOCS_NO_SPEEDUPS")
    caches.keep_highlighted_code()
    assert pymdownx_highlight.highlight is not real
    assert pymdownx_highlight.highlight("x = 1", PythonLexer(), HtmlFormatter()) == plain
