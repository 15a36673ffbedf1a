"""The card matrix: the levels of evidence (ruota_docs.site.evidence) and their HTML (ruota_docs.site.matrix)."""

from __future__ import annotations

import html
import re

import pytest
from cardsite import CPU, H200, TABLE, run_on

from _support import REPO, RX7600, record_of, repo_plugin_options
from ruota_docs.site import evidence, matrix


# -- the HTML --------------------------------------------------------------------------------------------------------
def words(fragment: str) -> str:
    """What a reader reads: each tag a space, but a line-break opportunity (``<wbr>``) nothing."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment.replace("<wbr>", ""))).split())


def rows(page: str) -> list[str]:
    body = page[page.index("<tbody>"):page.index("</tbody>")]
    return re.findall(r"<tr[^>]*>.*?</tr>", body)


#: The site's cards, as mkdocs.yml gives them.
CARDS = evidence.target_cards(repo_plugin_options()["target_cards"])


@pytest.fixture
def rendered(project):
    guides = evidence.load_guides(project, project / "docs", "en", TABLE)
    ledgers = [run_on(project, CPU), run_on(project, H200, rocm="skipped"), run_on(project, RX7600)]
    return matrix.card_matrix(guides, [record_of(d) for d in ledgers], "en", url=lambda page: f"../{page[3:-3]}/", cards=CARDS)


def test_rows_per_target_amd_first_then_cards_without_records(rendered):
    found = rows(rendered)
    targets = [re.search(r'<tr id="([^"]+)" class="ruota-matrix-target"', r)[1] for r in found if "ruota-matrix-target" in r]
    assert targets == ["target-gfx1102", "target-cuda-sm_90", "target-cpu-x86_64"]  # stable anchors
    amd = words(found[0])
    assert amd.startswith("gfx1102 AMD Radeon RX 7600 1 machine ")
    assert "Whole guide passed" in amd
    machines = words(found[1])  # under each target: its machines, expandable
    assert machines.startswith("Machines (1) AMD Radeon RX 7600 · gfx1102 · Linux x86-64 · PyTorch 2.9.1+rocm6.4 · "
                               "HIP 6.4.43482-0f2d60242 · 28 November 2026")
    assert machines.endswith("Whole guide passed (Una guía)")  # the level as the table names it, then the guide
    assert "<details><summary>" in found[1]
    assert words(found[3]).startswith("Machines (1) NVIDIA H200 · sm_90 · Linux x86-64 · PyTorch 2.11.0+cu130 · CUDA 13.0")
    # a CPU target named as the marks name it; its machine's GPU is none, not an architecture called "CPU only"
    assert words(found[4]).startswith("x86-64 CPU 1 machine ") and "<code>" not in found[4].split("</th>")[0]
    assert 'data-filter="x86_64 cpu x86-64 cpu' in found[4]  # the filter finds the row by the name it shows
    assert words(found[5]).startswith("Machines (1) x86-64 CPU (no GPU) · Linux x86-64 · PyTorch 2.13.0+cpu")
    # a record sent from its machine is said to be so, even from the kind of machine CI uses: never a CI run
    assert words(found[5]).endswith("· record submitted manually Self-test passed (Una guía)")
    assert "CI" not in words(found[5])
    missing = [words(r) for r in found if "ruota-matrix-missing" in r]
    # the call to send a record is the page's, once, not repeated in every such row
    assert missing == ["Radeon VII gfx906 No record yet.", "Radeon RX 6600–6950 XT gfx1030–gfx1032 No record yet."]
    assert "run-on-your-card" not in "".join(found)


@pytest.mark.parametrize("targets, shown", [
    (["gfx1030", "gfx1031", "gfx1032"], "gfx1030–gfx1032"),
    (["gfx1030", "gfx1031", "gfx1032", "gfx1034"], "gfx1030–gfx1032, gfx1034"),  # never a range over gfx1033
    (["gfx1100", "gfx1102"], "gfx1100, gfx1102"),
    (["gfx908", "gfx909", "gfx90a"], "gfx908–gfx90a"),  # hexadecimal: gfx90a follows gfx909
])
def test_a_card_row_names_only_its_own_targets(targets, shown):
    assert matrix.target_runs(targets) == shown


def test_cells_link_to_the_blocks(rendered):
    cpu = next(r for r in rows(rendered) if 'id="target-cpu-x86_64"' in r)
    cell = re.search(r'<td class="ruota-level ruota-level-2">(.*?)</td>', cpu)[1]
    assert '<a href="../guides/g/#ruota-block-1">Self-test passed</a>' in cell
    # the level it holds back, the block that level requires and why it does not count (one machine)
    assert words(cell).endswith("Stops short of “Whole guide passed”: the block at line 16 was skipped on this "
                                "machine (needs ROCm)")
    assert 'href="../guides/g/#ruota-block-3"' in cell
    whole = re.search(r'<td class="ruota-level ruota-level-3">(.*?)</td>', rows(rendered)[0])[1]
    assert '<a href="../guides/g/">Whole guide passed</a>' in whole


def test_machines_of_one_target_share_a_row_with_the_best_level_and_their_disagreement(project):
    guides = evidence.load_guides(project, project / "docs", "en", TABLE)
    second = RX7600 | {"gpu_name": "AMD Radeon RX 7600 XT"}
    ledgers = [run_on(project, RX7600) | {"fingerprint": "a" * 32}, run_on(project, second, any="failed") | {"fingerprint": "b" * 32},
               run_on(project, RX7600) | {"fingerprint": "c" * 32}]
    page = matrix.card_matrix(guides, [record_of(d) for d in ledgers], "en", url=lambda page: f"../{page[3:-3]}/")
    target = next(r for r in rows(page) if 'id="target-gfx1102"' in r)
    assert words(target).startswith("gfx1102 AMD Radeon RX 7600, AMD Radeon RX 7600 XT 3 machines, 1 sender "
                                    "Whole guide passed on 2 of 3 machines machines of this target disagree")
    assert 'class="ruota-level ruota-disagree ruota-level-3"' in target
    assert 'data-filter="gfx1102 rocm amd radeon rx 7600 amd radeon rx 7600 xt amd radeon rx 7600"' in target
    listed = next(r for r in rows(page) if 'data-for="target-gfx1102"' in r)
    assert words(listed).count("Whole guide passed (Una guía)") == 2 and "Self-test passed (Una guía)" in words(listed)
    assert len([r for r in rows(page) if "ruota-matrix-target" in r]) == 1


def test_the_filter_ships_with_the_site_and_needs_no_cdn(rendered):
    assert '<input type="search" class="ruota-matrix-filter" placeholder="Filter targets, cards and machines"' in rendered
    script = (REPO / "overrides/assets/javascripts/ruota.js").read_text(encoding="utf-8")
    assert ".ruota-matrix-filter" in script and "data-filter" in script and "http" not in script.split("card matrix's filter")[1]


def test_key_blocks_table_and_guide_titles(rendered):
    # collapsed under its caption, before the evidence table, so the page's words on that table follow it
    assert rendered.index("ruota-matrix-tiers") > rendered.index(
        '<details class="ruota-matrix-keys-details"><summary id="ruota-matrix-keys-title">Blocks that define each level</summary>')
    assert rendered.rindex("<table>") > rendered.index("ruota-matrix-tiers")  # the last table is the evidence table
    keys = rendered[rendered.index("ruota-matrix-keys"):]
    # named by its summary, once: a caption would repeat the title to a screen reader
    assert '<table aria-labelledby="ruota-matrix-keys-title">' in keys
    assert "<caption" not in keys.split("</details>")[0]
    assert "</table></div></div></details>" in keys
    assert words(keys).split("Blocks meant to run ", 1)[1].startswith("Una guía 010_env.py 020_self.py 6")
    assert '<a href="../guides/g/#ruota-block-0"><code>010_<wbr>env.py</code></a>' in keys
    # the column is the title up to its colon
    # a guide that names no target is said to be written for any machine, so its column lacks nothing
    assert ('<th scope="col"><a href="../guides/g/">Una guía</a>'
            '<span class="ruota-level-next">written for any machine</span></th>') in rendered


def test_a_guides_target_is_said_once_in_its_header_not_in_every_cell(project):
    """The machines a guide is written for head its column; a cell of another machine says only that it is
    not the guide's target (the target again in its tooltip), so a row of such cells stays short."""
    table = {key: {**levels, "target": "rocm arch=gfx1102"} for key, levels in TABLE.items()}
    for lang, header, cell, tip in (
            ("en", "guía written for ROCm on gfx1102", "Not this guide’s target", "The guide is written for ROCm"),
            ("es", "guía escrita para ROCm en gfx1102", "Fuera del ámbito de la guía", "La guía está escrita para"),
            ("fr", "écrit pour ROCm sur gfx1102", "Hors du périmètre du guide", "Le guide est écrit pour")):
        guides = evidence.load_guides(project, project / "docs", lang, evidence.key_blocks(table))
        page = matrix.card_matrix(guides, [record_of(run_on(project, CPU))], lang, url=lambda page: page)
        assert words(page[page.index("<thead>"):page.index("</thead>")]).endswith(header)
        cpu = next(r for r in rows(page) if 'id="target-cpu-x86_64"' in r)
        off = re.search(r'<td class="ruota-level ruota-level-off" title="([^"]*)">(.*?)</td>', cpu)
        assert words(off[2]) == cell and html.unescape(off[1]).startswith(tip)
        # nor in the row's list of machines: the guide is not written for any of them
        listed = next(r for r in rows(page) if 'data-for="target-cpu-x86_64"' in r)
        assert "ruota-matrix-levels" not in listed and cell.lower() not in words(listed).lower()


@pytest.mark.parametrize("lang, words_", [
    ("es", ["Autoprueba superada", "Aún no hay registros.",
            "No llega a «Guía completa verificada»: el bloque de la línea 16 se omitió en esta máquina "
            "(requiere ROCm)"]),
    ("fr", ["Autotest réussi", "Aucun relevé pour l'instant",
            "N'atteint pas « Guide entièrement vérifié » : le bloc de la ligne 16 n'a pas été exécuté sur cette machine "
            "(nécessite ROCm)"]),
])
def test_every_string_is_localised(project, lang, words_):
    guides = evidence.load_guides(project, project / "docs", lang, TABLE)
    page = words(matrix.card_matrix(guides, [record_of(run_on(project, CPU))], lang, url=lambda page: page, cards=CARDS))
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
    page = matrix.card_matrix(guides, [record_of(d) for d in ledgers], "en", url=lambda page: page)
    listed = next(r for r in rows(page) if 'data-for="target-gfx1102"' in r)
    assert words(listed).startswith(f"Machines ({matrix.LISTED_MACHINES + 3}) AMD Radeon RX 7600")
    assert listed.count("<li data-machine=") == matrix.LISTED_MACHINES
    assert words(listed).endswith("and 3 older machines: their records are in verification/")
    assert "· 23 November 2026 ·" in words(listed) and "· 3 November 2026 ·" not in words(listed)  # newest first


def test_a_block_that_shows_a_snippet_is_named_by_it(project):
    """Readers know a block by the file it shows, not by a line of the Markdown they never see."""
    guides = evidence.load_guides(project, project / "docs", "es", TABLE)
    page = words(matrix.card_matrix(guides, [record_of(run_on(project, H200, env="failed"))], "es", url=lambda page: page))
    assert "Entorno sin comprobar No llega a «Entorno comprobado»: el bloque 010_env.py falló" in page
    assert "línea" not in page.split("Qué bloques")[0]
