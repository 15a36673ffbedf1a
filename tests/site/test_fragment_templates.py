"""The fragments' Jinja templates: escaping as the pages had it, one line per fragment, overrides."""

from __future__ import annotations

import pytest

from ruota_docs.site import fragment_templates, fragments


@pytest.fixture
def theme_dir(tmp_path):
    yield tmp_path
    fragment_templates.use_theme(None)  # back to the package's templates alone


def test_values_are_escaped_as_html_escape_does():
    shown = fragment_templates.render("mark", lines=[("passed", "l'ordre <b> & \"x\"")], lang="fr")
    assert "<span>l&#x27;ordre &lt;b&gt; &amp; &quot;x&quot;</span>" in shown


def test_a_template_written_on_many_lines_gives_one():
    assert "\n" not in fragments.icon("passed")
    assert "\n" not in fragment_templates.render("rocm_evidence", rows=[], lang="en")


def test_a_theme_folder_comes_before_the_package(theme_dir):
    (theme_dir / "ruota").mkdir()
    (theme_dir / "ruota" / "icon.html").write_text("<i class=\"{{ state }}\"></i>\n", encoding="utf-8")
    fragment_templates.use_theme(type("Theme", (), {"dirs": [str(theme_dir)]})())
    assert fragments.icon("failed") == '<i class="failed"></i>'
    assert fragment_templates.render("page_summary", state="passed", parts=["a", "b"], lang="es").endswith(
        "<div><p>a b</p></div></div>")
    listed = fragment_templates.render("page_summary", state="passed", parts=["a"], items=["1 b", "2 c"], after="d",
                                       lang="es")
    assert listed.endswith("<div><p>a</p><ul><li>1 b</li><li>2 c</li></ul><p>d</p></div></div>")


def test_a_missing_template_names_where_it_was_looked_for():
    with pytest.raises(LookupError, match=r"no template ruota/nothing\.html in .*templates"):
        fragment_templates.render("nothing")


def test_a_fragment_shown_many_times_is_rendered_once_per_theme(theme_dir, monkeypatch):
    rendered = []
    real = fragment_templates.render
    monkeypatch.setattr(fragment_templates, "render", lambda name, **context: rendered.append(name) or real(name, **context))
    fragment_templates.use_theme(None)
    first = [fragment_templates.render_kept("icon", path="M0 0", state="passed") for _ in range(3)]
    assert rendered == ["icon"] and len(set(first)) == 1
    (theme_dir / "ruota").mkdir()
    (theme_dir / "ruota" / "icon.html").write_text("<i>{{ state }}</i>\n", encoding="utf-8")
    fragment_templates.use_theme(type("Theme", (), {"dirs": [str(theme_dir)]})())
    assert fragment_templates.render_kept("icon", path="M0 0", state="passed") == "<i>passed</i>"  # the new theme's
