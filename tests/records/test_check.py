"""``ruota-docs record check``: every rule, on records built from a small project's real blocks."""

from __future__ import annotations

import copy
import datetime as dt
import json
import re
from pathlib import Path

import pytest

from _support import REPO, RX7600, as_dict, record_of, stored_form, synthetic_record, write_tree
from ruota_docs.cli import main
from ruota_docs.records import check as record_check
from ruota_docs.records import ledger, stored
from ruota_docs.records.schema import OUTPUT_LIMIT

#: What a private-data finding tells the sender to do: its hint, below the problem's line.
FIX = ("Run the page again on the machine that wrote this record (the engine masks its user and host names), "
       "or remove the text and run `ruota-docs record migrate` on the record. If the docs print this text on purpose, add it to allow_private "
       "in mkdocs.yml.")

PAGE = """\
    # Página { #page }

    ```python
    print("uno")
    ```

    ```python
    print("dos")
    ```

    <!-- requires: rocm -->
    ```python
    print("tres")
    ```
    """

NOW = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.timezone.utc)

H200 = {"backend": "cuda", "gpu_name": "NVIDIA H200", "arch": "sm_90", "vram_bytes": 150_109_880_320, "gpu_count": 1,
        "os": "linux", "machine": "x86_64", "python": "3.12.3", "torch": "2.11.0+cu130", "hip": None, "cuda": "13.0",
        "packages": {"torch": "2.11.0"}, "machine_id": "cuda-nvidia-h200"}

CPU = {"backend": "cpu", "gpu_name": None, "arch": None, "vram_bytes": None, "gpu_count": 0, "os": "linux",
       "machine": "x86_64", "python": "3.11.7", "torch": "2.13.0+cpu", "hip": None, "cuda": None,
       "packages": {"torch": "2.13.0+cpu"}, "machine_id": "cpu-x86_64"}


@pytest.fixture
def project(tmp_path) -> Path:
    return write_tree(tmp_path / "project", {f"docs/{lang}/p.md": PAGE for lang in ("es", "en", "fr")}, conftest=False)


@pytest.fixture
def good(project) -> dict:
    return synthetic_record(project, RX7600)


def check(project: Path, data, name: str | None = None, raw: str | None = None) -> record_check.Report:
    path = project / "verification" / (name or f"{data['machine_id']}.json")
    path.parent.mkdir(exist_ok=True)
    path.write_text(raw if raw is not None else stored_text(data), encoding="utf-8")
    return record_check.check_file(path, project, project / "docs", now=NOW)


def stored_text(data: dict) -> str:
    """A record as the engine writes it: entries (``blocks``) in the stored form, one result per code;
    its ``machine`` as given (a record someone sends may hold what no `Machine` can)."""
    if "blocks" not in data:
        return json.dumps(data, indent=1)
    written = stored.encode(record_of({k: v for k, v in data.items() if k != "machine"}))
    return "".join(stored.lines(written | {"machine": data.get("machine")}))


def problems(report, severity=None) -> list[str]:
    return [f"{p.where}: {p.severity}: {p.message}" for p in report.problems if severity in (None, p.severity)]


def only(report, where: str, severity: str = "error") -> str:
    found = [p.message for p in report.problems if p.where == where and p.severity == severity]
    assert len(found) == 1, problems(report)
    return found[0]


def entry(data: dict, key: str = "es/p.md#0") -> dict:
    return data["blocks"][key]


# -- a good record ------------------------------------------------------------------------------------------------
def test_a_coherent_rocm_record_is_accepted(project, good):
    report = check(project, good)
    assert problems(report) == []
    assert (report.entries, report.stale) == (9, 0)
    assert record_check.summary([report]) == ("accepted: 1 record, 9 entries (0 stale); 0 errors, 0 warnings", 0)


def coherent(project: Path, machine: dict) -> dict:
    """A record of ``machine`` whose ``requires: rocm`` block is skipped, as the engine skips it there."""
    said = "CUDA, NVIDIA H200" if machine["backend"] == "cuda" else "CPU only, x86_64"
    return synthetic_record(project, machine, lambda block: (
        ("skipped", "", f"requires ROCm; this machine: {said}") if block.requirements
        else ("passed", "ran\n", None)))


@pytest.mark.parametrize("machine", [H200, CPU], ids=["cuda", "cpu"])
def test_coherent_cuda_and_cpu_records_are_accepted(project, machine):
    assert problems(check(project, coherent(project, machine))) == []


@pytest.mark.parametrize("machine", [H200, CPU], ids=["cuda", "cpu"])
def test_a_result_for_a_block_this_machine_cannot_run_is_refused(project, machine):
    """Outcomes agree with requirements: ``requires: rocm`` cannot have passed, nor failed, on CUDA or CPU."""
    data = coherent(project, machine)
    entry(data, "fr/p.md#2").update(outcome="passed", reason=None, output="ran\n", as_root=False)
    entry(data, "en/p.md#2").update(outcome="failed", reason="boom", error="boom", as_root=False)
    report = check(project, data)
    said = "CUDA, NVIDIA H200, sm_90" if machine["backend"] == "cuda" else "CPU only, x86_64"
    for key, outcome in (("fr/p.md#2", "passed"), ("en/p.md#2", "failed")):
        assert only(report, f"{key}.outcome") == (
            f"{outcome} for the block at line 12, which requires rocm, on a machine that does not meet it (this "
            f"record's: {said}, linux): the engine skips such a block, so it cannot have run here")
    assert record_check.summary([report])[1] == 1


# -- the machine --------------------------------------------------------------------------------------------------
def test_rocm_record_without_a_hip_version(project, good):
    good["machine"]["hip"] = None
    report = check(project, good)
    assert only(report, "machine.hip") == "no HIP version (torch.version.hip): a ROCm machine must record it"
    assert record_check.summary([report])[1] == 1


@pytest.mark.parametrize("field, value, where, message", [
    ("arch", None, "machine.arch", "no gfx target (gcnArchName, e.g. gfx1102): a ROCm machine must record it"),
    ("arch", "gfx1100", "machine.arch", "'AMD Radeon RX 7600' is a gfx1102 card, not gfx1100"),
    ("gpu_name", None, "machine.gpu_name", "no GPU name: a ROCm machine must record it"),
    ("cuda", "12.4", "machine.cuda", "a ROCm build of torch has no CUDA version"),
    ("torch", "2.9.1+cu126", "machine.torch", "2.9.1+cu126 is a CUDA build of torch, not a ROCm one"),
    ("gpu_count", 0, "machine.gpu_count", "0 GPUs: a ROCm machine sees at least one"),
    ("os", "haiku", "machine.os", "must be one of linux, windows, macos, not 'haiku'"),
])
def test_incoherent_rocm_machine(project, good, field, value, where, message):
    good["machine"][field] = value
    assert message in [p.message for p in check(project, good).problems if p.where == where], problems(check(project, good))


def test_cuda_record_without_a_cuda_version(project):
    data = synthetic_record(project, H200)
    data["machine"]["cuda"] = None
    assert only(check(project, data), "machine.cuda") == "no CUDA version (torch.version.cuda): a CUDA machine must record it"


def test_cpu_record_with_a_gpu(project):
    data = synthetic_record(project, CPU)
    data["machine"]["arch"] = "gfx1102"
    assert only(check(project, data), "machine.arch") == "a CPU machine has no GPU, so no arch (got 'gfx1102')"


def test_unknown_gpu_name_is_a_warning(project, good):
    good["machine"]["gpu_name"] = "AMD Radeon Graphics"
    report = check(project, good)
    assert only(report, "machine.gpu_name", "warning") == (
        "'AMD Radeon Graphics' is not in the table of known GPUs (ruota_docs/records/gpus.py): its target gfx1102 is unchecked")
    assert record_check.summary([report])[1] == 0
    assert record_check.summary([report], strict=True)[1] == 1


def test_machine_id_must_name_the_machine(project, good):
    good["machine"]["machine_id"] = good["machine_id"] = "rocm-gfx906"
    report = check(project, good, name="rocm-gfx906.json")
    assert only(report, "machine.machine_id") == "'rocm-gfx906' does not name this machine; the engine names it 'rocm-gfx1102'"
    assert "the file must be named rocm-gfx1102.json (the machine's id), not rocm-gfx906.json" in problems(report)[1]


def test_file_name_must_be_the_machine_id(project, good):
    report = check(project, good, name="my-card.json")
    assert only(report, "record") == "the file must be named rocm-gfx1102.json (the machine's id), not my-card.json"


def test_skip_reasons_describe_the_records_machine(project, good):
    # a CPU record's skip reasons pasted into an RX 7600's record
    entry(good, "es/p.md#2").update(outcome="skipped", reason="requires ROCm; this machine: CPU only, x86_64", as_root=None)
    assert only(check(project, good), "es/p.md#2.reason") == (
        "the skip reason describes another machine ('CPU only, x86_64') than this record's ('ROCm, AMD Radeon RX 7600')")
    entry(good, "es/p.md#2")["reason"] = "requires ROCm, arch gfx906; this machine: ROCm, AMD Radeon RX 7600 (gfx1102, 8 GiB)"
    assert problems(check(project, good)) == []
    # a record with codes: the code's machine is what is checked
    pasted = {"code": "requires", "args": {"terms": ["rocm"], "machine": ["CPU only, x86_64"]}}
    entry(good, "es/p.md#2").update(reason="requires ROCm; this machine: CPU only, x86_64", reason_code=pasted)
    assert only(check(project, good), "es/p.md#2.reason") == (
        "the skip reason describes another machine ('CPU only, x86_64') than this record's ('ROCm, AMD Radeon RX 7600')")


# -- stale entries -------------------------------------------------------------------------------------------------
def test_stale_entries_are_warnings(project, good):
    entry(good, "es/p.md#1")["sha256"] = "0" * 64  # the code it ran is not on the page any more
    moved = copy.deepcopy(entry(good, "es/p.md#2")) | {"index": 3, "line": 20}  # block 2's code, recorded as block 3
    good["blocks"]["es/p.md#3"] = moved
    gone = copy.deepcopy(entry(good)) | {"page": "es/gone.md"}
    good["blocks"]["es/gone.md#0"] = gone
    report = check(project, good)
    assert sorted(problems(report), reverse=True) == [
        "es/p.md#1: warning: stale: the code of block 1 (line 7) has changed since it ran",
        "es/gone.md#0: warning: stale: es/gone.md no longer exists",
    ]
    # the same code at another index is the code the site credits, so it is current
    assert report.stale == 2
    assert record_check.summary([report]) == ("accepted: 1 record, 11 entries (2 stale); 0 errors, 2 warnings", 0)


PART = """\
    Texto incluido.

    ```python
    print("incluido")
    ```
    """


def test_a_block_written_in_an_included_markdown_file_is_checked_and_reported_at_that_file(tmp_path):
    """Its result names the file and its line there; once its code changes, the stale warning says
    where to look: that file and line, not the include's line on the page."""
    page = PAGE + '\n    --8<-- "part.md"\n'
    project = write_tree(tmp_path / "project", {**{f"docs/{lang}/p.md": page for lang in ("es", "en", "fr")},
                                                "snippets/part.md": PART}, conftest=False)
    data = synthetic_record(project, RX7600)
    assert (entry(data, "es/p.md#3")["line"], entry(data, "es/p.md#3")["file"]) == (3, "snippets/part.md")
    assert json.loads(stored_text(data))["pages"]["p.md"]["files"]["es"] == [None, None, None, "snippets/part.md"]
    assert problems(check(project, data)) == []
    write_tree(project, {"snippets/part.md": PART.replace("incluido", "cambiado")}, conftest=False)
    assert only(check(project, data), "es/p.md#3", "warning").startswith(
        "stale: the code of block 3 (snippets/part.md:3) has changed since it ran")


@pytest.mark.parametrize("files, message", [
    ({"es": ["/etc/part.md"]}, "must map a language folder to the included Markdown file each block is written in"),
    ({"es": ["../../part.md"]}, "must map a language folder to the included Markdown file"),
    ({"es": [None, None, None, None, "part.md"]}, "each block with a line in \"lines\""),
    ({"es": "part.md"}, "must map a language folder to the included Markdown file"),
    ([], "must be an object, not []"),
])
def test_a_pages_files_are_paths_inside_the_project_of_blocks_it_holds(project, good, files, message):
    data = stored_form(good)
    data["pages"]["p.md"]["files"] = files
    report = check(project, data)
    assert any(message in p.message for p in report.problems if p.where.startswith("pages.p.md")), problems(report)


def test_entry_beyond_the_pages_blocks(project, good):
    good["blocks"]["es/p.md#7"] = copy.deepcopy(entry(good)) | {"index": 7, "sha256": "1" * 64}
    assert only(check(project, good), "es/p.md#7", "warning").startswith("stale: the page has 3 blocks now, none at index 7")


# -- private data ----------------------------------------------------------------------------------------------------
def test_home_path_in_an_output(project, good):
    entry(good)["output"] = "uno\nsaved to /home/alice/models/pets.keras\n"
    report = check(project, good)
    assert only(report, "es/p.md#0.output") == "line 2: contains a home directory (/home/<a…>)"
    assert [p.hint for p in report.problems if p.rule == "private"] == [FIX]
    assert str(report.problems[-1]).endswith("es/p.md#0.output: error: line 2: contains a home directory (/home/<a…>)\n"
                                             "  hint: " + FIX)
    assert "alice" not in "\n".join(map(str, report.problems))


def test_a_report_quoted_in_an_output_is_not_private(project, good):
    """A block may print record check's own report (the page on sending records does): its
    masked excerpts are no home directory, name or token themselves."""
    entry(good)["output"] = "alice's home /home/alice/x, USER=alice, token ghp_" + "a1B2" * 9 + "\n"
    quoted = "\n".join(str(p) for p in check(project, good).problems)
    assert quoted.count("error") == 3
    entry(good)["output"] = quoted
    assert problems(check(project, good)) == []


@pytest.mark.parametrize("text, kind, secret", [
    ("token ghp_" + "a1B2" * 9, "a GitHub token", "a1B2" * 9),
    ("github_pat_" + "11ABCDEFG0" * 3, "a GitHub token", "11ABCDEFG0" * 3),
    ("HF_TOKEN=hf_" + "aBcD" * 9, "a Hugging Face token", "aBcD" * 9),
    ("key AKIAIOSFODNN7EXAMPLE", "an AWS access key", "IOSFODNN7EXAMPLE"),
    ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "an AWS secret key", "wJalrXUtnFEMI"),
    ("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9abcdef", "a bearer token", "eyJhbGciOiJIUzI1NiJ9abcdef"),
    ("-----BEGIN OPENSSH PRIVATE KEY-----", "a private key", "OPENSSH PRIVATE"),
    ("pip install from https://alice:s3cret@pypi.example.com/simple", "a password in a URL", "s3cret"),
    ("DB_PASSWORD=Tr0ub4dor3xyzzyPlugh", "a secret setting", "Tr0ub4dor3xyzzyPlugh"),
    ("mail alice@corp.io for access", "an e-mail address", "alice@corp.io"),
    ("alice@workstation:~$ make test", "a user and host name (a shell prompt)", "alice@workstation"),
    ("USER=alice", "a user or host name", "alice"),
    ("C:\\Users\\Alice\\AppData\\Local\\Temp", "a home directory", "Alice"),
    ("/Users/alice/Library/Caches", "a home directory", "alice"),
])
def test_secrets_and_names_are_errors_never_repeated(project, good, text, kind, secret):
    entry(good)["output"] = text + "\n"
    report = check(project, good)
    message = only(report, "es/p.md#0.output")
    assert message.startswith(f"contains {kind} (")
    assert secret not in message


EXAMPLE_PAGE = """\
    # Página { #page }

    ```python
    from dataclasses import dataclass

    @dataclass
    class User:
        username: str
        email: str

    print(User(username='jdoe', email='jdoe@mail.com'))
    print("postgresql://postgres:postgres@localhost/db")
    ```
    """


@pytest.fixture
def example_site(tmp_path) -> Path:
    return write_tree(tmp_path / "example", {f"docs/{lang}/p.md": EXAMPLE_PAGE for lang in ("es", "en", "fr")},
                      conftest=False)


def test_the_docs_own_example_data_is_no_leak(example_site):
    """What the block's code writes (a user name, an address, a URL's password) is the docs' data:
    its output shows it back, and the record is accepted; a name the code does not hold still is not."""
    data = synthetic_record(example_site, RX7600)
    entry(data)["output"] = ("User(username='jdoe', email='jdoe@mail.com')\n"
                             "OperationalError: postgresql://postgres:postgres@localhost/db refused\n")
    assert problems(check(example_site, data)) == []
    entry(data)["output"] += "User(username='alice', email='alice@mail.com')\nsaved to /home/jdoe/x\n"
    report = check(example_site, data)
    assert [p.message.split(" (")[0] for p in report.problems] == [
        "line 4: contains a home directory", "line 3: contains an e-mail address", "line 3: contains a user or host name"]


def test_the_page_is_no_cover_for_this_machines_names(example_site, monkeypatch):
    monkeypatch.setenv("HOME", "/srv/people/jdoe")
    data = synthetic_record(example_site, RX7600)
    entry(data)["error"] = 'File "/srv/people/jdoe/venv/x.py", line 3'
    assert only(check(example_site, data), "es/p.md#0.error").startswith("contains this machine's home directory (/s…)")


def test_the_sites_allow_list_covers_the_rest(example_site):
    mkdocs = example_site / "mkdocs.yml"
    data = synthetic_record(example_site, RX7600)
    entry(data)["output"] = "mail sales@mail.com or USER=scolvin\n"
    assert len(check(example_site, data).problems) == 2
    mkdocs.write_text(mkdocs.read_text(encoding="utf-8").replace(
        "plugins:\n", "plugins:\n  - ruota_docs:\n      allow_private: ['[a-z]+@mail\\.com', scolvin]\n"),
        encoding="utf-8")
    assert "allow_private" in mkdocs.read_text(encoding="utf-8")
    assert problems(check(example_site, data)) == []
    entry(data)["output"] = "USER=scolvinX\n"  # matched in full, never a prefix
    assert len(check(example_site, data).problems) == 1


def test_a_bad_allow_list_entry_is_named(example_site):
    mkdocs = example_site / "mkdocs.yml"
    mkdocs.write_text(mkdocs.read_text(encoding="utf-8").replace(
        "plugins:\n", "plugins:\n  - ruota_docs:\n      allow_private: ['(']\n"), encoding="utf-8")
    report = check(example_site, synthetic_record(example_site, RX7600))
    assert only(report, "mkdocs.yml").startswith("allow_private[0]: '(' is no regular expression")


def test_ip_addresses_and_gpu_ids_are_warnings(project, good):
    entry(good)["output"] = "nccl on 192.168.1.20 and 8.8.8.8\nGPU-12345678-abcd-ef01-2345-6789abcdef01\n"
    report = check(project, good)
    assert problems(report, "error") == []
    assert [p.message.split(" (")[0] for p in report.problems] == [
        "line 1: contains a private IP address", "line 1: contains an IP address", "line 2: contains a GPU's unique id"]


def test_host_and_user_fields_are_refused(project, good):
    good["machine"]["hostname"] = "desk"
    assert only(check(project, good), "machine.hostname").startswith(
        "unknown field (the engine never records host or user names); the engine writes only: backend, gpu_name")


def test_this_machines_home_folder(project, good, monkeypatch):
    """A contributor checking their own record: their home directory is found whatever its shape."""
    monkeypatch.setenv("HOME", "/srv/people/tester")
    entry(good)["error"] = 'File "/srv/people/tester/venv/x.py", line 3'
    assert only(check(project, good), "es/p.md#0.error").startswith("contains this machine's home directory (/s…)")


def test_secrets_in_any_field(project, good):
    entry(good)["id"] = "hf_" + "Q" * 34
    good["machine"]["packages"]["ghp_" + "z" * 36] = "1.0"
    report = check(project, good)
    assert only(report, "es/p.md#0.id").startswith("contains a Hugging Face token")
    assert any(p.where.startswith("machine.packages") and "GitHub token" in p.message for p in report.problems)


# -- sizes and times ---------------------------------------------------------------------------------------------------
def test_oversized_output(project, good):
    entry(good)["output"] = "y" * (OUTPUT_LIMIT + 500)
    assert only(check(project, good), "es/p.md#0.output", "error") == (
        f"{OUTPUT_LIMIT + 500:,} characters: the engine keeps at most {OUTPUT_LIMIT:,} (and cuts the middle); "
        "this output was not cut by it")


def test_output_cut_by_the_engine_fits(project, good):
    half = OUTPUT_LIMIT // 2
    entry(good)["output"] = "h" * half + "\n… [39,800,000 bytes of output omitted] …\n" + "t" * half
    assert problems(check(project, good)) == []


@pytest.mark.parametrize("where, field, value, message", [
    ("es/p.md#0.ran_at", "ran_at", "2026-12-02T00:00:00Z", "2026-12-02T00:00:00Z is in the future (this machine's clock: 2026-12-01T12:00:00Z)"),
    ("es/p.md#0.ran_at", "ran_at", "2026-11-28 09:30", "must be a UTC time like 2026-11-29T21:04:05Z, not \"2026-11-28 09:30\""),
    ("es/p.md#0.ran_at", "ran_at", "2026-11-29T10:00:00Z", "2026-11-29T10:00:00Z is after the record's updated time (2026-11-28T09:30:00Z)"),
])
def test_times(project, good, where, field, value, message):
    for lang in ("es", "en", "fr"):  # the copies share one result
        entry(good, f"{lang}/p.md#0")[field] = value
    assert only(check(project, good), where) == message


def test_future_update_and_clock_skew(project, good):
    good["updated"] = "2026-12-01T12:03:00Z"  # three minutes ahead: clock skew
    assert problems(check(project, good)) == []
    good["updated"] = "2027-01-01T00:00:00Z"
    assert only(check(project, good), "record.updated").endswith("is in the future (this machine's clock: 2026-12-01T12:00:00Z)")


# -- schema ----------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("raw, message", [
    ('{"schema": 1, "kind": "ruota-docs/ledger", "blocks": {', "not valid JSON (line 1, column 55: Expecting property name enclosed in double quotes)"),
    ('{"schema": 1, "schema": 1}', "the key 'schema' appears twice: JSON readers would keep only one"),
    ("[]", "must be a JSON object"),
])
def test_unreadable_records(project, raw, message):
    report = check(project, None, name="rocm-gfx1102.json", raw=raw)
    assert problems(report) == [f"record: error: {message}"]


def test_not_utf8(project):
    path = project / "rocm-gfx1102.json"
    path.write_bytes(b'{"a": "\xff"}')
    report = record_check.check_file(path, project, project / "docs", now=NOW)
    assert problems(report) == ["record: error: not UTF-8 (byte 7)"]


def result(data: dict, n: int = 0) -> dict:
    """The ``n``-th stored result of p.md (0: the first block, the same code in every language)."""
    return data["pages"]["p.md"]["results"][n]


R0 = "pages.p.md.results[0]"


@pytest.mark.parametrize("change, where, message", [
    (lambda r: r.pop("outcome"), R0, "missing field 'outcome' (a string)"),
    (lambda r: r["at"].update(es="0"), f"{R0}.at.es", 'must map a language folder to the block\'s index ≥ 0, not "0"'),
    (lambda r: r["at"].update(es=True), f"{R0}.at.es", "must map a language folder to the block's index ≥ 0, not true"),
    (lambda r: r["at"].update(es=[0, 3]), f"{R0}.at.es", "must map a language folder to the block's index ≥ 0, not [0, 3]"),
    (lambda r: r["at"].update(es=7), f"{R0}.at.es", "block 7 of the es copy has no line in the page's \"lines\""),
    (lambda r: r.update(reason="0" * 16), f"{R0}.reason", "names reason '0000000000000000', which \"reasons\" does not hold"),
    (lambda r: r.update(at={}), f"{R0}.at", "must name at least one language's copy of the block"),
    (lambda r: r.update(env={"PATH": "/usr/bin"}), f"{R0}.env", "unknown field; the engine writes only: sha256, at, credited"),
    (lambda r: r.update(outcome="great"), "es/p.md#0.outcome", "outcome must be one of passed, failed, skipped, error, not 'great'"),
    (lambda r: r.update(sha256="abc"), "es/p.md#0.sha256", "must be the 64 lower-case hex digits of the code's SHA-256"),
    (lambda r: r.update(credited={"es": "es"}), f"{R0}.credited.es", 'must map a copy named in "at" to the other language'),
    (lambda r: r.update(credited={"de": "es"}), f"{R0}.credited.de", 'must map a copy named in "at" to the other language'),
    (lambda r: r.update(duration=-1), "es/p.md#0.duration", "must be a number of seconds ≥ 0, not -1"),
    (lambda r: r.update(as_root="no"), f"{R0}.as_root", 'must be true or false or null, not "no"'),
    (lambda r: r.update(output="0" * 16), f"{R0}.output", "names output '0000000000000000', which \"outputs\" does not hold"),
])
def test_stored_result_schema(project, good, change, where, message):
    data = stored_form(good)
    change(result(data))
    report = check(project, data)
    assert any(p.message.startswith(message) for p in report.problems if p.where == where), problems(report)


def test_two_results_for_one_block(project, good):
    data = stored_form(good)
    result(data, 1)["at"]["es"] = 0
    assert only(check(project, data), "pages.p.md.results[1].at.es") == "es/p.md#0 has another result already (pages.p.md.results[0])"


def test_outputs_are_stored_once_and_unchanged(project, good):
    data = stored_form(good)
    assert list(data["outputs"].values()) == ["ran on AMD Radeon RX 7600\n"]  # by blocks 0 and 1, in 3 languages
    key = result(data)["output"]
    data["outputs"][key] = "edited by hand\n"
    data["outputs"]["0123456789abcdef"] = "nobody prints this\n"
    report = check(project, data)
    assert only(report, f"outputs.{key}").startswith("the key must be the first 16 hex digits of the output's SHA-256")
    assert only(report, "outputs.0123456789abcdef").startswith("the key must be")
    del data["outputs"]["0123456789abcdef"]
    data["outputs"][key] = good["blocks"]["es/p.md#0"]["output"]
    unused = stored.output_id("unused\n")
    data["outputs"][unused] = "unused\n"
    assert problems(check(project, data)) == [
        f"outputs.{unused}: error: no result names this output: the engine stores only outputs it shows"]


def test_reasons_are_stored_once_and_unchanged(project):
    good = synthetic_record(project, H200)
    for lang in ("es", "en", "fr"):
        entry(good, f"{lang}/p.md#2").update(outcome="skipped", reason="requires ROCm; this machine: CUDA, NVIDIA H200",
                                             reason_code=REQUIRES, as_root=None, output="")
    data = stored_form(good)
    (key, why), = data["reasons"].items()  # one reason, given in 3 languages
    assert why == {"reason_code": REQUIRES}  # its English is the code's: not stored
    data["reasons"][key] = why | {"reason": "skipped: trust me"}
    assert only(check(project, data), f"reasons.{key}").startswith(
        "the key must be the first 16 hex digits of the SHA-256 of the reason as JSON")
    data["reasons"][key] = {}
    assert only(check(project, data), f"reasons.{key}") == (
        "must hold the reason's code (reason_code), its English (reason), or both")
    data["reasons"][key] = {"reason_code": REQUIRES, "why": "x"}
    assert only(check(project, data), f"reasons.{key}.why").startswith("unknown field")
    data["reasons"][key] = why
    unused = stored.reason_id({"reason": "unused", "reason_code": None})
    data["reasons"][unused] = {"reason_code": None, "reason": "unused"}
    assert problems(check(project, data)) == [
        f"reasons.{unused}: error: no result names this reason: the engine stores only reasons it gives"]


def test_a_schema_2_record_is_refused_saying_what_writes_a_new_one(project, good):
    report = check(project, stored_form(good) | {"schema": 2})
    assert only(report, "record.schema") == (
        "schema 2 is an older format (each result holds its line, its reason and its time), which this ruota-docs "
        "no longer reads; run the suite again on that machine, which writes a schema 3 record")


def test_an_old_format_record_is_refused_and_not_read(project, good):
    raw = json.dumps(good | {"schema": 1})  # schema 1: one entry per page and language
    report = check(project, None, name="rocm-gfx1102.json", raw=raw)
    path = project / "verification" / "rocm-gfx1102.json"
    assert problems(report) == [
        "record.schema: error: schema 1 is the old format (one entry per page and language), which this ruota-docs "
        "no longer reads; run the suite again on that machine, which writes a schema 3 record"]
    assert main(["record", "migrate", str(path)]) == 1  # nothing this version reads: nothing to write again
    with pytest.raises(ledger.RecordError, match=r"schema 1 is older than the one this ruota-docs reads \(3\)"):
        ledger.load(path)


REQUIRES = {"code": "requires", "args": {"terms": ["rocm"], "machine": ["CUDA, NVIDIA H200"]}}


def test_a_reason_code_that_says_what_the_reason_says_is_accepted(project):
    data = coherent(project, H200)
    entry(data, "es/p.md#2").update(outcome="skipped", reason="requires ROCm; this machine: CUDA, NVIDIA H200",
                                    reason_code=REQUIRES, as_root=None)
    entry(data).update(reason_code=None)
    assert problems(check(project, data)) == []


@pytest.mark.parametrize("code, where, message", [
    ({"code": "because"}, "reason_code.code", "'because' is not a reason code (known: requires, not_run, "),
    ({"code": "requires", "args": {"terms": ["rocm"]}}, "reason_code.args", "requires needs 'machine'"),
    ({"code": "requires", "args": {**REQUIRES["args"], "why": "x"}}, "reason_code.args",
     "requires takes no argument 'why' (it takes: terms, machine)"),
    ({"code": "requires", "args": {"terms": "rocm", "machine": ["x"]}}, "reason_code.args.terms",
     "must be a list of strings, not 'rocm'"),
    ({"code": "page_stopped", "args": {"cause": {"code": "died", "args": {"ended": {"signal": 9.5}}}}},
     "reason_code.args.cause.args.ended", "must be {\"signal\": NAME or NUMBER} or {\"exit_status\": N}"),
    ({"code": "timeout", "args": {"seconds": 2.0}, "why": 1}, "reason_code", "must be an object {\"code\": …, \"args\": {…}}"),
])
def test_reason_code_schema(project, code, where, message):
    data = synthetic_record(project, H200)
    entry(data, "es/p.md#2").update(outcome="skipped", reason="requires ROCm; this machine: CUDA, NVIDIA H200",
                                    reason_code=code, as_root=None)
    found = [p.message for p in check(project, data).problems if p.where == f"es/p.md#2.{where}"]
    assert any(m.startswith(message) for m in found), problems(check(project, data))


def test_a_reason_code_must_say_what_the_reason_says(project):
    data = synthetic_record(project, H200)
    entry(data, "es/p.md#2").update(outcome="skipped", reason="requires CUDA; this machine: CUDA, NVIDIA H200",
                                    reason_code=REQUIRES, as_root=None)
    assert only(check(project, data), "es/p.md#2.reason_code") == (
        "says 'requires ROCm; this machine: CUDA, NVIDIA H200', the reason 'requires CUDA; this machine: CUDA, "
        "NVIDIA H200': the engine writes the reason as its code's English")


def test_records_before_as_root_existed_are_accepted(project, good):
    for item in good["blocks"].values():
        del item["as_root"], item["signature"]
    assert problems(check(project, good)) == []


def test_top_level_schema(project, good):
    data = stored_form(good) | {"schema": 4, "kind": "someone/else"}
    report = check(project, data)
    assert only(report, "record.schema").startswith("schema 4 is not the one this ruota-docs writes (3); a newer "
                                                    "ruota-docs wrote it: upgrade ruota-docs")
    assert only(report, "record.kind") == "must be 'ruota-docs/ledger'"


# -- the command -------------------------------------------------------------------------------------------------------------
def test_command_lines_and_exit_status(project, good, capsys):
    good["machine"]["hip"] = None
    entry(good, "es/p.md#1")["sha256"] = "0" * 64
    path = project / "verification" / "rocm-gfx1102.json"
    path.parent.mkdir()
    path.write_text(stored_text(good))
    code = main(["--root", str(project), "record", "check", str(path)])
    out = capsys.readouterr().out.splitlines()
    assert code == 1
    assert out == [
        f"{path}: machine.hip: error: no HIP version (torch.version.hip): a ROCm machine must record it",
        f"{path}: es/p.md#1: warning: stale: the code of block 1 (line 7) has changed since it ran",
        "  hint: The site marks this block “Not yet verified” until the page runs again on the machine that wrote this record.",
        f"{path}: 9 entries, 1 stale, 1 error, 1 warning",
        "REFUSED: 1 record, 9 entries (1 stale); 1 error, 1 warning",
    ]


def test_a_folder_stands_for_its_records(project, good, capsys):
    folder = project / "verification"
    folder.mkdir()
    (folder / "rocm-gfx1102.json").write_text(stored_text(good))
    assert main(["--root", str(project), "record", "check", str(folder)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("accepted: 1 record")
    empty = project / "empty"
    empty.mkdir()
    assert main(["--root", str(project), "record", "check", str(empty)]) == 2
    assert f"no records (*.json) in {empty}" in capsys.readouterr().err


def test_command_json_and_strict(project, good, capsys):
    entry(good, "es/p.md#1")["sha256"] = "0" * 64
    path = project / "rocm-gfx1102.json"
    path.write_text(stored_text(good))
    assert main(["--root", str(project), "record", "check", str(path)]) == 0
    capsys.readouterr()
    assert main(["--root", str(project), "record", "check", "--strict", "--json", str(path)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False
    assert report["records"][0]["stale"] == 1
    assert report["records"][0]["problems"][0] | {"file": None} == {
        "file": None, "where": "es/p.md#1", "severity": "warning", "rule": "stale",
        "message": "stale: the code of block 1 (line 7) has changed since it ran",
        "hint": "The site marks this block “Not yet verified” until the page runs again on the machine that wrote this record."}


def test_command_needs_files_and_reports_missing_ones(project, capsys):
    assert main(["--root", str(project), "record", "check"]) == 2
    assert "record check: name the records (FILE…, a directory, or --from a list)" in capsys.readouterr().err
    assert main(["--root", str(project), "record", "check", str(project / "nope.json")]) == 1
    assert f"{project / 'nope.json'}: record: error: cannot be read: No such file or directory" in capsys.readouterr().out


@pytest.mark.realdocs
def test_committed_records_pass(capsys):
    records = sorted(str(p) for p in (REPO / "verification").glob("*.json"))
    assert records
    code = main(["--root", str(REPO), "record", "check", *records])
    out = capsys.readouterr().out
    assert code == 0, out
    assert " 0 errors" in out.splitlines()[-1]


# -- provenance, fingerprints, duplicates, size ----------------------------------------------------------------------
RUN = "https://github.com/ruota/ruota-docs/actions/runs/4242"

CI = {"kind": "ci", "run_url": RUN, "repository": "ruota/ruota-docs", "commit": "a" * 40,
      "runner_labels": ["self-hosted", "linux", "rocm", "gfx1102"]}


def test_a_ci_record_with_its_run_is_accepted(project, good):
    good["provenance"] = dict(CI)
    good["fingerprint"] = "f" * 32
    assert problems(check(project, good, name="rocm-gfx1102-ffffffff.json")) == []
    assert problems(check(project, good)) == []  # the plain machine id is a name too


@pytest.mark.parametrize("change, where, message", [
    (lambda p: p.pop("run_url"), "provenance.run_url", "a CI record links to its workflow run, https://github.com/OWNER/REPO/actions/runs/ID: missing"),
    (lambda p: p.update(run_url="https://github.com/mallory/fork/actions/runs/1"), "provenance.run_url",
     "is a run of mallory/fork, not of the record's repository ruota/ruota-docs"),
    (lambda p: p.update(commit="main"), "provenance.commit", "must be the 40 lower-case hex digits of the commit the suite ran on, not 'main'"),
    (lambda p: p.update(runner_labels=["ubuntu-latest"]), "provenance.runner_labels",
     "the records' workflow runs only on self-hosted runners: 'self-hosted' is not among ['ubuntu-latest']"),
    (lambda p: p.update(runner_labels=["self-hosted", "rocm", "gfx1030"]), "provenance.runner_labels",
     "the job ran on a runner labelled ['self-hosted', 'rocm', 'gfx1030'], not on one labelled gfx1102 as this record's machine is"),
    (lambda p: p.update(kind="trusted"), "provenance.kind", "must be ci (written by a CI job) or sent (by hand), not 'trusted'"),
    (lambda p: p.update(token="x"), "provenance.token", "unknown field for ci; ci holds only: kind, run_url, repository, commit, runner_labels"),
])
def test_a_provenance_that_does_not_fit(project, good, change, where, message):
    good["provenance"] = dict(CI)
    change(good["provenance"])
    assert only(check(project, good), where) == message


def test_missing_provenance_and_bad_fingerprints(project, good):
    del good["provenance"]
    assert only(check(project, good), "record") == "missing field 'provenance' (an object)"
    good["provenance"], good["fingerprint"] = {"kind": "sent", "commit": None}, "my-laptop"
    assert only(check(project, good), "fingerprint").startswith("must be 32 lower-case hex digits")


def test_the_file_name_with_a_fingerprint(project, good):
    good["fingerprint"] = "0123456789abcdef" * 2
    report = check(project, good, name="rocm-gfx1102-deadbeef.json")
    assert only(report, "record", "error").startswith(
        "the file must be named rocm-gfx1102.json or rocm-gfx1102-01234567.json (the machine's id, and its fingerprint)")


def test_two_records_of_one_machine(project, good, capsys):
    folder = project / "incoming"
    folder.mkdir()
    good["fingerprint"] = "c" * 32
    for name in ("rocm-gfx1102.json", "rocm-gfx1102-cccccccc.json"):
        (folder / name).write_text(stored_text(good), encoding="utf-8")
    code = main(["--root", str(project), "record", "check", str(folder / "rocm-gfx1102.json"), str(folder / "rocm-gfx1102-cccccccc.json")])
    out = capsys.readouterr().out
    assert code == 1
    assert (f"{folder / 'rocm-gfx1102-cccccccc.json'}: machine_id: error: machine 'rocm-gfx1102' (fingerprint cccccccc…) "
            f"already has a record: {folder / 'rocm-gfx1102.json'}; one machine sends one record") in out
    with pytest.raises(ledger.LedgerError, match=r"rocm-gfx1102.json: machine_id: machine 'rocm-gfx1102' \(fingerprint "
                                                 r"cccccccc…\) already has a record, rocm-gfx1102-cccccccc.json"):
        ledger.load_all(folder)
    good["fingerprint"] = "d" * 32  # another RX 7600: a second, independent record
    (folder / "rocm-gfx1102-cccccccc.json").unlink()
    (folder / "rocm-gfx1102-dddddddd.json").write_text(stored_text(good), encoding="utf-8")
    assert len(ledger.load_all(folder)) == 2


@pytest.mark.realdocs
def test_a_record_ten_times_larger_than_a_real_one_is_refused_naming_its_field(tmp_path):
    committed = sorted((REPO / "verification").glob("cuda-*.json"))[0]  # the committed GPU record
    real = as_dict(ledger.load(committed))
    size = committed.stat().st_size
    padded = copy.deepcopy(real)
    for n, item in enumerate(list(padded["blocks"].values())[:60]):
        item["output"] = f"{n}: " + "0.1234 " * 2500  # within the engine's limit per output, far beyond any run's
    path = tmp_path / "cuda-nvidia-h200.json"
    path.write_text(stored_text(padded), encoding="utf-8")
    assert path.stat().st_size > 10 * size
    report = record_check.check_file(path, REPO, REPO / "docs", now=NOW)
    message = only(report, "record")
    assert message.startswith(f"{path.stat().st_size:,} bytes, over the 524,288 a record of this site may take")
    assert re.search(r"its largest field is outputs \([\d,]+ bytes\), the largest value in it outputs\.[0-9a-f]{16} "
                     r"\(17,5\d\d bytes\)$", message), message


@pytest.mark.parametrize("text, kind", [
    ("scp model.pt alice@workstation-42", "a user and host name (al…)"),
    ("connected to erins-desktop.local:8080", "a host name (er…)"),
])
def test_user_at_host_and_host_names_of_any_machine_in_any_field(project, good, text, kind):
    good["machine"]["packages"]["note"] = text
    entry(good)["reason"] = text
    for lang in ("es", "en", "fr"):
        entry(good, f"{lang}/p.md#1")["output"] = f"saved\n{text}\n"
    report = check(project, good)
    found = {p.where: (p.message, p.hint) for p in report.problems if p.rule == "private"}
    assert found["machine.packages.note"] == (f"contains {kind}", FIX)
    assert found["es/p.md#0.reason"] == (f"contains {kind}", FIX)
    assert found["en/p.md#1.output"] == (f"line 2: contains {kind}", FIX)


def test_a_result_and_its_page_without_a_time_are_refused(project, good):
    data = stored_form(good)
    page = data["pages"]["p.md"]
    page.pop("ran_at")
    assert only(check(project, data), "pages.p.md.results[0].ran_at") == (
        "missing: neither the result nor its page says when it ran")


def test_what_a_finding_says_to_do_makes_the_record_pass(project, good, tmp_path, capsys):
    """Remove the text, then `record migrate`: the tables are keyed again and the check passes."""
    for lang in ("es", "en", "fr"):
        entry(good, f"{lang}/p.md#1")["output"] = "saved\nscp model.pt alice@workstation-42\n"
    path = project / "verification" / "rocm-gfx1102.json"
    path.parent.mkdir(exist_ok=True)
    ledger.write_atomic(path, record_of(good))
    found = record_check.check_file(path, project, project / "docs", now=NOW).problems
    assert [p.hint for p in found if p.where == "en/p.md#1.output"] == [FIX]
    path.write_text(path.read_text(encoding="utf-8").replace("scp model.pt alice@workstation-42", "scp model.pt"),
                    encoding="utf-8")
    assert any(p.where.startswith("outputs.") for p in record_check.check_file(path, project, project / "docs",
                                                                              now=NOW).problems)  # keyed for the old text
    assert main(["record", "migrate", str(path)]) == 0
    report = record_check.check_file(path, project, project / "docs", now=NOW)
    assert [p for p in report.problems if p.severity == "error"] == []


# -- evidence tiers -----------------------------------------------------------------------------------------------
TIERED = """\
    # Página { #page }

    <!-- evidence: compiled arch=gfx1102 -->
    ```python
    print("compilado")
    ```

    <!-- requires: gpu -->
    <!-- evidence: checked -->
    ```python
    print("comprobado")
    ```
    """


@pytest.fixture
def tiered(tmp_path) -> Path:
    return write_tree(tmp_path / "tiered", {f"docs/{lang}/p.md": TIERED for lang in ("es", "en", "fr")}, conftest=False)


def with_tiers(project: Path, machine: dict, **tiers) -> dict:
    data = synthetic_record(project, machine)
    for key, tier in tiers.items():
        for lang in ("es", "en", "fr"):
            data["blocks"][f"{lang}/p.md#{key[-1]}"]["tier"] = tier
    return data


def test_tiers_the_blocks_reach_are_accepted(tiered):
    assert problems(check(tiered, with_tiers(tiered, H200, block0="compiled", block1="checked"))) == []
    report = check(tiered, with_tiers(tiered, H200))  # a record from before tiers states none
    assert problems(report) == []


def test_a_tier_the_block_does_not_reach_is_refused(tiered):
    data = with_tiers(tiered, H200, block0="checked")
    assert only(check(tiered, data), "es/p.md#0.tier") == "the block (line 4) reaches compiled when it passed, not 'checked'"


def test_a_tier_needs_a_pass_a_known_name_and_for_ran_a_card(tiered):
    data = with_tiers(tiered, H200, block0="compiled")
    for lang in ("es", "en", "fr"):
        data["blocks"][f"{lang}/p.md#0"] |= {"outcome": "failed", "output": "", "as_root": False}
    assert only(check(tiered, data), "es/p.md#0.tier") == "a failed block reached no tier (got 'compiled')"
    data = with_tiers(tiered, H200, block1="passed")
    assert only(check(tiered, data), "es/p.md#1.tier") == "tier must be one of compiled, ran, checked, not 'passed'"
    data = with_tiers(tiered, CPU, block1="checked")
    assert only(check(tiered, data), "es/p.md#1.tier") == (
        "tier 'checked' needs a GPU, and this record's machine has none (CPU only, x86_64)")


def test_a_build_gives_the_check_the_blocks_it_rendered(project, good):
    """A build checks its records on each page's blocks as it rendered them (``built``), and renders only
    the pages it did not; `record check` on the command line renders every page."""
    import textwrap

    from ruota_docs.blocks.collect import page_blocks

    docs = project / "docs"
    path = project / "verification" / "rocm-gfx1102.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(stored_text(good), encoding="utf-8")
    built = {"es/p.md": page_blocks(project, docs, docs / "es" / "p.md", shown_only=True)}
    (docs / "es" / "p.md").write_text(textwrap.dedent(PAGE).replace('print("dos")', 'print("otro")'), encoding="utf-8")
    rendered = record_check.check_files([path], project, docs, now=NOW)[0]
    assert [p.where for p in rendered.problems] == ["es/p.md#1"] and rendered.stale == 1  # the file, as it is now
    given = record_check.check_files([path], project, docs, now=NOW, built=built)[0]
    assert problems(given) == [] and given.stale == 0  # the blocks the build rendered, not the file's
