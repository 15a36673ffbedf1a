"""site.published: the site stops on a record it would publish against the rules of `record check`."""

from __future__ import annotations


import pytest

from _support import RX7600, article, mkdocs_yml, record_of, run_mkdocs, synthetic_record, words, write_tree
from ruota_docs.records import stored, ledger, verdicts
from ruota_docs.blocks import site_config
from ruota_docs.site import published

CUDA = {"backend": "cuda", "gpu_name": "NVIDIA H200", "arch": "sm_90", "machine": "x86_64"}
RUN = "https://github.com/ruota/ruota-docs/actions/runs/42"
CI = {"kind": "ci", "run_url": RUN, "repository": "ruota/ruota-docs", "commit": "a" * 40,
      "runner_labels": ["self-hosted", "linux", "rocm", "gfx1102"]}


def record(tmp_path, output: str = "ran\n", origin: dict | None = None, name: str = "rocm-gfx1102.json"):
    entry = {"page": "es/p.md", "lang": "es", "index": 0, "line": 3, "language": "python", "sha256": "a",
             "id": None, "outcome": "passed", "reason": None, "error": None, "duration": 0.5, "output": output,
             "ran_at": "2026-12-01T10:00:00Z", "reused_from": None, "as_root": None, "reason_code": None}
    data = record_of({"machine_id": "rocm-gfx1102", "machine": RX7600,
                      "provenance": origin or {"kind": "sent", "commit": None},
                      "updated": "2026-12-01T10:00:00Z", "blocks": {"es/p.md#0": entry}})
    path = tmp_path / name
    ledger.write_atomic(path, data)
    return path, ledger.load(path)


def test_a_record_the_check_accepts_is_published(tmp_path):
    files = [record(tmp_path, origin=CI)]
    gate = published.Published(files, "https://github.com/ruota/ruota-docs")
    gate.verdict(verdicts.index_ledgers([files[0][1]]).verdict("es/p.md", 0, "a"), "es/p.md", 0)


def test_personal_data_the_page_would_show_names_the_record_and_the_field(tmp_path):
    path, data = record(tmp_path, output="ssh alice@workstation-42 'nvidia-smi'\n")
    gate = published.Published([(path, data)])
    verdict = verdicts.index_ledgers([data]).verdict("es/p.md", 0, "a")
    with pytest.raises(published.RecordRefused) as refused:
        gate.verdict(verdict, "es/p.md", 0)
    message = str(refused.value)
    key = stored.parts(data)[0]["p.md"]["results"][0]["output"]
    assert message.startswith(f"{path}: outputs.{key} (shown under block 0 of es/p.md): contains a user and host name")
    assert "which readers would see on the site. Remove the record, or run the suite again" in message
    assert "alice@workstation-42" not in message and f"ruota-docs record check {path}" in message


@pytest.mark.parametrize(("origin", "field"), [
    ({**CI, "run_url": None}, "provenance.run_url"),
    ({**CI, "run_url": "https://github.com/mallory/other/actions/runs/1"}, "provenance.run_url"),
    ({**CI, "repository": "mallory/other", "run_url": "https://github.com/mallory/other/actions/runs/1"},
     "provenance.repository"),
])
def test_a_ci_record_must_link_to_a_run_of_this_sites_repository(tmp_path, origin, field):
    with pytest.raises(published.RecordRefused, match=rf"^{tmp_path}/rocm-gfx1102\.json: {field}: "):
        published.Published([record(tmp_path, origin=origin)], "https://github.com/ruota/ruota-docs")


def test_a_record_larger_than_any_the_engine_writes_is_not_read_further(tmp_path):
    path, data = record(tmp_path)
    path.write_text(path.read_text(encoding="utf-8") + " " * 600_000, encoding="utf-8")
    with pytest.raises(published.RecordRefused, match=r"rocm-gfx1102\.json: record: 6\d\d,\d\d\d bytes, over the 524,288"):
        published.Published([(path, data)])


def test_the_build_stops_on_it_naming_the_file(tmp_path):
    root = write_tree(tmp_path / "site", {"docs/es/index.md": "# Inicio { #inicio }\n\n```python\nprint(1)\n```\n"},
                      site=True)
    data = synthetic_record(root, RX7600)
    data["blocks"]["es/index.md#0"]["output"] = "logged in as alice@workstation-42\n"
    (root / "verification").mkdir()
    (root / "verification" / "rocm-gfx1102.json").write_text(record_of(data).to_json(), encoding="utf-8")
    done = run_mkdocs(root)
    assert done.returncode != 0
    assert "verification/rocm-gfx1102.json: outputs." in done.stdout + done.stderr
    assert "a user and host name" in done.stdout + done.stderr


def _site_with_output(tmp_path, page: str, output: str, options: str = ""):
    root = write_tree(tmp_path / "site", {"docs/es/index.md": page}, site=True)
    if options:
        mkdocs = root / "mkdocs.yml"
        mkdocs.write_text(mkdocs.read_text(encoding="utf-8").replace(
            "      record_dir: verification\n", f"      record_dir: verification\n{options}"), encoding="utf-8")
    data = synthetic_record(root, RX7600)
    data["blocks"]["es/index.md#0"]["output"] = output
    (root / "verification").mkdir()
    (root / "verification" / "rocm-gfx1102.json").write_text(record_of(data).to_json(), encoding="utf-8")
    return root


EXAMPLE = ("# Inicio { #inicio }\n\n```python\nuser = dict(username='jdoe', email='jdoe@mail.com')\n"
           "print(user)\n```\n")


def test_the_pages_own_example_data_is_published(tmp_path):
    root = _site_with_output(tmp_path, EXAMPLE, "{'username': 'jdoe', 'email': 'jdoe@mail.com'}\n")
    done = run_mkdocs(root)
    assert done.returncode == 0, done.stderr
    assert "jdoe@mail.com" in (root / "site" / "index.html").read_text(encoding="utf-8")


def test_report_only_never_stops_on_a_record_and_publishes_nothing_it_refused(tmp_path):
    root = _site_with_output(tmp_path, EXAMPLE, "logged in as alice@workstation-42\n", "      report_only: true\n")
    done = run_mkdocs(root)
    assert done.returncode == 0, done.stderr
    assert "report_only: ruota_docs: " in done.stderr and "a user and host name" in done.stderr
    assert "alice@workstation-42" not in (root / "site" / "index.html").read_text(encoding="utf-8")


def test_the_allow_list_covers_what_the_page_does_not_hold(tmp_path):
    options = "      allow_private: ['alice@workstation-42']\n"
    root = _site_with_output(tmp_path, EXAMPLE, "logged in as alice@workstation-42\n", options)
    done = run_mkdocs(root)
    assert done.returncode == 0, done.stderr
    assert "alice@workstation-42" in (root / "site" / "index.html").read_text(encoding="utf-8")


def test_a_refused_record_is_left_out_with_report_only(tmp_path):
    path, data = record(tmp_path, origin={**CI, "run_url": None})
    gate = published.Published([(path, data)], "https://github.com/ruota/ruota-docs", keep_going=True)
    assert gate.kept == [] and gate.refused[0].startswith(f"{path}: provenance.run_url: ")


# -- the build's record check: on the pages as the build rendered them ------------------------------------------------
CHECKED_PAGE = "# Inicio { #inicio }\n\n```python\nprint(2 + 2)\n#> 4\n```\n\n```python\nprint('dos')\n```\n"


def _checked_site(tmp_path, printed: str, options: str = ""):
    """A one-language site whose build checks its record; the block with a ``#>`` line printed ``printed``."""
    root = write_tree(tmp_path / "site", {"docs/es/index.md": CHECKED_PAGE}, site=True)
    (root / "mkdocs.yml").write_text(mkdocs_yml(site=True, languages=("es",), check_records=True).replace(
        "      check_records: true\n", f"      check_records: true\n{options}"), encoding="utf-8")
    data = synthetic_record(root, RX7600, lambda block: ("passed", printed if "#>" in block.code else "dos\n", None))
    (root / "verification").mkdir()
    (root / "verification" / "rocm-gfx1102.json").write_text(record_of(data).to_json(), encoding="utf-8")
    return root


def test_the_builds_check_reads_each_pages_blocks_from_the_builds_own_rendering(tmp_path, monkeypatch):
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    from ruota_docs.records import check

    root = _checked_site(tmp_path, "4\n")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # nothing remembered from another build
    monkeypatch.chdir(root)
    given, rendered_again = [], []
    checked = published.checked
    monkeypatch.setattr(published, "checked", lambda *a, **k: given.append(k["built"]) or checked(*a, **k))
    monkeypatch.setattr(check, "page_blocks", lambda *a, **k: rendered_again.append(a[2]))
    build(load_config(config_file=str(root / "mkdocs.yml")))
    assert [sorted(built) for built in given] == [["es/index.md"]]
    assert [b.code for b in given[0]["es/index.md"]] == ["print(2 + 2)\n#> 4", "print('dos')"]
    assert rendered_again == []  # no page rendered a second time to learn its blocks
    assert "RX 7600" in words(article(root / "site" / "index.html"))  # the record, accepted, is shown


@pytest.mark.parametrize("report_only", [False, True], ids=["stops", "report_only"])
def test_a_record_the_check_refuses_on_the_builds_blocks_is_never_published(tmp_path, report_only):
    """Its output lacks what the block's ``#>`` line states: only the page's blocks tell, and the build learns
    them by rendering the page; the check runs once every page is rendered, before any is written."""
    root = _checked_site(tmp_path, "5\n", "      report_only: true\n" if report_only else "")
    done = run_mkdocs(root)
    said = "passed, but its output lacks what the #> line at line 2 of its code states (\"4\")"
    assert said in done.stderr and "verification/rocm-gfx1102.json" in done.stderr, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    if not report_only:
        assert done.returncode != 0 and "errors of `ruota-docs record check` in the records" in done.stderr
        assert not (root / "site" / "index.html").exists()
        return
    assert done.returncode == 0 and "refused by `ruota-docs record check` (left out of this build)" in done.stderr
    shown = words(article(root / "site" / "index.html"))
    # nothing of the refused record: neither block shows a run, nor the machine it ran on
    assert shown.count("Sin verificar: ninguna ejecución ha registrado este bloque") == 2
    assert "RX 7600" not in shown


def test_a_hook_that_sets_the_language_page_by_page_does_not_make_the_check_render_pages_again(tmp_path, monkeypatch):
    """FastAPI's hook sets the theme's language for each page: on a site in one language, every page is still
    the site's own, and the check reads its blocks from the build."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    from ruota_docs.records import check

    root = write_tree(tmp_path / "site", {
        "docs/index.md": CHECKED_PAGE,
        "hook.py": "def on_page_markdown(markdown, page, config, files):\n"
                   "    config.theme['language'] = 'en'\n    return markdown\n",
        "mkdocs.yml": "site_name: one\ntheme:\n  name: material\n  language: es\n  font: false\nplugins:\n"
                      "  - ruota_docs:\n      check_records: true\nhooks:\n  - hook.py\n"
                      "markdown_extensions:\n  - pymdownx.superfences\n"}, conftest=False)
    data = synthetic_record(root, RX7600, lambda block: ("passed", "4\n" if "#>" in block.code else "dos\n", None))
    (root / "verification").mkdir()
    (root / "verification" / "rocm-gfx1102.json").write_text(record_of(data).to_json(), encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.chdir(root)
    assert site_config.languages(root).single
    rendered_again = []
    monkeypatch.setattr(check, "page_blocks", lambda *a, **k: rendered_again.append(a[2]))
    build(load_config(config_file=str(root / "mkdocs.yml")))
    assert rendered_again == []
