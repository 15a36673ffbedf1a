"""site.evidence: how far each card got through each guide, from the records and the guides' key blocks."""

from __future__ import annotations

import pytest
from cardsite import CPU, H200, INDEX, TABLE, run_on

from _support import REPO, RX7600, record_of, repo_plugin_options
from ruota_docs.records import verdicts
from ruota_docs.records.schema import Machine, Record
from ruota_docs.site import evidence, groups


def level(project, data, lang="es") -> evidence.Cell:
    guide = evidence.load_guides(project, project / "docs", lang, TABLE)[0]
    (ledger, pages), = verdicts.index_ledgers([record_of(data)])
    return evidence.cell(guide, ledger, pages)


# -- levels -------------------------------------------------------------------------------------------------------
def test_whole_guide_on_the_card(project):
    cell = level(project, run_on(project, RX7600))
    # network and Windows-only skips, and the author's skip, are not held against it
    assert (evidence.LEVELS[cell.level], cell.stopped_by) == ("whole_guide", None)


def test_a_block_that_needs_missing_hardware_stops_the_whole_guide(project):
    cell = level(project, run_on(project, CPU))
    assert evidence.LEVELS[cell.level] == "self_test"
    assert (cell.stopped_by.index, cell.stop) == (INDEX["rocm"], "skipped")
    assert cell.reached_by.index == INDEX["self"]


@pytest.mark.parametrize("states, reached, stop, at", [
    ({"env": "failed"}, "none", "failed", "env"),
    ({"env": "error"}, "none", "failed", "env"),
    ({"self": "failed"}, "environment", "failed", "self"),
    ({"env": "skipped"}, "none", "skipped", "env"),
    ({"any": "failed"}, "self_test", "failed", "any"),
    ({"network": "failed"}, "self_test", "failed", "network"),
])
def test_levels_stop_at_the_first_block_in_the_way(project, states, reached, stop, at):
    cell = level(project, run_on(project, RX7600, **states))
    assert (evidence.LEVELS[cell.level], cell.stop, cell.stopped_by.index) == (reached, stop, INDEX[at])


def test_a_network_block_skipped_for_more_than_the_network_counts_against_the_guide(project):
    """Network access says nothing about the card; a package the machine also lacked does: the record's reason code
    names the unmet terms, and only network access or another system alone is excused."""
    data = run_on(project, RX7600)
    entry = data["blocks"][f"es/guides/g.md#{INDEX['network']}"]
    assert entry["reason_code"]["args"]["terms"] == ["network"]  # skipped for the network alone: excused
    assert evidence.LEVELS[level(project, data).level] == "whole_guide"
    entry["reason_code"]["args"]["terms"] = ["network", "import=tensorflow"]
    cell = level(project, data)
    assert (evidence.LEVELS[cell.level], cell.stop, cell.stopped_by.index) == ("self_test", "skipped", INDEX["network"])


def test_changed_and_missing_blocks_do_not_count(project):
    data = run_on(project, RX7600)
    data["blocks"]["es/guides/g.md#1"]["sha256"] = "0" * 64  # the self-test ran with other code
    cell = level(project, data)
    assert (evidence.LEVELS[cell.level], cell.stop) == ("environment", "stale")
    del data["blocks"]["es/guides/g.md#2"]
    data["blocks"]["es/guides/g.md#1"] = run_on(project, RX7600)["blocks"]["es/guides/g.md#1"]
    cell = level(project, data)
    assert (evidence.LEVELS[cell.level], cell.stop, cell.stopped_by.index) == ("self_test", "absent", INDEX["any"])


def test_credited_translations_count(project):
    data = run_on(project, RX7600)
    for entry in data["blocks"].values():
        if entry["lang"] != "es":
            entry["reused_from"] = entry["page"].replace(entry["lang"] + "/", "es/", 1)
    assert evidence.LEVELS[level(project, data, "fr").level] == "whole_guide"


def test_key_blocks_must_still_be_on_the_page(project):
    with pytest.raises(evidence.EvidenceError, match=r"no block of es/guides/g.md includes g/030_gone.py any more"):
        evidence.load_guides(project, project / "docs", "es", {"guides/g.md": {"environment": ("g/030_gone.py",), "self_test": ()}})
    with pytest.raises(evidence.EvidenceError,
                       match=r"^mkdocs.yml \(plugins: ruota_docs: key_blocks\) names es/guides/nope.md, which does not exist"):
        evidence.load_guides(project, project / "docs", "es", {"guides/nope.md": {}})


def test_an_include_the_engine_missed_is_not_blamed_on_the_guide(project):
    """The guide still includes its key snippet: a capture that saw no include is the engine's fault."""
    def without_includes(path):
        blocks = evidence.page_blocks(project, project / "docs", path)
        for block in blocks:
            block.includes = ()
        return blocks

    with pytest.raises(evidence.EvidenceError) as raised:
        evidence.load_guides(project, project / "docs", "es", TABLE, blocks_of=without_includes)
    message = str(raised.value)
    assert message.startswith("es/guides/g.md:4 includes g/010_env.py, but the engine found no block that includes it")
    assert "compat.py" in message and "any more" not in message


def test_key_blocks_are_checked_where_the_site_gives_them():
    table = {"guides/g.md": {"environment": ["g/010_env.py"], "self_test": ["g/020_self.py"]}}
    assert evidence.key_blocks(table) == {
        "guides/g.md": {"environment": ("g/010_env.py",), "self_test": ("g/020_self.py",)}}
    with pytest.raises(evidence.EvidenceError, match=r"^mkdocs.yml \(plugins: ruota_docs: key_blocks\): guides/g.md: "
                                                       r"unknown key 'selftest'"):
        evidence.key_blocks({"guides/g.md": {"environment": [], "selftest": []}})
    with pytest.raises(evidence.EvidenceError,
                       match=r"guides/g.md: no self_test snippets; give each guide environment and self_test"):
        evidence.key_blocks({"guides/g.md": {"environment": ["g/010_env.py"]}})


def test_a_guides_short_title_heads_its_column_in_each_language(project):
    """The column and the machines' lists name a guide by the short title the site gives it, in the reader's
    language; a language without one keeps the heading up to its colon; a title that is not text stops the build."""
    table = {key: {**levels, "title": {"en": "A guide"}} for key, levels in TABLE.items()}
    checked = evidence.key_blocks(table)
    assert evidence.load_guides(project, project / "docs", "en", checked)[0].title == "A guide"
    assert evidence.load_guides(project, project / "docs", "es", checked)[0].title == "Una guía"
    with pytest.raises(evidence.EvidenceError, match=r"guides/g.md: title: give the guide's short title in each "
                                                     r"language"):
        evidence.key_blocks({key: {**levels, "title": "A guide"} for key, levels in TABLE.items()})
    with pytest.raises(evidence.EvidenceError, match=r"guides/g.md: title: "):
        evidence.key_blocks({key: {**levels, "title": {"en": " "}} for key, levels in TABLE.items()})


@pytest.mark.parametrize("target, error", [
    ("", "give the machines the guide is written for"),
    (["rocm"], "give the machines the guide is written for"),
    ("rocm arch=vega", "malformed target .vega."),
    ("rocmm", "unknown requirement .rocmm."),
    ("rocm network", "network says nothing a record's machine can show"),
])
def test_a_guides_target_is_checked_where_the_site_gives_it(target, error):
    table = {"guides/g.md": {"environment": ["g/010_env.py"], "self_test": ["g/020_self.py"], "target": target}}
    with pytest.raises(evidence.EvidenceError, match=r"^mkdocs.yml \(plugins: ruota_docs: key_blocks\): guides/g.md: "
                                                       r"target: .*" + error.replace("(", r"\(")):
        evidence.key_blocks(table)


def test_a_machine_the_guide_is_not_written_for_reaches_no_level(project):
    """Everything passed on the CPU record, environment and self-test included: with the guide's
    target, none of it counts there, while the card of that target keeps its level."""
    table = {key: {**levels, "target": "rocm arch=gfx1102"} for key, levels in TABLE.items()}
    guide = evidence.load_guides(project, project / "docs", "es", evidence.key_blocks(table))[0]
    for machine, expected in ((CPU, (0, True)), (H200, (0, True)), (RX7600, (3, False))):
        data = run_on(project, machine)
        for entry in data["blocks"].values():
            entry["outcome"] = "passed"
        (ledger, pages), = verdicts.index_ledgers([record_of(data)])
        cell = evidence.cell(guide, ledger, pages)
        assert (cell.level, cell.off_target) == expected, machine["backend"]
    untargeted = evidence.load_guides(project, project / "docs", "es", TABLE)[0]
    assert evidence.cell(untargeted, ledger, pages).off_target is False


def test_cards_without_a_record():
    cards = CARDS
    gfx1031 = Record(machine_id=None, machine=Machine.from_json(RX7600 | {"arch": "gfx1031"}))
    assert evidence.missing_cards([], cards) == list(cards)
    assert evidence.missing_cards([Record(machine_id=None, machine=Machine.from_json(RX7600)), gfx1031], cards) == [
        ("Radeon VII", ("gfx906",)), ("Radeon RX 6600–6950 XT", ("gfx1030", "gfx1032"))]
    # a CUDA record of the same name does not count
    assert ("Radeon RX 7600", ("gfx1102",)) in evidence.missing_cards([Record(machine_id=None, machine=Machine.from_json(H200))], cards)


@pytest.mark.realdocs
@pytest.mark.parametrize("lang", ["es", "en", "fr"])
def test_the_repositorys_guides_have_their_key_blocks(lang):
    table = evidence.key_blocks(repo_plugin_options()["key_blocks"])
    guides = evidence.load_guides(REPO, REPO / "docs", lang, table)
    assert [g.key for g in guides] == list(table)
    assert all(g.key_blocks["environment"] and g.key_blocks["self_test"] for g in guides)
    # every column of the card matrix by the same rule: the guide's short title, none a full heading
    assert all(g.title == table[g.key]["title"][lang] for g in guides)
    assert all(len(g.title) <= 40 for g in guides)


#: The site's cards, as mkdocs.yml gives them.
CARDS = evidence.target_cards(repo_plugin_options()["target_cards"])


def test_a_guide_lists_its_cards_targets_first_and_an_unknown_card_is_an_error():
    assert evidence.guide_targets({"guides/a.md": "Radeon VII"}, CARDS) == {"guides/a.md": ("gfx906",)}
    with pytest.raises(evidence.EvidenceError, match=r"guide_cards\): guides/a.md: no card 'Radeon 7' in "
                                                     r"target_cards \(it names 'Radeon RX 7600', "):
        evidence.guide_targets({"guides/a.md": "Radeon 7"}, CARDS)


def test_a_page_of_no_guide_has_no_card_first():
    groups.use_guide_targets({"guides/a.md": ("gfx906",)})
    assert groups.page_targets("fr/guides/a.md") == ("gfx906",) and groups.page_targets("fr/index.md") == ()
    groups.use_guide_targets({})
    assert groups.page_targets("fr/guides/a.md") == ()
