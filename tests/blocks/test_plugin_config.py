"""The ``ruota_docs`` plugin's options: one declaration, which MkDocs and the engine both read mkdocs.yml with."""

from __future__ import annotations

import pytest
from mkdocs.config import config_options as c
from mkdocs.config import load_config

from ruota_docs.blocks import plugin_config, site_config
from ruota_docs.blocks.plugin_config import PluginConfig, described


def _site(tmp_path, options: str = ""):
    (tmp_path / "docs").mkdir(exist_ok=True)
    path = tmp_path / "mkdocs.yml"
    path.write_text(f"site_name: x\nplugins:\n  - ruota_docs{':' if options else ''}{options}\n", encoding="utf-8")
    return path


def _as_mkdocs_loads_it(path):
    """The plugin's config as ``mkdocs build`` loads it: through the entry point, by MkDocs itself."""
    return load_config(str(path)).plugins["ruota_docs"].config


def test_every_option_has_the_same_default_for_mkdocs_and_for_the_engine(tmp_path):
    path = _site(tmp_path)
    mkdocs_side = _as_mkdocs_loads_it(path)
    engine_side = site_config.read(tmp_path).options
    assert type(mkdocs_side) is PluginConfig
    names = list(plugin_config.options_of(PluginConfig))
    assert len(names) >= 17 and set(engine_side) == set(names) == set(mkdocs_side)
    assert [engine_side[name] for name in names] == [mkdocs_side[name] for name in names]


def test_values_written_in_the_file_read_the_same_on_both_sides(tmp_path):
    (tmp_path / "setup.py").write_text("x = 1\n", encoding="utf-8")
    path = _site(tmp_path, "\n      isolation: variants\n      fact_max_age: 30\n      setup: setup.py\n"
                           "      ledger_dir: runs\n      partial_rebuild: false\n")
    mkdocs_side, site = _as_mkdocs_loads_it(path), site_config.read(tmp_path)
    assert dict(mkdocs_side) == site.options
    assert (site.variant_isolation, site.fact_max_age, site.setup, site.record_dir) == (
        True, 30, tmp_path / "setup.py", tmp_path / "runs")
    assert site.options["partial_rebuild"] is False  # the preview's option is one of the plugin's, not unknown
    assert [w.split(": ", 3)[-1] for w in site.warnings] == ["'ledger_dir' is the old name of record_dir: rename it"]


@pytest.mark.parametrize("written", ["isolation: blok", "fact_max_age: 0", "setup: missing.py", "key_blocks: [a]"])
def test_a_value_mkdocs_refuses_the_engine_refuses_with_the_same_words(tmp_path, written):
    path = _site(tmp_path, f"\n      {written}\n")
    name = written.split(":")[0]
    errors, _ = plugin_config.validate({name: _value(written)}, str(path))[1:]
    with pytest.raises(site_config.ConfigError) as refused:
        site_config.read(tmp_path)
    assert str(refused.value) == f"{path}:4: plugins: ruota_docs: {name}: {errors[0][1]}"
    assert plugin_config.help_of(PluginConfig(), name) in str(refused.value)  # says what the option is for


def _value(written: str):
    from ruota_docs.blocks.site_config import load_yaml

    return next(iter(load_yaml(written).values()))


def test_an_option_declared_once_is_known_to_mkdocs_and_to_the_engine(tmp_path, monkeypatch):
    """Adding an option is one line in the declaration: both sides validate with the class it is on."""
    monkeypatch.setenv("RUOTA_DOCS_NO_SPEEDUPS", "setup_cache")

    class Extended(PluginConfig):
        colour = described(c.Choice(("red", "blue"), default="red"), "the badges' colour")

    monkeypatch.setattr(plugin_config, "PluginConfig", Extended)
    path = _site(tmp_path, "\n      colour: blue\n")
    assert _as_mkdocs_loads_it(path)["colour"] == "blue"
    assert site_config.read(tmp_path).options["colour"] == "blue" and not site_config.read(tmp_path).warnings
    _site(tmp_path, "\n      colour: green\n")
    with pytest.raises(site_config.ConfigError, match=r":4: plugins: ruota_docs: colour: .*\(the badges' colour\)"):
        site_config.read(tmp_path)


def test_mkdocs_names_the_file_and_line_of_a_refused_value_too(tmp_path):
    from ruota_docs.serve.plugin import LivePreviewPlugin

    path = _site(tmp_path, "\n      check_records: true\n      isolation: blok\n")
    errors, _ = LivePreviewPlugin().load_config({"check_records": True, "isolation": "blok"}, str(path))
    assert errors == [("isolation", f"Expected one of: ('page', 'block', 'variants') but received: 'blok' "
                                    f"({plugin_config.help_of(PluginConfig(), 'isolation')}) at {path}:5")]


def test_a_policy_that_is_not_one_is_refused_where_the_options_are_read(tmp_path):
    _site(tmp_path, "\n      policies:\n        html: maybe\n")
    with pytest.raises(site_config.ConfigError, match=r":4: plugins: ruota_docs: policies: html: 'maybe' is not a "
                                                      r"policy; write show, run or skip \"reason readers see\""):
        site_config.read(tmp_path)


@pytest.mark.parametrize("written", ["plugins:\n  ruota_docs: [1]\n", "plugins:\n  - ruota_docs_site\n  - ruota_docs: x\n"])
def test_options_that_are_not_a_mapping_are_refused_naming_the_plugins_line(tmp_path, written):
    (tmp_path / "mkdocs.yml").write_text(f"site_name: x\n{written}", encoding="utf-8")
    line = written.count("\n") + 1  # below site_name
    with pytest.raises(site_config.ConfigError, match=rf"mkdocs.yml:{line}: plugins: ruota_docs: its options must be "
                                                      r"a mapping \(option: value\)"):
        site_config.read(tmp_path)


def test_keys_of_any_type_in_the_options_are_read_and_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    _site(tmp_path, "\n      policies:\n        1: show\n        '': show\n")
    assert site_config.read(tmp_path).options["policies"] == {1: "show", "": "show"}
    assert site_config.read(tmp_path).options["policies"] == {1: "show", "": "show"}  # from what the first kept
