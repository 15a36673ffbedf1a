"""The card matrix: the levels of evidence (ruota_docs.site.evidence) and their HTML (ruota_docs.site.matrix)."""

from __future__ import annotations

import html
import re

import pytest

from _support import REPO, RX7600, repo_plugin_options, synthetic_record, write_tree
from ruota_docs.records import verdicts
from ruota_docs.site import evidence, matrix

GUIDE = """\
    # Una guía: con subtítulo { #guide }

    ```python title="010_env.py"
    --8<-- "g/010_env.py"
    ```

    ```python title="020_self.py"
    --8<-- "g/020_self.py"
    ```

    ```python
    print("any machine")
    ```

    <!-- requires: rocm -->
    ```python
    print("ROCm only")
    ```

    <!-- requires: network -->
    ```python
    print("downloads")
    ```

    <!-- run: skip reason="instala paquetes" -->
    ```bash
    pip install x
    ```

    ```powershell
    Write-Output "Windows"
    ```
    """
TABLE = {"guides/g.md": {"environment": ("g/010_env.py",), "self_test": ("g/020_self.py",)}}
CPU = {"backend": "cpu", "gpu_name": None, "arch": None, "vram_bytes": None, "gpu_count": 0, "os": "linux",
       "machine": "x86_64", "python": "3.11.7", "torch": "2.13.0+cpu", "hip": None, "cuda": None, "packages": {},
       "machine_id": "cpu-x86_64"}
H200 = CPU | {"backend": "cuda", "gpu_name": "NVIDIA H200", "arch": "sm_90", "vram_bytes": 150_109_880_320, "gpu_count": 1,
              "torch": "2.11.0+cu130", "cuda": "13.0", "machine_id": "cuda-nvidia-h200"}
INDEX = {"env": 0, "self": 1, "any": 2, "rocm": 3, "network": 4, "skip": 5, "windows": 6}


@pytest.fixture
def project(tmp_path):
    files = {"snippets/g/010_env.py": "print('env ok')\n", "snippets/g/020_self.py": "print('self-test ok')\n"}
    files |= {f"docs/{lang}/guides/g.md": GUIDE for lang in ("es", "en", "fr")}
    return write_tree(tmp_path / "project", files, conftest=False)


def run_on(project, machine, **states) -> dict:
    """A record where every block passed except ``states`` (``rocm="skipped"``…), network and
    Windows blocks skipped as a real run skips them, and the author's skip skipped."""
    def outcome(block):
        name = next(k for k, v in INDEX.items() if v == block.index)
        if name in states:
            return states[name], "", "requires something"
        if name in ("network", "windows", "skip"):
            return "skipped", "", "requires network access; this machine: offline (run with --network to allow)"
        if name == "rocm" and machine["backend"] != "rocm":
            return "skipped", "", "requires ROCm; this machine: CPU only, x86_64"
        return "passed", "ok\n", None
    return synthetic_record(project, machine, outcome)


def level(project, data, lang="es") -> evidence.Cell:
    guide = evidence.load_guides(project, project / "docs", lang, TABLE)[0]
    (ledger, pages), = verdicts.index_ledgers([data])
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
                                                       r"unknown level 'selftest'"):
        evidence.key_blocks({"guides/g.md": {"environment": [], "selftest": []}})
    with pytest.raises(evidence.EvidenceError,
                       match=r"guides/g.md: no self_test snippets; give each guide environment and self_test"):
        evidence.key_blocks({"guides/g.md": {"environment": ["g/010_env.py"]}})


def test_cards_without_a_record():
    cards = CARDS
    gfx1031 = {"machine": RX7600 | {"arch": "gfx1031"}}
    assert evidence.missing_cards([], cards) == list(cards)
    assert evidence.missing_cards([{"machine": RX7600}, gfx1031], cards) == [
        ("Radeon VII", ("gfx906",)), ("Radeon RX 6000", ("gfx1030", "gfx1032"))]
    # a CUDA record of the same name does not count
    assert ("Radeon RX 7600", ("gfx1102",)) in evidence.missing_cards([{"machine": H200}], cards)


@pytest.mark.realdocs
@pytest.mark.parametrize("lang", ["es", "en", "fr"])
def test_the_repositorys_guides_have_their_key_blocks(lang):
    table = evidence.key_blocks(repo_plugin_options()["key_blocks"])
    guides = evidence.load_guides(REPO, REPO / "docs", lang, table)
    assert [g.key for g in guides] == list(table)
    assert all(g.key_blocks["environment"] and g.key_blocks["self_test"] for g in guides)


# -- the HTML --------------------------------------------------------------------------------------------------------
def words(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def rows(page: str) -> list[str]:
    body = page[page.index("<tbody>"):page.index("</tbody>")]
    return re.findall(r"<tr[^>]*>.*?</tr>", body)


#: The site's cards, as mkdocs.yml gives them.
CARDS = evidence.target_cards(repo_plugin_options()["target_cards"])


@pytest.fixture
def rendered(project):
    guides = evidence.load_guides(project, project / "docs", "en", TABLE)
    ledgers = [run_on(project, CPU), run_on(project, H200, rocm="skipped"), run_on(project, RX7600)]
    return matrix.card_matrix(guides, ledgers, "en", url=lambda page: f"../{page[3:-3]}/", cards=CARDS)


def test_rows_per_target_amd_first_then_cards_without_records(rendered):
    found = rows(rendered)
    targets = [re.search(r'<tr id="([^"]+)" class="ruota-matrix-target"', r)[1] for r in found if "ruota-matrix-target" in r]
    assert targets == ["target-gfx1102", "target-cuda-sm_90", "target-cpu-x86_64"]  # stable anchors
    amd = words(found[0])
    assert amd.startswith("gfx1102 AMD Radeon RX 7600 1 machine ")
    assert "Whole guide passed" in amd
    machines = words(found[1])  # under each target: its machines, expandable
    assert machines.startswith("The machines (1) AMD Radeon RX 7600 · gfx1102 · Linux x86_64 · PyTorch 2.9.1+rocm6.4 · "
                               "HIP 6.4.43482-0f2d60242 · 28 Nov 2026")
    assert machines.endswith("Una guía: Whole guide passed")
    assert "<details><summary>" in found[1]
    assert words(found[3]).startswith("The machines (1) NVIDIA H200 · sm_90 · Linux x86_64 · PyTorch 2.11.0+cu130 · CUDA 13.0")
    assert words(found[5]).startswith("The machines (1) CPU only · Linux x86_64 · PyTorch 2.13.0+cpu")
    missing = [words(r) for r in found if "ruota-matrix-missing" in r]
    assert missing == ["Radeon VII gfx906 No record yet — run the suite on this card and send in its record",
                       "Radeon RX 6000 gfx1030–gfx1032 No record yet — run the suite on this card and send in its record"]
    assert 'href="../run-on-your-card/"' in found[-1]


def test_cells_link_to_the_blocks(rendered):
    cpu = next(r for r in rows(rendered) if 'id="target-cpu-x86_64"' in r)
    cell = re.search(r'<td class="ruota-level ruota-level-2">(.*?)</td>', cpu)[1]
    assert '<a href="../guides/g/#ruota-block-1">Self-test passed</a>' in cell
    assert words(cell).endswith("The block at line 16 was not run: needs ROCm")
    assert 'href="../guides/g/#ruota-block-3"' in cell
    whole = re.search(r'<td class="ruota-level ruota-level-3">(.*?)</td>', rows(rendered)[0])[1]
    assert '<a href="../guides/g/">Whole guide passed</a>' in whole


def test_machines_of_one_target_share_a_row_with_the_best_level_and_their_disagreement(project):
    guides = evidence.load_guides(project, project / "docs", "en", TABLE)
    second = RX7600 | {"gpu_name": "AMD Radeon RX 7600 XT"}
    ledgers = [run_on(project, RX7600) | {"fingerprint": "a" * 32}, run_on(project, second, any="failed") | {"fingerprint": "b" * 32},
               run_on(project, RX7600) | {"fingerprint": "c" * 32}]
    page = matrix.card_matrix(guides, ledgers, "en", url=lambda page: f"../{page[3:-3]}/")
    target = next(r for r in rows(page) if 'id="target-gfx1102"' in r)
    assert words(target).startswith("gfx1102 AMD Radeon RX 7600, AMD Radeon RX 7600 XT 3 machines · 3 independent "
                                    "Whole guide passed on 2 of 3 machines machines of this target disagree")
    assert 'class="ruota-level ruota-disagree ruota-level-3"' in target
    assert 'data-filter="gfx1102 rocm amd radeon rx 7600 amd radeon rx 7600 xt amd radeon rx 7600"' in target
    listed = next(r for r in rows(page) if 'data-for="target-gfx1102"' in r)
    assert words(listed).count("Una guía: Whole guide passed") == 2 and "Una guía: Self-test passed" in words(listed)
    assert len([r for r in rows(page) if "ruota-matrix-target" in r]) == 1


def test_the_filter_ships_with_the_site_and_needs_no_cdn(rendered):
    assert '<input type="search" class="ruota-matrix-filter" placeholder="Filter targets, cards and machines"' in rendered
    script = (REPO / "overrides/assets/javascripts/ruota.js").read_text(encoding="utf-8")
    assert ".ruota-matrix-filter" in script and "data-filter" in script and "http" not in script.split("card matrix's filter")[1]


def test_key_blocks_table_and_guide_titles(rendered):
    keys = rendered[rendered.index("ruota-matrix-keys"):]
    assert "<caption>Which blocks mark each level</caption>" in keys
    assert words(keys).split("Blocks meant to run ", 1)[1].startswith("Una guía 010_env.py 020_self.py 6")
    assert '<a href="../guides/g/#ruota-block-0"><code>010_env.py</code></a>' in keys
    # the column is the title up to its colon
    assert '<th scope="col"><a href="../guides/g/">Una guía</a></th>' in rendered


@pytest.mark.parametrize("lang, words_", [
    ("es", ["Autoprueba superada", "Todavía no hay ningún registro", "El bloque de la línea 16 no se ejecutó: requiere ROCm"]),
    ("fr", ["Autotest réussi", "Aucun relevé pour l'instant",
            "Le bloc de la ligne 16 n'a pas été exécuté : nécessite ROCm"]),
])
def test_every_string_is_localised(project, lang, words_):
    guides = evidence.load_guides(project, project / "docs", lang, TABLE)
    page = words(matrix.card_matrix(guides, [run_on(project, CPU)], lang, url=lambda page: page, cards=CARDS))
    for expected in words_:
        assert expected in page
    assert "passed" not in page and "No record" not in page


def test_no_ledger_at_all(project):
    guides = evidence.load_guides(project, project / "docs", "en", TABLE)
    page = matrix.card_matrix(guides, [], "en", url=lambda page: page, cards=CARDS)
    assert [r for r in rows(page) if "ruota-matrix-target" in r] == []
    assert len([r for r in rows(page) if "ruota-matrix-missing" in r]) == 3


def test_a_targets_list_shows_its_newest_machines(project):
    guides = evidence.load_guides(project, project / "docs", "en", TABLE)
    ledgers = [run_on(project, RX7600) | {"fingerprint": f"{n:032x}", "updated": f"2026-11-{1 + n:02d}T10:00:00Z"}
               for n in range(matrix.LISTED_MACHINES + 3)]
    page = matrix.card_matrix(guides, ledgers, "en", url=lambda page: page)
    listed = next(r for r in rows(page) if 'data-for="target-gfx1102"' in r)
    assert words(listed).startswith(f"The machines ({matrix.LISTED_MACHINES + 3}) AMD Radeon RX 7600")
    assert listed.count("<li data-machine=") == matrix.LISTED_MACHINES
    assert words(listed).endswith("and 3 older machines: their records are in verification/")
    assert "· 23 Nov 2026 ·" in words(listed) and "· 3 Nov 2026 ·" not in words(listed)  # newest first
