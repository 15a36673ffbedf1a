"""site.template_cache: a theme's templates compiled once per process, never shared across set-ups."""

from __future__ import annotations

from types import SimpleNamespace

import jinja2

from ruota_docs.site import template_cache


def environment(loader, **options):
    return jinja2.Environment(loader=loader, bytecode_cache=template_cache.CACHE, **options)


def test_a_template_compiles_once_and_again_when_it_changes(monkeypatch):
    template_cache.CACHE.clear()
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
    template_cache.compile_once(theme)
    template_cache.compile_once(theme)  # once is enough
    assert theme.get_env().bytecode_cache is template_cache.CACHE
    assert theme.get_env.ruota_docs_compiled_once


def test_switched_off_the_theme_is_left_as_it_is_and_renders_the_same(monkeypatch):
    monkeypatch.setenv("RUOTA_DOCS_NO_SPEEDUPS", "template_cache")
    loader = jinja2.DictLoader({"t.html": "{% for n in names %}<b>{{ n }}</b>{% endfor %}"})
    get_env = lambda: jinja2.Environment(loader=loader, autoescape=True)  # noqa: E731
    theme = SimpleNamespace(get_env=get_env)
    template_cache.compile_once(theme)
    assert theme.get_env is get_env and theme.get_env().bytecode_cache is None
    plain = theme.get_env().get_template("t.html").render(names=["a", "<b>"])
    monkeypatch.delenv("RUOTA_DOCS_NO_SPEEDUPS")
    template_cache.compile_once(theme)
    assert theme.get_env().get_template("t.html").render(names=["a", "<b>"]) == plain == "<b>a</b><b>&lt;b&gt;</b>"
