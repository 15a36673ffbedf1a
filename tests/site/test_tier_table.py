"""site.tier_table: per target, the highest evidence tier and how many machines reached each,
worded so that compiled never reads as run; and the status page's row of compiled blocks."""

from __future__ import annotations

import html
import re

import pytest
from cardsite import CPU, H200

from _support import RX7600, record_of, synthetic_record, write_tree
from ruota_docs.records import verdicts
from ruota_docs.site import evidence, fragments, matrix, tier_table

GUIDE = """\
    # Guía { #guide }

    ```python title="010_env.py"
    --8<-- "g/010_env.py"
    ```

    ```python title="020_self.py"
    --8<-- "g/020_self.py"
    ```

    <!-- requires: import=triton -->
    <!-- evidence: compiled arch=gfx1102,gfx906 -->
    ```python
    print("compiled")
    ```

    <!-- requires: gpu -->
    <!-- evidence: checked -->
    ```python
    print("checked")
    ```

    <!-- requires: rocm -->
    ```python
    print("ran")
    ```
    """
TABLE = {"guides/g.md": {"environment": ("g/010_env.py",), "self_test": ("g/020_self.py",)}}
COMPILED, CHECKED, RAN = 2, 3, 4


@pytest.fixture
def project(tmp_path):
    files = {"snippets/g/010_env.py": "print('env ok')\n", "snippets/g/020_self.py": "print('self-test ok')\n"}
    return write_tree(tmp_path / "project", files | {f"docs/{lang}/guides/g.md": GUIDE for lang in ("es", "en", "fr")},
                      conftest=False)


def record(project, machine, failed=()):
    def outcome(block):
        if block.index in failed:
            return "failed", "", None
        if block.index in (CHECKED, RAN) and machine["backend"] == "cpu":
            return "skipped", "", "requires a GPU; this machine: CPU only, x86_64"
        if block.index == RAN and machine["backend"] != "rocm":
            return "skipped", "", "requires ROCm"
        return "passed", "ok\n", None
    return synthetic_record(project, machine, outcome)


def words(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def rows(project, ledgers, lang="en"):
    guides = evidence.load_guides(project, project / "docs", lang, TABLE)
    found = tier_table.collect(guides, verdicts.index_ledgers([record_of(d) for d in ledgers]))
    return {row.label: ({t: len(m) for t, m in row.machines.items()}, tier_table.words(row, lang)) for row in found}


def test_each_target_shows_its_highest_tier_and_the_machines_per_tier(project):
    ledgers = [record(project, CPU), record(project, H200), record(project, RX7600)]
    assert rows(project, ledgers) == {
        "gfx1102": ({"compiled": 3, "ran": 1, "checked": 1}, "ran on gfx1102 and matched the reference"),
        "CUDA sm_90": ({"compiled": 0, "ran": 0, "checked": 1}, "ran on CUDA sm_90 and matched the reference"),
        "gfx906": ({"compiled": 3, "ran": 0, "checked": 0}, "compiled for gfx906"),
    }
    # in French, by the name the card matrix's page gives this kind of evidence
    assert rows(project, ledgers, "fr")["gfx1102"][1] == "validé sur gfx1102 (exécuté et conforme à la référence)"


def test_compiled_is_never_worded_as_run_in_any_language(project):
    ledgers = [record(project, CPU)]
    said = {lang: rows(project, ledgers, lang)["gfx1102"][1] for lang in ("en", "es", "fr")}
    assert said == {"en": "compiled for gfx1102", "es": "compilado para gfx1102", "fr": "compilé pour gfx1102"}
    # that CI compiles it again is said once, under the table, and only where a machine without a GPU compiled it
    guides = evidence.load_guides(project, project / "docs", "en", TABLE)
    shown = tier_table.table(guides, verdicts.index_ledgers([record_of(d) for d in ledgers]), "en")
    assert shown.count("On every commit") == 1 and shown.endswith(
        '<p class="ruota-matrix-note">On every commit, continuous integration (CI) also recompiles the code behind every “compiled for …” row on a machine with no GPU, and fails as soon as that code stops compiling.</p>')
    on_gpu = tier_table.table(guides, verdicts.index_ledgers([record_of(record(project, H200))]), "en")
    assert "on every commit" not in on_gpu
    assert rows(project, [record(project, H200)])["gfx1102"][1] == "compiled for gfx1102"


def test_failed_and_changed_results_reach_no_tier(project):
    assert rows(project, [record(project, CPU, failed=(COMPILED,))]) == {}
    ledgers = [record(project, RX7600)]
    for lang in ("es", "en", "fr"):  # the compiled block's code changed since it ran
        ledgers[0]["blocks"][f"{lang}/guides/g.md#{COMPILED}"]["sha256"] = "0" * 64
    assert rows(project, ledgers)["gfx1102"][0] == {"compiled": 0, "ran": 1, "checked": 1}


def test_a_recorded_tier_on_a_machine_without_a_gpu_counts_for_nothing(project):
    data = record(project, CPU)
    for lang in ("es", "en", "fr"):
        data["blocks"][f"{lang}/guides/g.md#{CHECKED}"] |= {"outcome": "passed", "reason": None, "tier": "checked"}
    assert rows(project, [data])["gfx1102"][0] == {"compiled": 1, "ran": 0, "checked": 0}


def test_the_card_matrix_carries_the_table(project):
    guides = evidence.load_guides(project, project / "docs", "fr", TABLE)
    page = matrix.card_matrix(guides, [record_of(record(project, CPU))], "fr", url=lambda page: f"../{page[3:-3]}/")
    table = page[page.index('<table><caption>Niveau'):]
    assert words(table[:table.index("</table>")]) == (
        "Niveau de preuve le plus élevé par architecture Cible Niveau maximal atteint Machines qui ont compilé "
        "Machines qui ont exécuté Machines qui ont validé le résultat gfx906 compilé pour gfx906 1 0 0 "
        "gfx1102 compilé pour gfx1102 1 0 0")
    assert page.count("recompile en outre, sur une machine sans GPU") == 1  # said once, under the table
    # a target's tooltip names the guides whose blocks gave its evidence: why a target no card row names is there
    titles = re.findall(r'<th scope="row" title="([^"]*)"><code>', table[:table.index("</table>")])
    assert [html.unescape(t) for t in titles] == ["D'après les blocs du guide «\u00a0" + guides[0].title + "\u00a0»"] * 2


def test_a_card_compiled_for_but_never_run_on_says_so(project):
    """The matrix's row of a card no machine ran on agrees with the tiers table under it."""
    guides = evidence.load_guides(project, project / "docs", "en", TABLE)
    cards = [("Radeon RX 7600", ("gfx1102",)), ("Radeon RX 6000", ("gfx1030",))]
    page = words(matrix.card_matrix(guides, [record_of(record(project, CPU))], "en", url=lambda page: page,
                                    cards=cards))
    assert "No record yet. Code has been compiled for gfx1102 but not run on this card (see “Evidence per target”)." in page
    assert "Radeon RX 6000 gfx1030 No record yet." in page
    # a card of several targets, compiled for some of them: the others are said not to be, yet
    cards = [("Radeon RX 7000", ("gfx1100", "gfx1102"))]
    for lang, said in (("en", "compiled for gfx1102 (not yet for gfx1100) but not run on any of these cards"),
                       ("es", "compilado código para gfx1102 (no para gfx1100), pero todavía no se ha ejecutado en "
                              "estas tarjetas"),
                       ("fr", "compilé pour gfx1102 (pas encore pour gfx1100), mais rien n'a encore été exécuté sur "
                              "ces cartes")):
        shown = words(matrix.card_matrix(evidence.load_guides(project, project / "docs", lang, TABLE),
                                         [record_of(record(project, CPU))], lang, url=lambda page: page, cards=cards))
        assert said in shown


def test_the_status_page_has_a_row_for_compiled_blocks(project):
    guides = evidence.load_guides(project, project / "docs", "es", TABLE)
    indexed = verdicts.index_ledgers([record_of(record(project, CPU))])
    items = [(b, indexed.verdict(g.page, b.index, b.sha256)) for g in guides for b in g.blocks]
    row = fragments._compiled_row([("Guía", "g/", items)], "es")
    # where and when: the machine that compiled, its date, and CI, which compiles on every commit as it does
    assert (row["count"], row["lines"]) == ("1", ["CPU x86-64: 1 de 1, compilado para gfx906 y gfx1102 (28 de "
                                                  "noviembre de 2026)", "La integración continua vuelve a compilar "
                                                  "estos bloques en cada commit, en una máquina sin GPU."])
    # a machine that ran only some of the group's pages: how many of its blocks it compiled
    unrun = [(b, verdicts.index_ledgers([]).verdict("es/guides/other.md", b.index, b.sha256)) for b, _ in items]
    row = fragments._compiled_row([("Guía", "g/", items), ("Otra", "o/", unrun)], "fr")
    assert (row["count"], row["lines"]) == ("2", ["CPU x86-64 : 1 compilé sur 2, pour gfx906 et gfx1102 (28 novembre "
                                                  "2026)", "L'intégration continue recompile ces blocs à chaque commit, "
                                                  "sur une machine sans GPU."])
    # a GPU machine is named as the status page's other tables name it, never by a shorter name of its own
    indexed = verdicts.index_ledgers([record_of(record(project, H200))])
    items = [(b, indexed.verdict(g.page, b.index, b.sha256)) for g in guides for b in g.blocks]
    on_gpu = fragments._compiled_row([("Guía", "g/", items)], "en")["lines"]
    assert len(on_gpu) == 1 and on_gpu[0].startswith("NVIDIA H200: 1 of 1 compiled, for gfx906 and gfx1102 (")
    two = verdicts.index_ledgers([record_of(record(project, H200)), record_of(record(project, CPU))])
    # CI's line only where a machine without a GPU compiled them, after every machine's line
    both = fragments._compiled_row([("Guía", "g/", [(b, two.verdict(g.page, b.index, b.sha256))
                                                    for g in guides for b in g.blocks])], "en")["lines"]
    assert both[-1] == "CI compiles these blocks again on every commit, on a machine without a GPU."
    shown = fragments.render("rocm_evidence", rows=[fragments._compiled_row([("Guía", "g/", [
        (b, two.verdict(g.page, b.index, b.sha256)) for g in guides for b in g.blocks])], "en")], lang="en")
    assert re.search(r"NVIDIA H200: 1 of 1 compiled, for [^<;]*<br>x86-64 CPU: 1 of 1 compiled, for", shown)  # a line per machine
    nothing = fragments._compiled_row([("Guía", "g/", [(b, verdicts.index_ledgers([]).verdict(
        "es/guides/g.md", b.index, b.sha256)) for b, _ in items])], "es")
    assert (nothing["lines"], nothing["where"]) == ([], "Ninguna máquina los ha ejecutado todavía")


def test_a_blocks_panel_says_which_tier_its_result_reached(project):
    data = record(project, CPU)
    for lang in ("es", "en", "fr"):
        data["blocks"][f"{lang}/guides/g.md#{COMPILED}"]["tier"] = "compiled"
    guides = evidence.load_guides(project, project / "docs", "fr", TABLE)
    block = guides[0].blocks[COMPILED]
    verdict = verdicts.index_ledgers([record_of(data)]).verdict("fr/guides/g.md", COMPILED, block.sha256)
    tabs = words(fragments.output_tabs(verdict, "fr", "u1", "fr/guides/g.md"))
    assert "compilé seulement" in tabs
    other = verdicts.index_ledgers([record_of(data)]).verdict("fr/guides/g.md", 0, guides[0].blocks[0].sha256)
    assert "compilé" not in words(fragments.output_tabs(other, "fr", "u2", "fr/guides/g.md"))


def test_a_target_that_ran_shows_a_dash_not_a_zero_for_compiled_only():
    """A 0 under "Machines that compiled" beside a target that ran would read as a failure to compile: an em dash
    with its reason instead; a target that only compiled keeps its zeros for what never ran."""
    ran = tier_table.TargetTiers("cuda", "sm_90", {"compiled": set(), "ran": {"h100"}, "checked": {"h100"}})
    built = tier_table.TargetTiers("rocm", "gfx906", {"compiled": {"cpu"}, "ran": set(), "checked": set()})
    shown = tier_table.table({}, None, "en", [ran, built])
    assert '<td class="ruota-num" title="Not applicable: on this target, the blocks were run, not only compiled">—</td>' in shown
    assert shown.count("—</td>") == 1 and "–" not in shown and shown.count('<td class="ruota-num">0</td>') == 2
