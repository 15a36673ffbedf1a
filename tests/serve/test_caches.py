"""serve.caches: what the preview keeps between rebuilds — highlighted code, the theme's file listing, its
compiled templates (never shared across set-ups)."""

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


# -- the theme's templates -------------------------------------------------------------------
def environment(loader, **options):
    return jinja2.Environment(loader=loader, bytecode_cache=caches.CACHE, **options)


def test_a_template_compiles_once_and_again_when_it_changes(monkeypatch):
    caches.CACHE.clear()
    sources = {"t.html": "Hello {{ name }}"}
    loader = jinja2.FunctionLoader(lambda name: sources[name])
    compiled = []
    real = jinja2.Environment.compile
    monkeypatch.setattr(jinja2.Environment, "compile", lambda self, *a, **k: compiled.append(a[1]) or real(self, *a, **k))
    assert environment(loader).get_template("t.html").render(name="a") == "Hello a"
    assert environment(loader).get_template("t.html").render(name="b") == "Hello b"
    assert compiled == ["t.html"]
    sources["t.html"] = "Bye {{ name }}"
    assert environment(loader).get_template("t.html").render(name="c") == "Bye c"
    assert environment(loader, trim_blocks=True).get_template("t.html").render(name="d") == "Bye d"
    assert compiled == ["t.html", "t.html", "t.html"]  # a changed source, then another set-up


def test_compile_once_gives_the_themes_environments_the_cache():
    theme = SimpleNamespace(get_env=lambda: jinja2.Environment())
    caches.compile_once(theme)
    caches.compile_once(theme)  # once is enough
    assert theme.get_env().bytecode_cache is caches.CACHE
    assert theme.get_env.ruota_docs_compiled_once


def test_switched_off_the_theme_is_left_as_it_is_and_renders_the_same(monkeypatch):
    monkeypatch.setenv("RUOTA_DOCS_NO_SPEEDUPS", "template_cache")
    loader = jinja2.DictLoader({"t.html": "{% for n in names %}<b>{{ n }}</b>{% endfor %}"})
    get_env = lambda: jinja2.Environment(loader=loader, autoescape=True)  # noqa: E731
    theme = SimpleNamespace(get_env=get_env)
    caches.compile_once(theme)
    assert theme.get_env is get_env and theme.get_env().bytecode_cache is None
    plain = theme.get_env().get_template("t.html").render(names=["a", "<b>"])
    monkeypatch.delenv("RUOTA_DOCS_NO_SPEEDUPS")
    caches.compile_once(theme)
    assert theme.get_env().get_template("t.html").render(names=["a", "<b>"]) == plain == "<b>a</b><b>&lt;b&gt;</b>"
