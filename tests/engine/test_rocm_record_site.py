"""A ROCm machine's record, end to end: what an RX 7600 owner would send is accepted by
``record check`` and shown correctly by the status page, the per-block output tabs and the
card matrix. The record is synthetic, built from the blocks of a throwaway site whose
guides use the snippets the card matrix's table names (it is never written to the
repository's verification/)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from _support import RX7600, article, clean_env, panels, record_of, run_mkdocs, synthetic_record, write_tree
from _support import words as _words
from ruota_docs.records.reason_codes import reason


def words(fragment: str) -> str:
    return " ".join(_words(fragment).split())

SNIPPETS = {
    "keras_rx7600/030_check_install.py": "print('torch.version.hip: 6.4')\n",
    "keras_rx7600/040_assert_rocm.py": "print('ROCm build, GPU visible')\n",
    "keras_rx7600/080_self_test.py": "print('self-test ok')\n",
    "stable_diffusion/020_identify_gpu.py": "print('gfx1102: in the ROCm 7.14 table')\n",
    "stable_diffusion/030_tiny_pipeline.py": "print('tiny pipeline')\n",
    "radeon_vii/010_environment_report.py": "print('environment')\n",
    "radeon_vii/020_gfx906_first_layer.py": "print('first layer')\n",
    "verify_reference/010_op_sweep.py": "print('ops_checked: 98')\n",
    "verify_reference/020_conv_sweep.py": "print('conv_checks: 20')\n",
}


def guide(title: str, *blocks: tuple[str, str]) -> str:
    parts = [f"# {title} {{ #top }}\n"]
    for directive, snippet in blocks:
        parts.append(f'{directive}\n```python title="{snippet.rsplit("/", 1)[-1]}"\n--8<-- "{snippet}"\n```\n'.lstrip("\n"))
    return "\n".join(parts)


PAGES = {
    "guides/keras-rx7600.md": guide("Keras en una RX 7600: guía", ("", "keras_rx7600/030_check_install.py"),
                                    ("<!-- requires: rocm -->", "keras_rx7600/040_assert_rocm.py"), ("", "keras_rx7600/080_self_test.py")),
    "guides/stable-diffusion-rocm.md": guide("Stable Diffusion", ("<!-- requires: rocm -->", "stable_diffusion/020_identify_gpu.py"),
                                             ("", "stable_diffusion/030_tiny_pipeline.py")),
    "guides/radeon-vii-windows.md": guide("Radeon VII", ("", "radeon_vii/010_environment_report.py"),
                                          ("<!-- requires: rocm arch=gfx906 -->", "radeon_vii/020_gfx906_first_layer.py")),
    "guides/verify-against-reference.md": guide("Referencia", ("", "verify_reference/010_op_sweep.py"),
                                                ("", "verify_reference/020_conv_sweep.py")),
    "verification-status.md": "# Estado { #status }\n\n<!-- verification-status: -->\n",
    "card-matrix.md": "# Matriz { #card-matrix }\n\n<!-- card-matrix: -->\n",
    "run-on-your-card.md": "# Tu tarjeta { #run-on-your-card }\n\nTexto.\n",
    "index.md": "# Inicio { #home }\n\nTexto.\n",
}
GFX906_SKIP = reason("requires", terms=["arch=gfx906"], machine=["ROCm, AMD Radeon RX 7600 (gfx1102, 8 GiB)"])


def rx7600_run(block):
    """What an RX 7600 run of these pages records: the tiny pipeline fails, the gfx906 block is skipped."""
    if "gfx906" in block.code or "first layer" in block.code:
        return "skipped", "", GFX906_SKIP
    if "tiny pipeline" in block.code:
        return "failed", "tiny pipeline\n", "RuntimeError: HIP error: invalid device function"
    return "passed", block.code.split("'")[1] + "\n", None


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    files = {f"snippets/{k}": v for k, v in SNIPPETS.items()}
    files |= {f"docs/{lang}/{page}": text for lang in ("es", "en", "fr") for page, text in PAGES.items()}
    root = write_tree(tmp_path_factory.mktemp("rocm-site"), files, site=True, conftest=False)
    record = synthetic_record(root, RX7600, rx7600_run)
    # the environment report ran as root there (with --run-as-root): its tab says so
    for lang in ("es", "en", "fr"):
        record["blocks"][f"{lang}/guides/radeon-vii-windows.md#0"]["as_root"] = True
    (root / "verification").mkdir()
    # as the engine writes it: one result per code, each output once
    (root / "verification" / "rocm-gfx1102.json").write_text(record_of(record).to_json(), encoding="utf-8")
    built = run_mkdocs(root)
    assert built.returncode == 0, built.stderr[-4000:]
    return root


def test_record_check_accepts_the_rocm_record(site):
    command = [str(Path(sys.executable).with_name("ruota-docs")), "--root", str(site), "record", "check",
               str(site / "verification" / "rocm-gfx1102.json")]
    result = subprocess.run(command, capture_output=True, text=True, env=clean_env(), timeout=120)
    assert result.returncode == 0, result.stdout
    assert result.stdout.splitlines()[-1] == "accepted: 1 record, 27 entries (0 stale); 0 errors, 0 warnings"


def test_status_page_describes_the_rocm_machine(site):
    page = article(site / "site" / "verification-status" / "index.html")
    assert "<th>AMD Radeon RX 7600</th>" in page
    machines = page[page.index("ruota-machines"):]
    assert "<td>AMD Radeon RX 7600</td><td>ROCm</td><td>AMD Radeon RX 7600 · gfx1102</td>" in machines
    assert "HIP 6.4.43482-0f2d60242" in machines and "PyTorch 2.9.1+rocm6.4" in machines and "28 de noviembre de 2026" in machines


def test_output_tabs_name_the_rocm_machine(site):
    es = panels(article(site / "site" / "guides" / "keras-rx7600" / "index.html"))
    labels = re.findall(r'<label for="__ruota_1_\d">(.*?)</label>', es[1])
    assert labels == ["AMD Radeon RX 7600"]
    assert ('<pre class="ruota-output" tabindex="0" role="region" aria-label="Salida en AMD Radeon RX 7600"><code>'
            'ROCm build, GPU visible\n</code></pre>') in es[1]
    assert "Verificado en una AMD Radeon RX 7600 el 28 de noviembre de 2026" in words(es[1])
    failed = panels(article(site / "site" / "en" / "guides" / "stable-diffusion-rocm" / "index.html"))[1]
    assert "Failed on an AMD Radeon RX 7600 on 28 November 2026" in words(failed)
    assert ('<pre class="ruota-output" tabindex="0" role="region" aria-label="Output on AMD Radeon RX 7600"><code>'
            'tiny pipeline\n</code></pre>') in failed
    vii = panels(article(site / "site" / "guides" / "radeon-vii-windows" / "index.html"))
    assert "Omitido en una AMD Radeon RX 7600: requiere una GPU gfx906" in words(vii[1])
    assert "ejecutado como root" in words(vii[0]) and "ejecutado como root" not in words(es[1])


def test_card_matrix_shows_the_rocm_row(site):
    page = article(site / "site" / "card-matrix" / "index.html")
    row = re.search(r'<tr id="target-gfx1102" class="ruota-matrix-target"[^>]*>.*?</tr>', page)[0]
    cells = re.findall(r'<td class="ruota-level ruota-level-(\d|off)"(?: title="[^"]*")?>(.*?)</td>', row)
    assert [(n, words(c)) for n, c in cells] == [
        ("3", "Guía completa verificada"),
        ("1", "Entorno comprobado No llega a «Autoprueba superada»: el bloque 030_tiny_pipeline.py falló"),
        # the Radeon VII guide is written for gfx906 (its target in mkdocs.yml): a gfx1102 reaches no level there
        ("off", "Fuera del ámbito de la guía"),  # the target is said once, in the column's header
        ("3", "Guía completa verificada"),
    ]
    assert words(row).startswith("gfx1102 AMD Radeon RX 7600 1 máquina Guía completa verificada")
    listed = re.search(r'<tr class="ruota-matrix-machines" data-for="target-gfx1102">.*?</tr>', page)[0]
    assert words(listed).startswith("Máquinas (1) AMD Radeon RX 7600 · gfx1102 · Linux x86-64 · PyTorch 2.9.1+rocm6.4 · "
                                    "HIP 6.4.43482-0f2d60242 · 28 de noviembre de 2026")
    missing = re.findall(r'<tr class="ruota-matrix-missing" data-targets="([^"]+)"', page)
    assert missing == ["gfx906", "gfx1030 gfx1031 gfx1032"]  # the RX 7600 has its record now
    assert "escrita para ROCm en gfx906" in words(page[page.index("<thead>"):page.index("</thead>")])
    # a card without a record says so, without repeating in every such row the page's call to send one
    rows = re.findall(r'<tr class="ruota-matrix-missing".*?</tr>', page)
    assert words(rows[0]).startswith("Radeon VII gfx906 Aún no hay registros.") and all("<a " not in r for r in rows)


def test_every_matrix_link_reaches_its_block(site):
    for lang, prefix in (("es", ""), ("en", "en/"), ("fr", "fr/")):
        page = article(site / "site" / prefix / "card-matrix" / "index.html")
        links = set(re.findall(r'href="\.\./guides/([\w-]+)/#(ruota-block-\d+)"', page))
        assert len(links) >= 8
        for guide_page, anchor in links:
            built = (site / "site" / prefix / "guides" / guide_page / "index.html").read_text(encoding="utf-8")
            assert f'id="{anchor}"' in built, (lang, guide_page, anchor)
