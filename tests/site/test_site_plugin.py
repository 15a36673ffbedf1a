"""site.site_plugin: the 404 page and the search index, once per language."""

from __future__ import annotations

import json
from types import SimpleNamespace

from ruota_docs.site.site_plugin import SitePlugin


def test_the_plugin_knows_the_languages_and_leaves_other_templates_alone(tmp_path):
    plugin = SitePlugin()
    config = SimpleNamespace(plugins={}, theme={"language": "fr"}, site_dir=str(tmp_path), site_url="", extra={})
    assert plugin.on_config(config) is config
    assert [lang.locale for lang in plugin.languages] == ["fr"]
    assert plugin.on_pre_template("T", "main.html", config) == "T"
    assert plugin.on_post_template("<html>", "main.html", config) == "<html>"
    template = SimpleNamespace(globals={})
    assert plugin.on_pre_template(template, "404.html", config) is template and "not_found" in template.globals


def test_after_the_build_each_language_has_its_search_index(tmp_path):
    plugin = SitePlugin()
    config = SimpleNamespace(plugins={}, theme={"language": "fr"}, site_dir=str(tmp_path), site_url="", extra={})
    plugin.on_config(config)
    index = {"config": {"lang": ["fr"]}, "docs": [{"location": "", "title": "Accueil", "text": ""}]}
    (tmp_path / "search").mkdir()
    (tmp_path / "search" / "search_index.json").write_text(json.dumps(index), encoding="utf-8")
    plugin.on_post_build(config)
    assert json.loads((tmp_path / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"][0]["title"] == "Accueil"
