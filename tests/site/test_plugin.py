"""The MkDocs plugin: a small sample site built with a hand-written ledger, checked in its HTML."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import shutil
from pathlib import Path

import pytest

from _support import (OVERRIDES, REPO, RX7600, article, mkdocs_yml, panels, record_of, run_mkdocs, run_pytest,
                      synthetic_record, words, write_tree)
from ruota_docs.records import reason_codes
from ruota_docs.translations import staleness
from ruota_docs.blocks.site_config import load_mkdocs_config

# -- the sample site -------------------------------------------------------------------------------------------
PAGE = """\
    # {title} {{ #home }}

    {intro}

    {claim} <!-- fact: checked={recent} source=https://example.org/recent -->, {old_claim} <!-- fact: checked=2020-01-02 source=https://example.org/old -->.

    <!-- chart: block=bench metrics=seconds_per_epoch unit=s title="{chart}" reported="{reported}=28.6" -->

    <!-- requires: rocm arch=gfx906 vram>=8GiB -->
    ```python
    print("gfx906 only")
    ```

    ```python
    print("hola")
    ```

    ```python
    raise SystemExit(1)
    ```

    ```python
    print("changed since it ran")
    ```

    <!-- run: skip reason="{reason}" -->
    ```bash
    apt install foo
    ```

    <!-- run: id=bench -->
    ```python
    print("seconds_per_epoch: 12.41")
    ```

    !!! note "{note}"

        <!-- requires: cuda -->
        ```python
        print("in a note")
        ```
    """
WORDS = {
    "es": dict(title="Inicio", intro="Una página de prueba.", claim="Una versión", old_claim="y otra", chart="Segundos por época", reported="CPU (documento fuente)",
               reason="instala paquetes", note="Dentro"),
    "en": dict(title="Home", intro="A test page.", claim="A version", old_claim="and another", chart="Seconds per epoch", reported="CPU (source document)",
               reason="installs packages", note="Inside"),
    "fr": dict(title="Accueil", intro="Une page de test.", claim="Une version", old_claim="et une autre", chart="Secondes par époque", reported="CPU (document source)",
               reason="installe des paquets", note="Dedans"),
}
CODES = ['print("gfx906 only")', 'print("hola")', "raise SystemExit(1)", 'print("changed since it ran")',
         "apt install foo", 'print("seconds_per_epoch: 12.41")', 'print("in a note")']
STALE_CODE = 'print("the code as it was")'
CPU = {"backend": "cpu", "gpu_name": None, "arch": None, "vram_bytes": None, "gpu_count": 0, "os": "linux",
       "machine": "x86_64", "python": "3.11.7", "torch": "2.13.0+cpu", "hip": None, "cuda": None,
       "packages": {"torch": "2.13.0+cpu", "numpy": "2.4.6"}, "machine_id": "cpu-x86_64"}
H200 = CPU | {"backend": "cuda", "gpu_name": "NVIDIA H200", "arch": "sm_90", "vram_bytes": 150_754_820_096, "gpu_count": 1,
              "torch": "2.13.0+cu130", "cuda": "13.0", "packages": {"torch": "2.13.0+cu130"}, "machine_id": "cuda-nvidia-h200"}
NB, NN = "\u00a0", "\u202f"  # no-break space, narrow no-break space
RECENT = dt.date.today() - dt.timedelta(days=3)  # a fact checked lately; the other one, in 2020, has expired


def sha(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def entry(page: str, index: int, outcome: str, code: str, output: str = "", when: str = "2026-11-20T10:00:00Z", **extra) -> dict:
    return {"page": page, "lang": page[:2], "index": index, "line": 1, "language": "python", "sha256": sha(code),
            "id": "bench" if index == 5 else None, "outcome": outcome, "reason": None, "error": None, "duration": 1.5,
            "output": output, "ran_at": when, "reused_from": None} | extra


def coded(code: str, **args) -> dict:
    """An entry's reason and its code, as the engine records them."""
    found = reason_codes.reason(code, **args)
    return {"reason": found.english(), "reason_code": found.to_record()}


def ledgers() -> dict[str, dict]:
    cpu, cuda = {}, {}
    for lang in ("es", "en", "fr"):
        page = f"{lang}/index.md"
        credited = {"reused_from": "es/index.md"} if lang != "es" else {}
        rows = [
            entry(page, 0, "skipped", CODES[0], **coded("requires", terms=["rocm", "arch=gfx906", "vram>=8GiB"],
                                                      machine=["CPU only, x86_64"])),
            entry(page, 1, "passed", CODES[1], "hola\n", **credited),
            entry(page, 2, "failed", CODES[2], reason="SystemExit: 1", error="SystemExit: 1"),
            entry(page, 3, "passed", STALE_CODE, "old\n"),
            entry(page, 4, "skipped", CODES[4], **coded("not_run", why="installs packages")),
            entry(page, 5, "passed", CODES[5], "seconds_per_epoch: 12.41\n"),
            entry(page, 6, "skipped", CODES[6], **coded("requires", terms=["cuda"], machine=["CPU only, x86_64"])),
        ]
        cpu.update({f"{page}#{e['index']}": e for e in rows})
        when = "2026-11-21T08:00:00Z"
        requires = {"code": "requires", "args": {"terms": ["rocm", "arch=gfx906"], "machine": ["CUDA, NVIDIA H200"]}}
        rows = [
            entry(page, 0, "skipped", CODES[0], reason="requires ROCm, arch gfx906; this machine: CUDA, NVIDIA H200", when=when,
                  reason_code=requires),
            entry(page, 1, "passed", CODES[1], "hola\n", when=when, **credited),
            entry(page, 5, "passed", CODES[5], "epoch done\nseconds_per_epoch: 3.5 s\n", when=when),
            entry(page, 6, "passed", CODES[6], "in a note\n", when=when),
        ]
        cuda.update({f"{page}#{e['index']}": e for e in rows})
    wrap = lambda machine, blocks: {"schema": 1, "kind": "ruota-docs/ledger", "machine_id": machine["machine_id"],  # noqa: E731
                                    "machine": machine, "updated": "2026-11-21T08:00:00Z", "blocks": blocks}
    return {"cpu-x86_64.json": wrap(CPU, cpu), "cuda-nvidia-h200.json": wrap(H200, cuda)}


def site_files() -> dict[str, str]:
    files = {f"docs/{lang}/index.md": PAGE.format(**WORDS[lang], recent=RECENT.isoformat()) for lang in ("es", "en", "fr")}
    files |= {
        "docs/es/verification-status.md": "# Estado { #status }\n\n<!-- verification-status: -->\n",
        "docs/en/verification-status.md": "# Status { #status }\n\n<!-- verification-status: -->\n",
        "docs/fr/verification-status.md": "# État { #status }\n\n<!-- verification-status: -->\n",
        "docs/es/solo.md": "# Solo en español { #solo }\n\nTexto: en español, sin espacio antes de los dos puntos.\n",
    }
    return files


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = write_tree(tmp_path_factory.mktemp("site"), site_files(), site=True, conftest=False)
    for name, data in ledgers().items():
        (root / "verification").mkdir(exist_ok=True)
        (root / "verification" / name).write_text(record_of(data).to_json(), encoding="utf-8")
    # the French page is in sync with its source; the English one records nothing
    staleness.mark_synced(root / "docs", "fr/index.md")
    result = run_mkdocs(root)
    assert result.returncode == 0, result.stderr[-4000:]
    return root / "site"


@pytest.fixture(scope="module")
def es(site):
    return article(site / "index.html")


@pytest.fixture(scope="module")
def en(site):
    return article(site / "en" / "index.html")


@pytest.fixture(scope="module")
def fr(site):
    return article(site / "fr" / "index.html")


def test_sample_config_uses_the_sites_extensions():
    """The sample site renders with the same Markdown extensions as the real one."""
    def names(config):
        return [next(iter(e)) if isinstance(e, dict) else e for e in config["markdown_extensions"]]
    real = load_mkdocs_config(REPO)
    sample = load_mkdocs_config_text(mkdocs_yml(site=True))
    assert names(sample) == names(real)


def load_mkdocs_config_text(text: str) -> dict:
    from ruota_docs.blocks.site_config import load_yaml

    return load_yaml(text)  # a SafeLoader that reads MkDocs' tags as None


# -- blocks ----------------------------------------------------------------------------------------------------------
def test_requirement_badges(es):
    badges = re.findall(r'<div class="ruota-requires" role="note">(.*?)</div>', es)
    assert len(badges) == 2
    assert re.findall(r'<span class="ruota-badge">(.*?)</span>', badges[0]) == ["ROCm", "gfx906", f"VRAM ≥{NB}8{NB}GiB"]
    assert '<span class="ruota-requires-label">Requiere</span>' in badges[0]
    assert re.findall(r'<span class="ruota-badge">(.*?)</span>', badges[1]) == ["CUDA"]
    # the badges come before their block's code
    assert es.index(badges[0]) < es.index("gfx906 only")


def test_every_block_has_a_panel(es):
    states = [re.match(r'<div class="ruota-verify ruota-state-(\w+)"', p)[1] for p in panels(es)]
    assert states == ["skipped", "passed", "failed", "stale", "notrun", "passed", "passed"]


def test_output_tabs_labelled_with_the_machine(es):
    panel = panels(es)[1]
    labels = re.findall(r'<label for="__ruota_1_\d">(.*?)</label>', panel)
    # the GPU's output first; the CPU printed the same: one tab for both
    assert labels == ["NVIDIA H200 y CPU x86-64"]  # a CPU named as the marks name it, never "x86_64"
    assert panel.count('<pre class="ruota-output" tabindex="0" role="region" '
                       'aria-label="Salida en NVIDIA H200 y CPU x86-64"><code>hola\n</code></pre>') == 1
    assert '<div class="tabbed-labels" aria-label="Salida en cada máquina">' in panel
    assert f"21 de noviembre de 2026 · duración: 1,5{NB}s" in panel  # the GPU's run


def test_verified_mark_with_date(es):
    panel = panels(es)[1]
    # the tabs keep each machine's exact label; the mark's sentence names them as prose does
    assert ('<li class="ruota-mark-passed"><span>Verificado en una NVIDIA H200 y en una CPU x86-64 '
            "(última ejecución: 21 de noviembre de 2026)</span></li>") in panel


def test_skipped_reason(es, en):
    panel = panels(es)[0]
    # the page names the unmet terms in its language, from the reason code
    assert ('<li class="ruota-mark-skipped"><span>Omitido en una CPU x86-64: requiere ROCm, una GPU gfx906 '
            f"y al menos 8{NB}GiB de VRAM</span></li>") in panel
    assert "<span>Omitido en una NVIDIA H200: requiere ROCm y una GPU gfx906</span>" in panel
    assert "ruota-output" not in panel
    assert f"<span>Skipped on an x86-64 CPU: needs ROCm, a gfx906 GPU and at least 8{NB}GiB of VRAM</span>" in panels(en)[0]


def test_author_reason_for_not_running(es):
    panel = panels(es)[4]
    assert '<li class="ruota-mark-notrun"><span>Excluido deliberadamente de las pruebas: este bloque instala paquetes</span></li>' in panel
    assert "ruota-mark-skipped" not in panel


def test_failed_mark(es):
    panel = panels(es)[2]
    # a Python error is not repeated in the mark: the output below shows it
    assert '<li class="ruota-mark-failed"><span>Falló en una CPU x86-64 el 20 de noviembre de 2026</span></li>' in panel
    assert 'aria-label="Salida en CPU x86-64"><code>SystemExit: 1' in panel
    assert "ruota-mark-passed" not in panel


def test_stale_block_is_never_green(es):
    panel = panels(es)[3]
    assert '<li class="ruota-mark-stale"><span>Sin verificar: el código cambió desde su última ejecución</span></li>' in panel
    assert "ruota-mark-passed" not in panel and "Verificado" not in panel
    assert "old" not in words(panel)


def test_block_inside_an_admonition(es):
    note = es[es.index('<div class="admonition note">'):]
    assert '<span class="ruota-badge">CUDA</span>' in note
    assert "Verificado en una NVIDIA H200 el 21 de noviembre de 2026" in panels(note)[0]


def test_no_paragraph_wraps_a_block(es):
    assert "<p><div" not in es
    assert not re.search(r"</div>\s*</p>", es)


def test_page_summary(es):
    summary = re.search(r'<div class="ruota-summary ruota-state-(\w+)"><div><p>(.*?)</p><ul>(.*?)</ul><p>(.*?)</p>', es)
    assert summary[1] == "failed"
    assert summary[2] == ("En esta página se han verificado tres de los siete bloques de código en al menos una de las "
                          "dos máquinas de pruebas (última ejecución: 21 de noviembre de 2026). Los demás:")
    assert summary[3] == ("<li>uno falló en su última ejecución;</li><li>uno está sin verificar en su forma actual;</li>"
                          "<li>uno se excluye deliberadamente de las pruebas;</li><li>uno se ha omitido en las dos "
                          "máquinas de pruebas.</li>")  # as the first sentence counts them: two, not "every"
    assert summary[4] == "La marca de cada uno explica el motivo."
    # right under the title
    assert es.index("ruota-summary") > es.index("<h1") and es.index("ruota-summary") < es.index("Una página de prueba")


# -- page directives -------------------------------------------------------------------------------------------------
def test_chart(es, en):
    figure = es[es.index('<figure class="ruota-figure" tabindex="0">'):]
    figure = figure[:figure.index("</figure>")]
    assert '<svg class="ruota-chart" role="img"' in figure and 'aria-label="Segundos por época"' in figure
    assert "<figcaption>Segundos por época</figcaption>" in figure
    rows = re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td><td class=\"ruota-num\">(.*?)</td></tr>", figure)
    assert rows == [("NVIDIA H200", "medido", "3,50"), ("CPU x86-64", "medido", "12,41"),
                    ("CPU (documento fuente)", "según otras fuentes", "28,60")]  # one precision per chart
    assert "<th>Máquina</th><th>Procedencia</th><th>Valor (s)</th>" in figure
    assert f">12,41{NB}s</text>" in figure and 'class="ruota-chart-bar ruota-chart-reported" fill="url(#ruota-hatch)"' in figure
    assert "<!-- chart:" not in es and "<!-- requires:" not in es
    en_rows = re.findall(r"<td class=\"ruota-num\">(.*?)</td>", en[en.index('<figure class="ruota-figure" tabindex="0">'):])
    assert en_rows[:3] == ["3.50", "12.41", "28.60"]


def test_verification_status_page(site):
    page = article(site / "verification-status" / "index.html")
    assert '<svg class="ruota-chart" role="img"' in page and "<figcaption>Resultados por máquina</figcaption>" in page
    table = page[page.index("ruota-status-table"):]
    table = table[:table.index("</table>")]
    assert "<th>Página</th><th>Bloques</th><th>NVIDIA H200</th><th>CPU x86-64</th>" in table
    row = re.search(r'<tr><td><a href="([^"]+)">Inicio</a></td><td class="ruota-num">7</td>(.*?)</tr>', table)
    assert row[1] == "../"
    cuda, cpu = re.findall(r"<td>(.*?)</td>", row[2])
    count = lambda cell, state: re.search(rf'ruota-mark-{state}" title="[^"]+"><span aria-hidden="true">(\d+)</span>', cell)  # noqa: E731
    assert (count(cpu, "passed")[1], count(cpu, "failed")[1], count(cpu, "skipped")[1], count(cpu, "stale")[1]) == ("2", "1", "2", "1")
    assert count(cpu, "notrun")[1] == "1"  # the block whose author never runs it: counted apart from the skipped
    assert (count(cuda, "passed")[1], count(cuda, "skipped")[1], count(cuda, "stale")[1]) == ("3", "1", "3")
    assert count(cuda, "failed") is None
    # pages without blocks are not listed
    assert "Solo en español" not in table and "Estado" not in table
    machines = page[page.index("ruota-machines"):]
    assert "<td>NVIDIA H200</td><td>CUDA</td><td>NVIDIA H200 · sm_90</td>" in machines
    assert "Linux x86-64 · Python 3.11.7 · CUDA 13.0" in machines and "PyTorch 2.13.0+cu130" in machines and "21 de noviembre de 2026" in machines
    assert "<!-- verification-status" not in page


# -- languages ---------------------------------------------------------------------------------------------------------
def test_english_strings(en):
    assert '<span class="ruota-requires-label">Requires</span>' in en
    assert "Verified on an NVIDIA H200 and an x86-64 CPU, most recently on 21 November 2026" in panels(en)[1]
    assert "Failed on an x86-64 CPU on 20 November 2026" in panels(en)[2]
    assert "Not yet verified: this code has changed since it last ran" in panels(en)[3]
    assert "Not tested by design: this block installs packages" in panels(en)[4]
    # the run time says what it is; the copy whose run is credited is said in the tooltip, not in the line
    assert (f'<p class="ruota-output-meta" title="This result was recorded on the Spanish version of this page, whose '
            f'code is identical.">21 November 2026 · took 1.5{NB}s</p>') in panels(en)[1]
    assert ("On this page, three of the seven code blocks have been verified on at least one of the two test machines "
            "(last run: 21 November 2026).") in en
    assert "Requiere" not in en and "Verificado" not in en


def test_french_strings(fr):
    assert '<span class="ruota-requires-label">Nécessite</span>' in fr
    # a day keeps its month on one line (no-break space)
    assert f"Vérifié sur une NVIDIA H200 et sur un CPU x86-64, dernière exécution le 21{NB}novembre 2026" in panels(fr)[1]
    assert f"Échec sur un CPU x86-64 le 20{NB}novembre 2026" in panels(fr)[2]
    # French typography, applied to the built page: no-break space before the colon
    assert f"Volontairement exclu des tests{NB}: ce bloc installe des paquets" in panels(fr)[4]
    assert ('title="Ce résultat provient de l’exécution de la version espagnole de cette page, dont le code est identique."'
            in panels(fr)[1])
    assert f"21{NB}novembre 2026 · durée{NB}: 1,5{NB}s</p>" in panels(fr)[1]  # the run time, said as such
    assert ("Sur cette page, trois blocs de code sur sept ont été vérifiés sur au moins une des deux machines de test "
            f"(dernière exécution le 21{NB}novembre 2026). Les autres{NB}:</p><ul><li>l’un a échoué lors de sa dernière "
            f"exécution{NN};</li><li>un autre n") in fr.replace("&#x27;", "'")
    assert '<td class="ruota-num">12,41</td>' in fr


def test_stale_translation_banner(en, fr):
    assert '<div class="admonition warning ruota-banner"><p>This translation may be out of date: the Spanish original changed on ' in en
    # the French page records the hash of its source
    assert "ruota-banner" not in fr


def test_untranslated_page_banner(site):
    page = article(site / "en" / "solo" / "index.html")
    assert "This page has not been translated yet; you are reading the Spanish original." in page
    assert "ruota-banner" not in article(site / "solo" / "index.html")


def test_a_page_shown_in_its_source_language_says_so(site):
    """The Spanish original on the French site: marked Spanish, with its French banner, and no
    French typography on the Spanish text."""
    page = (site / "fr" / "solo" / "index.html").read_text(encoding="utf-8")
    assert '<article lang="es" class="md-content__inner md-typeset">' in page
    assert (f'<div lang="fr" class="admonition note ruota-banner"><p>Cette page n’est pas encore traduite{NN}; '
            "vous lisez l’original espagnol.</p></div>") in page
    assert "<p>Texto: en español, sin espacio antes de los dos puntos.</p>" in page
    assert '<article lang="es"' not in (site / "solo" / "index.html").read_text(encoding="utf-8")


# -- other ledgers ------------------------------------------------------------------------------------------------------
def small_site(tmp_path) -> Path:
    files = {f"docs/{lang}/index.md": "# Inicio { #home }\n\n```python\nprint('hola')\n```\n" for lang in ("es", "en", "fr")}
    return write_tree(tmp_path, files, site=True, conftest=False)


def test_corrupt_ledger_fails_the_build(tmp_path):
    root = small_site(tmp_path)
    (root / "verification").mkdir()
    bad = root / "verification" / "cpu-x86_64.json"
    bad.write_text('{"schema": 1, "kind": "ruota-docs/ledger", "blocks": {', encoding="utf-8")
    result = run_mkdocs(root)
    assert result.returncode != 0
    assert f"ruota_docs: {bad}: not valid JSON" in result.stderr
    assert bad.read_text(encoding="utf-8") == '{"schema": 1, "kind": "ruota-docs/ledger", "blocks": {'


def test_missing_verification_folder_builds(tmp_path):
    root = small_site(tmp_path)
    result = run_mkdocs(root)
    assert result.returncode == 0, result.stderr[-3000:]
    page = article(root / "site" / "index.html")
    assert '<li class="ruota-mark-never"><span>Sin verificar: ninguna ejecución ha registrado este bloque</span></li>' in page
    assert "Ningún bloque de código de esta página se ha verificado todavía." in page


def test_unreadable_page_fails_the_build(tmp_path):
    root = small_site(tmp_path)
    (root / "docs/es/index.md").write_text("# Inicio\n\n<!-- requires: gpu colour=red -->\n```python\npass\n```\n")
    result = run_mkdocs(root)
    assert result.returncode != 0
    assert "es/index.md:3: unknown requirement 'colour'" in result.stderr


def test_a_translated_page_counts_lines_from_its_file(tmp_path):
    """Lines named by the build are the file's, below a translation's front matter too."""
    root = small_site(tmp_path)
    (root / "docs/fr/index.md").write_text("---\ntranslation_of: 0123456789ab\n---\n\n# Accueil\n\n"
                                           "<!-- requires: gpu colour=red -->\n```python\npass\n```\n")
    result = run_mkdocs(root)
    assert result.returncode != 0
    assert "fr/index.md:7: unknown requirement 'colour'" in result.stderr


def test_engine_record_round_trip(tmp_path):
    """What the engine records is what the site shows: same keys and hashes, includes expanded."""
    files = {"snippets/g/hello.py": "print('from a snippet')\n"}
    page = ("# Inicio { #home }\n\n```python title=\"hello.py\"\n--8<-- \"g/hello.py\"\n```\n\n"
            "!!! note\n\n    ```python\n    print('in a note')\n    ```\n")
    files |= {f"docs/{lang}/index.md": page for lang in ("es", "en", "fr")}
    root = write_tree(tmp_path, files, site=True)
    result = run_pytest(root, "--record", "verification/here.json")
    assert result.returncode == 0, result.stdout[-3000:]
    built = run_mkdocs(root)
    assert built.returncode == 0, built.stderr[-3000:]
    for path in (root / "site" / "index.html", root / "site" / "en" / "index.html"):
        blocks = panels(article(path))
        assert len(blocks) == 2
        assert all("ruota-state-passed" in p for p in blocks)
        assert "from a snippet" in blocks[0] and "in a note" in blocks[1]
    shutil.rmtree(root / "site")


def test_a_site_overrides_a_fragment_from_its_custom_dir(tmp_path):
    """``overrides/ruota/<name>.html`` in the theme's custom_dir replaces the package's template."""
    root = small_site(tmp_path)
    overrides = root / "overrides"
    shutil.copytree(OVERRIDES, overrides)
    (overrides / "ruota").mkdir()
    (overrides / "ruota" / "page_summary.html").write_text(
        '<p class="site-summary">{{ parts | join(" / ") }}</p>\n', encoding="utf-8")
    config = root / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8").replace(str(OVERRIDES), str(overrides)), encoding="utf-8")
    result = run_mkdocs(root)
    assert result.returncode == 0, result.stderr[-3000:]
    page = article(root / "site" / "index.html")
    assert re.search(r'<p class="site-summary">Ningún bloque de código [^<]* / [^<]*</p>', page)
    assert "ruota-summary" not in page
    # the templates it does not override are the package's
    assert '<ul class="ruota-marks"><li class="ruota-mark-never">' in page


def test_the_site_expands_every_page_directive():
    from ruota_docs.blocks import directives
    from ruota_docs.site import plugin

    assert set(plugin.PAGE_DIRECTIVE_EXPANDERS) == set(directives.PAGE_DIRECTIVES)


def test_card_matrix_options_that_name_no_level_fail_the_build(tmp_path):
    root = small_site(tmp_path)
    config = root / "mkdocs.yml"
    text = re.sub(r"key_blocks: \{.*\}", 'key_blocks: {"guides/g.md": {"environment": ["g/a.py"], "selftest": []}}',
                  config.read_text(encoding="utf-8"))
    config.write_text(text, encoding="utf-8")
    result = run_mkdocs(root)
    assert result.returncode != 0
    assert ("ruota_docs: mkdocs.yml (plugins: ruota_docs: key_blocks): guides/g.md: unknown key 'selftest'"
            in result.stderr)


def test_the_api_reference_is_english_but_the_sites_own_words_are_not():
    """mkdocstrings' docstrings are marked English; the panels, "Bases:" and "Examples:" inside them are in the
    reader's language, so French spacing reaches them; the English pages are left as they are."""
    from ruota_docs.site import plugin as site_plugin

    page = ('<div class="doc doc-object doc-class"><p class="doc doc-class-bases">\n  Bases: <code>ValueError</code></p>'
            '<p><span class="doc-section-title">Examples:</span></p>'
            '<div class="ruota-verify ruota-state-notrun" id="ruota-block-0">…</div></div>')
    fr = site_plugin._api_in_english(page, "fr")
    assert fr.startswith('<div lang="en" class="doc doc-object doc-class">'
                         '<p lang="fr" class="doc doc-class-bases">Hérite de : <code>ValueError</code>')
    assert '<div lang="fr" class="ruota-verify ruota-state-notrun"' in fr
    assert '<p lang="fr"><span class="doc-section-title">Exemples :</span></p>' in fr
    assert '<span class="doc-section-title">Ejemplos:</span>' in site_plugin._api_in_english(page, "es")
    assert site_plugin._api_in_english(fr, "fr") == fr  # once only
    assert "<p lang=\"es\" class=\"doc doc-class-bases\">Hereda de: " in site_plugin._api_in_english(page, "es")
    assert site_plugin._api_in_english("<p>No API here.</p>", "fr") == "<p>No API here.</p>"
    # mkdocstrings' labels read in the language of the headings beside them, never half translated
    labelled = ('<div class="doc doc-object doc-class"><span class="doc doc-labels">'
                '<small class="doc doc-label doc-label-dataclass"><code>dataclass</code></small>'
                '<small class="doc doc-label doc-label-novel"><code>novel</code></small></span></div>')
    assert ('<small class="doc doc-label doc-label-dataclass" lang="es"><code>clase de datos</code></small>'
            in site_plugin._api_in_english(labelled, "es"))
    assert ('<small class="doc doc-label doc-label-dataclass" lang="fr"><code>classe de données</code></small>'
            in site_plugin._api_in_english(labelled, "fr"))
    assert '<small class="doc doc-label doc-label-novel"><code>novel</code></small>' in site_plugin._api_in_english(
        labelled, "es")  # a label the site has no word for stays as mkdocstrings wrote it


def test_material_code_annotations_keep_their_list_right_under_the_code(tmp_path):
    page = ("# Inicio { #inicio }\n\n```python\nx = 1  # (1)!\nprint(x)\n```\n\n1. The annotation.\n\n"
            "Texto.\n")
    root = write_tree(tmp_path / "site", {"docs/es/index.md": page}, site=True)
    done = run_mkdocs(root)
    assert done.returncode == 0, done.stderr
    html = article(root / "site" / "index.html")
    code_end = html.index("</code></pre></div>")
    after_code = html[code_end + len("</code></pre></div>"):].lstrip()
    assert after_code.startswith("<ol>"), after_code[:300]
    assert after_code.index("The annotation.") < after_code.index("ruota-verify")


HOOKS = '''
def on_page_markdown(markdown, page, config, files):
    if not page.file.src_uri.startswith("es/"):
        return markdown
    banner = "!!! note\\n\\n    Made by a hook.\\n\\n"
    made = "```python\\nprint('made by a hook')\\n```\\n\\n"
    return banner + made + markdown + "\\n```made-up\\nnot a language anyone knows\\n```\\n"
'''


def test_blocks_a_hook_makes_are_marked_not_run_and_the_files_own_keep_their_record(tmp_path):
    """A hook rewrote the page: its own block keeps its record, under its index and line in the file;
    the hook's blocks say why they are not run (pytest never collects them) and never stop the build."""
    page = "# Inicio { #inicio }\n\n```python\nprint('own')\n```\n"
    root = write_tree(tmp_path / "site", {"docs/es/index.md": page, "hooks.py": HOOKS}, site=True)
    (root / "mkdocs.yml").write_text((root / "mkdocs.yml").read_text() + "hooks:\n  - hooks.py\n", encoding="utf-8")
    data = synthetic_record(root, RX7600)
    (root / "verification").mkdir()
    (root / "verification" / "rocm-gfx1102.json").write_text(record_of(data).to_json(), encoding="utf-8")
    done = run_mkdocs(root)
    assert done.returncode == 0, done.stderr
    found = [words(p) for p in panels(article(root / "site" / "index.html"))]
    assert len(found) == 3
    from ruota_docs.site.locales import text

    hooks_reason = text("es", "engine.made_by_site")  # the site is Spanish: its panels say why in Spanish
    assert hooks_reason in found[0] and hooks_reason not in found[1] and "AMD Radeon RX 7600" in found[1]
    for made in (found[0], found[2]):
        assert "No se prueba aquí: " in made and "este bloque" not in made, made  # the engine's reason, not an author's
        assert "hooks o plugins del sitio" in made and "todavía" not in made.lower()
        assert "collect_hooks: true" in made  # how to have it run, where a hook made it


BORROWING_HOOK = '''
from pathlib import Path

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File


@event_priority(-100)  # after the site's plugins (mkdocs-static-i18n sorts the files by language)
def on_files(files, config):
    other = Path(config.docs_dir).parent / "elsewhere"
    files.append(File("es/borrowed.md", str(other), config.site_dir, config.use_directory_urls))
    return files
'''


def test_a_page_a_hook_brings_in_from_outside_the_docs_folder_is_marked_not_run_with_where_it_is(tmp_path):
    """FastAPI's hook serves the English page where a translation is missing, from another folder: pytest
    never collects it, so its blocks say why they are not run, and no record of a docs page is theirs."""
    borrowed = "# Prestada { #prestada }\n\n```python\nprint('own')\n```\n"
    root = write_tree(tmp_path / "site", {"docs/es/index.md": borrowed, "elsewhere/es/borrowed.md": borrowed,
                                          "hooks.py": BORROWING_HOOK}, site=True)
    (root / "mkdocs.yml").write_text((root / "mkdocs.yml").read_text() + "hooks:\n  - hooks.py\n", encoding="utf-8")
    (root / "verification").mkdir()
    record = record_of(synthetic_record(root, RX7600))  # index.md's block passed, with the same code
    (root / "verification" / "rocm-gfx1102.json").write_text(record.to_json(), encoding="utf-8")
    done = run_mkdocs(root)
    assert done.returncode == 0, done.stderr
    [own] = panels(article(root / "site" / "index.html"))
    assert "AMD Radeon RX 7600" in words(own)
    [other] = [words(p) for p in panels(article(root / "site" / "es" / "borrowed" / "index.html"))]
    from ruota_docs.site.locales import text

    # (each language's build adds the page at the same address: the last one built, French, stays)
    said = {lang: text(lang, "engine.outside_docs", path="../elsewhere/es/borrowed.md") for lang in ("es", "en", "fr")}
    assert any(" ".join(reason.split()) in other for reason in said.values()), other
    assert "AMD Radeon RX 7600" not in other


def test_with_collect_hooks_the_blocks_a_hook_makes_run_and_their_marks_come_true(tmp_path):
    """``collect_hooks: true``: pytest collects the page as the hook rewrites it, so the block the hook
    makes runs, is recorded, and the build shows it passed, as it shows the file's own block."""
    page = "# Inicio { #inicio }\n\n```python\nprint('own')\n```\n"
    root = write_tree(tmp_path / "site", {"docs/es/index.md": page, "hooks.py": HOOKS}, site=True)
    config = (root / "mkdocs.yml").read_text().replace("  - ruota_docs:\n", "  - ruota_docs:\n      collect_hooks: true\n")
    (root / "mkdocs.yml").write_text(config + "hooks:\n  - hooks.py\n", encoding="utf-8")
    (root / "docs" / "es" / "index.md").write_text(page + "\n```text\nshown\n```\n", encoding="utf-8")
    ran = run_pytest(root, "--run-as-root", "docs/es/index.md")
    assert "2 passed" in ran.stdout, ran.stdout + ran.stderr
    assert "generated by the hook hooks.py" not in ran.stdout  # nothing failed
    done = run_mkdocs(root)
    assert done.returncode != 0  # the hook's made-up language has no run policy: a block pytest collects
    assert "es/index.md:9: code block with language 'made-up' has no run policy" in done.stderr, done.stderr
    policies = config.replace("      collect_hooks: true\n", "      collect_hooks: true\n      policies: {made-up: show}\n")
    (root / "mkdocs.yml").write_text(policies + "hooks:\n  - hooks.py\n", encoding="utf-8")
    done = run_mkdocs(root)
    assert done.returncode == 0, done.stderr
    found = [words(p) for p in panels(article(root / "site" / "index.html"))]
    assert len(found) == 2 and all("hooks o plugins" not in f and "no se prueba" not in f.lower() for f in found)
    assert all("ruota-state-passed" in p for p in panels(article(root / "site" / "index.html")))


@pytest.mark.parametrize("collect, hooks, key", [
    (False, {"hooks.py": object()}, "engine.made_by_hooks"),
    (False, {}, "engine.made_by_site"),
    (True, {"hooks.py": object()}, "engine.made_by_plugin"),
])
def test_the_reason_a_made_block_is_not_run_says_what_would_run_it(collect, hooks, key):
    """Where hooks may have made it and collect_hooks is off, the reason names the option; with it on,
    what is left was made by a plugin, which no option has pytest collect."""
    from types import SimpleNamespace

    from ruota_docs.site.locales import text
    from ruota_docs.site.plugin import RuotaDocsPlugin

    plugin = SimpleNamespace(config=SimpleNamespace(collect_hooks=collect))
    assert RuotaDocsPlugin._made_reason(plugin, SimpleNamespace(hooks=hooks)) == key
    for lang in ("es", "fr", "en"):
        assert ("collect_hooks: true" in text(lang, key)) == (key == "engine.made_by_hooks")


def test_a_hook_that_shifts_the_page_leaves_messages_pointing_into_the_file(tmp_path):
    page = "# Inicio { #inicio }\n\nTexto.\n\n```also-made-up\nx\n```\n"
    root = write_tree(tmp_path / "site", {"docs/es/index.md": page, "hooks.py": HOOKS}, site=True)
    (root / "mkdocs.yml").write_text((root / "mkdocs.yml").read_text() + "hooks:\n  - hooks.py\n", encoding="utf-8")
    done = run_mkdocs(root)
    assert done.returncode != 0
    assert "es/index.md:5: code block with language 'also-made-up' has no run policy" in done.stderr
    assert "made-up'" not in done.stderr.replace("also-made-up'", "")  # the hook's own block stops nothing


@pytest.mark.parametrize("lang, checked, old, expired", [
    ("es", "fechas de consulta: {old} y {day}", "2 de enero de 2020", "puede haber cambiado"),
    ("en", "checked {old} and {day}", "2 January 2020", "may be out of date"),
    ("fr", "consulté les {old} et {day}", "2 janvier 2020", "peut ne plus être à jour"),
])
def test_the_claims_of_a_paragraph_show_the_days_they_were_checked_and_an_aged_one_marks_them(
        site, lang, checked, old, expired):
    """Two claims of one sentence, one checked lately and one in 2020: one mark, after the second, naming
    both days and saying the claims may be out of date, with both sources in its tooltip."""
    from ruota_docs.site import formatting
    page = article(site / ("" if lang == "es" else lang) / "index.html")
    marks = re.findall(r'<span class="ruota-fact[^"]*"[^>]*>.*?</span>', page, re.S)
    assert len(marks) == 1 and "<!--" not in page.split("ruota-fact", 1)[1].split("</p>", 1)[0]
    shown = " ".join(words(marks[0]).split())  # spaces, no-break ones included, as one
    day = " ".join(formatting.date(RECENT.isoformat(), lang).split())
    assert checked.format(old=old, day=day) in shown and expired in shown and "ruota-fact-expired" in marks[0]
    assert 'href="https://example.org/old"' in marks[0] and "https://example.org/recent" in marks[0]



def test_the_status_page_lists_pages_in_the_menus_order():
    """The menu's order (sections flattened, titles or not); a page it leaves out comes after all it names."""
    from ruota_docs.site.plugin import nav_order

    nav = [{"Inicio": "index.md"}, {"Guías": ["guides/index.md", {"Keras": "guides/keras.md"}]}, "about.md"]
    assert nav_order(nav) == {"index.md": 0, "guides/index.md": 1, "guides/keras.md": 2, "about.md": 3}
    assert nav_order(None) == {}
