"""The attack corpus (tests/records/attacks/): hand-made records that `record check` and the site's
build must both refuse, each naming the file and the field with the message the case expects.
Each case edits a record the engine could have written for a small site (`_attack`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from _support import RX7600, mkdocs_yml, run_mkdocs, synthetic_record, write_tree, stored_form
from ruota_docs.cli import main
from ruota_docs.records import listing
from ruota_docs.records.machine import Device

ATTACKS = Path(__file__).parent / "attacks"
PAGE = ("# Página { #page }\n\n```python\nprint('uno')\n```\n\n```python\nprint('dos')\n```\n\n"
        "<!-- requires: rocm arch=gfx906 -->\n```python\nprint('tres')\n```\n\n```python\nprint(2 + 2)\n#> 4\n```\n")
#: What the engine records on an RX 7600 for the block that requires a gfx906.
SKIP = "requires ROCm, arch gfx906; this machine: ROCm, AMD Radeon RX 7600 (gfx1102, 8 GiB)"
_RAW = "\0RAW\0"


def _text(spec) -> str:
    if isinstance(spec, str):
        return spec
    return spec.get("before", "") + spec["repeat"] * spec["times"] + spec.get("after", "")


def _set(data: dict, path: str, value) -> str | None:
    *parents, last = path.split("/")
    for part in parents:
        data = data[int(part)] if isinstance(data, list) else data.setdefault(part, {})
    raw = None
    if isinstance(value, dict) and "raw" in value:
        raw, value = value["raw"], _RAW
    elif isinstance(value, dict) and "raw_repeat" in value:
        opening, closing = value["raw_repeat"]
        raw, value = opening * value["times"] + closing * value["times"], _RAW
    elif isinstance(value, dict):
        value = _text(value)
    if isinstance(data, list):
        data[int(last)] = value
    else:
        data[last] = value
    return raw


def _skip(machine: dict) -> str:
    """The engine's skip reason for the gfx906 block on ``machine`` (it names the machine)."""
    device = Device(**{k: v for k, v in machine.items() if k != "machine_id"})
    return SKIP.replace("ROCm, AMD Radeon RX 7600", device.describe())


def _attack(root: Path, case: dict) -> Path:
    """The case's record in root/verification/, from a record of the site's own blocks (of the case's
    ``machine``, an RX 7600 unless it says; coherent: its skip reasons name that machine; the block with
    a ``#>`` line prints the case's ``printed``, else what the line states); then edited:
    ``set`` fields, ``replace`` text of its JSON (``[old, new, count]``), ``encoding`` to write it in."""
    machine = RX7600 | case.get("machine", {})

    def outcome(block):
        if block.requirements:
            return "skipped", "", _skip(machine)
        # the block with a #> line prints what it states, unless the case says otherwise
        return "passed", case.get("printed", "4\n") if "#>" in block.code else "ran on AMD Radeon RX 7600\n", None

    data = stored_form(synthetic_record(root, machine, outcome))
    raws = [_set(data, path, value) for path, value in case.get("set", {}).items()]
    if "append_output" in case:
        first = next(iter(data["outputs"]))
        data["outputs"][first] += _text(case["append_output"])
    if "rename_page" in case:
        data["pages"][case["rename_page"]] = data["pages"].pop("p.md")
    text = json.dumps(data, ensure_ascii=False)
    for raw in filter(None, raws):
        text = text.replace(json.dumps(_RAW), raw, 1)
    for old, new, *count in case.get("replace", []):
        assert old in text, old
        text = text.replace(old, new, *count)
    folder = root / "verification"
    folder.mkdir(exist_ok=True)
    path = folder / case.get("file", "rocm-gfx1102.json")
    if "link" in case:
        path.symlink_to(case["link"])
    else:
        path.write_bytes(_encoded(text, case.get("encoding", "utf-8")))
    return path


def _encoded(text: str, encoding: str) -> bytes:
    """``utf-8``; ``utf-8-bom``: with a byte-order mark first; ``utf-16``: Python's, with its mark."""
    if encoding == "utf-8-bom":
        return b"\xef\xbb\xbf" + text.encode("utf-8")
    return text.encode(encoding)


def _cases():
    return sorted(p.stem for p in ATTACKS.glob("*.json"))


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = write_tree(tmp_path_factory.mktemp("attacks"), {f"docs/{lang}/{page}": PAGE for lang in ("es", "en", "fr") for page in ("p.md", "index.md")},
                      site=True, conftest=False)
    (root / "mkdocs.yml").write_text(mkdocs_yml(site=True, check_records=True), encoding="utf-8")
    return root


def test_the_untouched_record_is_accepted_and_built(site):
    """The corpus's starting point passes both, so each refusal below is the attack's."""
    path = _attack(site, {})
    try:
        assert main(["--root", str(site), "record", "check", str(path)]) == 0
        built = run_mkdocs(site)
        assert built.returncode == 0, built.stderr[-2000:]
    finally:
        path.unlink()


@pytest.mark.parametrize("name", _cases())
def test_check_and_build_refuse_the_attack(site, name, capsys):
    case = json.loads((ATTACKS / f"{name}.json").read_text(encoding="utf-8"))
    path = _attack(site, case)
    try:
        assert main(["--root", str(site), "record", "check", str(site / "verification")]) == 1
        out = capsys.readouterr().out
        shown = listing.shown(path)  # a name with a newline or a control character is written escaped
        assert f"{shown}: " in out and case["expect"] in out, out[-2000:]
        assert "Traceback" not in out and "\x1b" not in out and "\u202e" not in out  # nothing raw reaches a terminal
        assert not any(line.startswith("accepted") for line in out.splitlines())  # no line forged by a file's name
        built = run_mkdocs(site)
        assert built.returncode != 0
        said = case["expect"].split("error: ", 1)[-1]  # the build names the file, then the field where it can
        assert shown in built.stderr and said in built.stderr, built.stderr[-2000:]
        assert "Traceback" not in built.stderr and "\x1b" not in built.stderr
    finally:
        path.unlink()


def test_with_report_only_the_build_leaves_a_refused_record_out_and_names_it(site):
    """``report_only`` never aborts the build: a record the check refuses is listed and published nowhere."""
    case = json.loads((ATTACKS / "pass-requiring-gfx906.json").read_text(encoding="utf-8"))
    path = _attack(site, case)
    config = site / "mkdocs.yml"
    before = config.read_text(encoding="utf-8")
    config.write_text(before.replace("check_records: true", "check_records: true\n      report_only: true"),
                      encoding="utf-8")
    try:
        assert "report_only: true" in config.read_text(encoding="utf-8")
        built = run_mkdocs(site)
        assert built.returncode == 0, built.stderr[-2000:]
        assert f"{path}: refused by `ruota-docs record check` (left out of this build)" in built.stderr
        assert "Traceback" not in built.stderr
        page = (site / "site" / "p" / "index.html").read_text(encoding="utf-8")
        assert "ran on AMD Radeon RX 7600" not in page  # nothing of the refused record is shown
    finally:
        config.write_text(before, encoding="utf-8")
        path.unlink()


def test_a_result_for_code_no_block_has_is_never_shown_verified(site, capsys):
    """A passed result whose code hash matches no block of its page: a stale result, as an honest record
    holds after an edit. The check accepts it with a warning naming the block, and the build shows the
    block as not yet verified, never as the result says."""
    import html
    import re

    from _support import article

    path = _attack(site, {"set": {"pages/p.md/results/0/sha256": "0" * 64}})
    try:
        assert main(["--root", str(site), "record", "check", str(site / "verification")]) == 0
        out = capsys.readouterr().out
        assert f"{path}: en/p.md#0: warning: stale: the code of block 0 (line 3) has changed since it ran" in out
        built = run_mkdocs(site)
        assert built.returncode == 0, built.stderr[-2000:]
        shown = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", article(site / "site" / "en" / "p" / "index.html"))).split())
        assert "print ( 'uno' ) Not yet verified: this code has changed since it last ran print ( 'dos' )" in shown
    finally:
        path.unlink()
