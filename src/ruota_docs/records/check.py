"""What ``ruota-docs record check FILE…`` requires of a record before the site shows it.

A record that someone sends (``verification/<machine-class>-<fingerprint>.json``) is checked
against the rules below. Each problem is reported on one line, ``FILE: WHERE: error|warning:
reason``, sometimes followed by an indented ``hint:`` line that says what to do. WHERE is one
of these:

- the block's key, such as ``es/guides/keras-rx7600.md#8`` (where the copies of a block share
  one result, the key of its first copy);
- a field, such as ``machine.hip`` or ``pages.guides/x.md.results[2].at``;
- ``record``, for the file as a whole.

Any error makes the command exit with status 1. Warnings do not, unless ``--strict`` is given.
These are the rules, each with its severity:

- **schema** (error). The record is well formed:
    - it is valid UTF-8 JSON with no duplicate keys, its ``kind`` is known and its ``schema`` is
      the current one;
    - every field of `ruota_docs.records.schema.MACHINE_FIELDS` and of a stored result is present
      with its type, and there is nothing else (a stored result, described in
      `ruota_docs.records.stored`, holds the fields of `ruota_docs.records.schema.Result` that a
      block's copies share, plus ``at`` and ``credited``);
    - there is one result per block, and each page's ``lines`` field gives, for each language's copy
      of the page, the line on which each block starts (``null`` where it is unknown);
    - each output and reason is keyed by its hash and referenced by a result;
    - outcomes, hashes and languages are well formed;
    - a ``reason_code`` is one of `ruota_docs.records.reason_codes.CODES`, with its arguments, and
      its English text matches the entry's ``reason``;
    - ``isolation`` is one of `ruota_docs.records.schema.ISOLATIONS`, and is given only where
      code ran;
    - a copy whose result comes from another language's run names an existing page of this site.
- **stale** (warning). The entry's page is gone, the page has no block at that index, or no block
  of the page has the entry's code (its SHA-256) any more. The site never shows such an entry as
  verified (`ruota_docs.records.verdicts`), so this is only a warning. Run the page again.
- **machine** (error). The machine description is consistent:
    - ROCm needs a HIP version, a ``gfx…`` target and a GPU name;
    - CUDA needs a CUDA version, an ``sm_…`` target and a GPU name;
    - a CPU machine has no GPU;
    - the torch build is not one for the other GPU backend (no CUDA build on a ROCm machine, no
      ROCm build on a CUDA machine);
    - ``machine_id`` is the machine class the engine gives this machine, in the record and in the file name;
    - the skip reasons describe this machine.
- **agreement** (error). A block may have a passed or failed result only if the record's machine
  meets the block's machine requirements (backend, ``arch=``, ``os=``, ``vram>=``, ``python>=``,
  ``torch>=``; see `ruota_docs.records.agreement`). The output of a passed Python block must contain
  the lines that its ``#>`` comments state, in order (`ruota_docs.blocks.expected_output`).
- **GPU name** (error or warning). The target must match the GPU's name (`ruota_docs.records.gpus`);
  a name missing from the table is only a warning. Machine names and versions must be
  printable ASCII, so a Cyrillic "А" in "AMD", which looks identical to a Latin one, is an error.
- **private** (error, but a warning for IP addresses and hardware IDs). No field names a person
  or holds a secret (`ruota_docs.records.private_data`).
- **size** (error). Each output is within the engine's limit
  (`ruota_docs.records.schema.OUTPUT_LIMIT`), plus room for the note that says what was cut.
- **listing** (error). The record is a regular file, never a hidden one or a link. In the records
  directory, it is named as the engine names records (`ruota_docs.records.listing`).
- **bounds** (error). The file is read only up to its size limit, and it must stay within the
  engine's other limits (`ruota_docs.records.bounds`):
    - its nesting stays within the depth limit;
    - its numbers are finite and of a usable size, including the metric lines that charts read;
    - it holds no control, bidirectional or zero-width characters;
    - its keys, names and other short fields stay within the length limit.
- **time** (error). The ``updated`` field and the time of every result are UTC times. A result's time is
  its page's ``ran_at`` (the time most of the page's results share), or its own ``ran_at`` where it ran at
  another time. For all of them:
    - none is in the future (five minutes of clock skew is allowed);
    - none is earlier than the day the engine began writing records (`EARLIEST`);
    - none is later than ``updated``;
    - ``updated`` is not earlier than the commit the suite ran on, where the repository has it.

The record is first decoded strictly, field by field, against the shape rules of **schema**.
It is then read as the model (`ruota_docs.records.schema.Record`), whose results the other rules
judge.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import math
import re
import unicodedata
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruota_docs.records import (agreement, attestations, bounds, gpus, listing, private_data, provenance,
                                reason_codes, schema, stored)
from ruota_docs.blocks.block import Block
from ruota_docs.blocks.collect import PageError, page_blocks
from ruota_docs.blocks import expected_output, site_config, tiers
from ruota_docs.blocks.terms import OS_NAMES
from ruota_docs.records.schema import (
    BACKENDS, CUT_NOTE, OUTPUT_LIMIT, RECORD_LIMIT, BlockRef, Machine, RecordError, Result,
)

#: Clock skew allowed between the machine that ran the suite and the one checking.
SKEW = dt.timedelta(minutes=5)
#: No record is older than the engine that writes them (November 2026): an earlier time is made up.
EARLIEST = dt.datetime(2026, 11, 1, tzinfo=dt.timezone.utc)
MAX_BYTES = bounds.MAX_BYTES
_HEX64 = re.compile(r"[0-9a-f]{64}")
_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z")
#: ``page#index``: the page as a path under the docs directory (``fr/guide.md``, ``advanced/auth.md``)
_KEY = re.compile(r"(?P<page>[^#\s/][^#\s]*\.md)#(?P<index>\d+)")
_DESCRIBED_AS = "|".join(re.escape(b.described) for b in BACKENDS.values())
_MACHINE_DESCRIBED = re.compile(rf"(?:^|; )((?:{_DESCRIBED_AS}), [^;()]+?)(?: \(|;|$)")


@dataclass
class Problem:
    file: str
    where: str
    severity: str  #: "error" or "warning"
    rule: str
    message: str  #: what is wrong, one short clause
    hint: str = ""  #: what to do about it, in sentences, where that takes more than the message says

    def __str__(self) -> str:
        line = f"{listing.shown(self.file)}: {self.where}: {self.severity}: {self.message}"
        return f"{line}\n  hint: {self.hint}" if self.hint else line

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "where": self.where, "severity": self.severity, "rule": self.rule,
                "message": self.message, "hint": self.hint}


@dataclass
class Report:
    """What checking one file found."""

    file: str
    problems: list[Problem] = field(default_factory=list)
    entries: int = 0
    stale: int = 0
    as_root: int = 0
    identity: tuple[Any, ...] | None = None  #: (machine_id, fingerprint), once read

    def add(self, where: str, severity: str, rule: str, message: str, hint: str = "") -> None:
        self.problems.append(Problem(self.file, where, severity, rule, message, hint))

    def count(self, severity: str) -> int:
        return sum(1 for p in self.problems if p.severity == severity)

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "entries": self.entries, "stale": self.stale, "as_root": self.as_root,
                "errors": self.count("error"), "warnings": self.count("warning"),
                "problems": [p.to_dict() for p in self.problems]}


class _Duplicate(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = {}
    for key, value in pairs:
        if key in data:
            raise _Duplicate(key)
        data[key] = value
    return data


def _type_name(types: tuple[Any, ...]) -> str:
    names = {str: "a string", int: "an integer", float: "a number", bool: "true or false", dict: "an object",
             type(None): "null"}
    return " or ".join(dict.fromkeys(names[t] for t in types))


def _has_type(value: Any, types: tuple[type, ...]) -> bool:
    if isinstance(value, bool) and bool not in types:
        return False  # true is not an index
    return isinstance(value, types)


def _fields(report: Report, where: str, data: Mapping[str, Any], expected: Mapping[str, tuple[type, ...]],
            optional: Collection[str] = ()) -> bool:
    """Every expected field with its type, nothing else; False if any is wrong."""
    ok = True
    for name, types in expected.items():
        if name not in data:
            if name not in optional:
                report.add(where, "error", "schema", f"missing field {name!r} ({_type_name(types)})")
                ok = False
        elif not _has_type(data[name], types):
            report.add(f"{where}.{name}", "error", "schema",
                       f"must be {_type_name(types)}, not {json.dumps(data[name])[:60]}")
            ok = False
    for name in data:
        if name not in expected:
            names_someone = name in ("hostname", "user", "username", "host")
            why = " (the engine never records host or user names)" if names_someone else ""
            report.add(f"{where}.{name}", "error", "schema",
                       f"unknown field{why}; the engine writes only: {', '.join(expected)}")
            ok = False
    return ok


def _time(report: Report, where: str, value: Any, now: dt.datetime) -> dt.datetime | None:
    if not isinstance(value, str) or not _TIME.fullmatch(value):
        report.add(where, "error", "time",
                   f"must be a UTC time like 2026-11-29T21:04:05Z, not {json.dumps(value)[:40]}")
        return None
    when = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    if when < EARLIEST:
        report.add(where, "error", "time", f"{value} is before ruota-docs wrote any record ({EARLIEST:%Y-%m-%d})")
    elif when > now + SKEW:
        report.add(where, "error", "time", f"{value} is in the future (this machine's clock: {now:%Y-%m-%dT%H:%M:%SZ})")
    return when


# -- the machine ---------------------------------------------------------------------------
#: backend → its name, its version field and what that is, its target's pattern and what that
#: is, the other GPU backend's version field, the tag of a torch built for it, and its name
_GPU_BACKENDS = {
    "rocm": (BACKENDS["rocm"].name, "hip", "HIP version (torch.version.hip)", r"gfx[0-9a-f]{3,4}",
             "gfx target (gcnArchName, e.g. gfx1102)", "cuda", "+cu", BACKENDS["cuda"].name),
    "cuda": (BACKENDS["cuda"].name, "cuda", "CUDA version (torch.version.cuda)", r"sm_\d{2,3}",
             "compute capability (e.g. sm_90)", "hip", "+rocm", BACKENDS["rocm"].name),
}


def _check_machine(report: Report, data: dict[str, Any], machine_id: Any, stem: str | None,
                   fingerprint: Any = None) -> Machine | None:
    """The record's ``machine``: decoded strictly (each field with its type), then what it says checked."""
    if not _fields(report, "machine", data, schema.MACHINE_FIELDS):
        return None
    if not _check_machine_text(report, data):
        return None
    machine = Machine.from_json(data)
    if machine.backend not in BACKENDS:
        report.add("machine.backend", "error", "machine", f"must be rocm, cuda or cpu, not {machine.backend!r}")
        return None
    if machine.os not in OS_NAMES:
        report.add("machine.os", "error", "machine", f"must be one of {', '.join(OS_NAMES)}, not {machine.os!r}")
    if machine.backend in _GPU_BACKENDS:
        _check_gpu_machine(report, machine)
    else:
        _check_cpu_machine(report, machine)
    for package, version in machine.packages.items():
        if not isinstance(version, str):
            report.add(f"machine.packages.{package}", "error", "schema", "must be a version string")
    _check_machine_names(report, machine, machine_id, stem, fingerprint)
    return machine


#: What a machine field may hold: printable ASCII, as drivers, Python and pip report names and versions
#: (™ and ® aside, which some drivers write).
_NOT_MACHINE_TEXT = re.compile(r"[^\x20-\x7e™®]")


def _check_machine_text(report: Report, machine: dict[str, Any]) -> bool:
    """Every name and version of ``machine`` in printable ASCII: a letter of another script reads as a
    Latin one ("АMD Radeon" with a Cyrillic А), so a name the table of GPUs does not know could pass for
    one it does; False where one does not."""
    texts = [(f"machine.{key}", value) for key, value in machine.items() if isinstance(value, str)]
    for name, version in machine["packages"].items():
        texts += [(f"machine.packages.{name}", text) for text in (name, version) if isinstance(text, str)]
    ok = True
    for where, text in texts:
        found = _NOT_MACHINE_TEXT.search(text)
        if found:
            char = found.group()
            report.add(where, "error", "machine",
                       f"holds U+{ord(char):04X} ({unicodedata.name(char, 'not a letter')}) at character "
                       f"{found.start() + 1}: machine names and versions are ASCII, as drivers and Python report "
                       "them; a letter of another script reads like a Latin one")
            ok = False
    return ok


def _check_gpu_machine(report: Report, machine: Machine) -> None:
    """A ROCm or CUDA machine: its toolkit's version, a gfx/sm target that fits its GPU, no other toolkit."""
    arch, name, torch = machine.arch, machine.gpu_name, machine.torch or ""
    def add(where: str, message: str) -> None:
        report.add(where, "error", "machine", message)

    label, version, version_is, target, target_is, other, other_tag, other_label = _GPU_BACKENDS[machine.backend]
    if not getattr(machine, version):
        add(f"machine.{version}", f"no {version_is}: a {label} machine must record it")
    if not (arch and re.fullmatch(target, arch)):
        add("machine.arch", f"{arch!r} is not a {target_is}: a {label} machine must record one" if arch
            else f"no {target_is}: a {label} machine must record it")
    if getattr(machine, other):
        add(f"machine.{other}", f"a {label} build of torch has no {other_label} version")
    if other_tag in torch:
        add("machine.torch", f"{torch} is a {other_label} build of torch, not a {label} one")
    if not name:
        add("machine.gpu_name", f"no GPU name: a {label} machine must record it")
    elif arch:
        _check_gpu_name(report, name, arch)
    if machine.gpu_count < 1:
        add("machine.gpu_count", f"{machine.gpu_count} GPUs: a {label} machine sees at least one")


def _check_gpu_name(report: Report, name: str, arch: str) -> None:
    """The target fits the GPU's name (`ruota_docs.records.gpus`); a name the table lacks is a warning."""
    known = gpus.expected_arch(name)
    if known is None:
        report.add("machine.gpu_name", "warning", "gpu",
                   f"{name!r} is not in the table of known GPUs (ruota_docs/records/gpus.py): "
                   f"its target {arch} is unchecked")
    elif known[1] != arch:
        report.add("machine.arch", "error", "machine", f"{name!r} is a {known[1]} card, not {arch}")


def _check_cpu_machine(report: Report, machine: Machine) -> None:
    """A CPU machine: no GPU fields."""
    for key in ("gpu_name", "arch", "vram_bytes"):
        if getattr(machine, key) is not None:
            report.add(f"machine.{key}", "error", "machine",
                       f"a CPU machine has no GPU, so no {key} (got {getattr(machine, key)!r})")
    if machine.gpu_count:
        report.add("machine.gpu_count", "error", "machine", f"a CPU machine sees no GPU (got {machine.gpu_count})")


def _check_machine_names(report: Report, machine: Machine, machine_id: Any, stem: str | None,
                         fingerprint: Any) -> None:
    """The machine class the engine derives, the record's, and the file's name all agree."""
    def add(where: str, message: str) -> None:
        report.add(where, "error", "machine", message)

    named = machine.named_id
    if machine.machine_id != named:
        add("machine.machine_id", f"{machine.machine_id!r} does not name this machine; the engine names it {named!r}")
    if machine_id != machine.machine_id:
        add("record", f"machine_id {machine_id!r} differs from machine.machine_id {machine.machine_id!r}")
    names = [named] + ([f"{named}-{fingerprint[:8]}"] if isinstance(fingerprint, str) else [])
    if stem is not None and stem not in names:  # None: a record outside the records directory, named by its user
        add("record", f"the file must be named {' or '.join(n + '.json' for n in names)} (the machine's id"
                      f"{', and its fingerprint' if len(names) > 1 else ''}), not {stem}.json")


# -- the entries -----------------------------------------------------------------------------
class _Pages:
    """The current blocks of each page (read once): those a build rendered (``built``), else rendered here."""

    def __init__(self, root: Path, docs_dir: Path, built: Mapping[str, Sequence[Block]] | None = None) -> None:
        self.root, self.docs_dir = root, docs_dir
        self.cache: dict[str, list[Block] | PageError | None] = {page: list(found) for page, found in
                                                                  (built or {}).items()}
        self.languages = site_config.languages(root)
        self.allowed, self.allow_error = [], None
        try:
            self.allowed = private_data.compile_allowed(site_config.read(root).allow_private)
        except private_data.AllowListError as error:
            self.allow_error = str(error)
        self._texts: dict[str, list[str]] = {}

    def known(self, pages: Iterable[str]) -> private_data.Known:
        """What ``pages`` publish on purpose (their Markdown, their blocks' code, includes expanded)
        and the site's allow-list: the docs' own example data, which a record may show."""
        texts = []
        for page in sorted(pages):
            if page not in self._texts:
                path, found = self.docs_dir / page, []
                if path.is_file():
                    found.append(path.read_text(encoding="utf-8", errors="replace"))
                    blocks = self.blocks(page)
                    found += [b.code for b in blocks] if isinstance(blocks, list) else []
                self._texts[page] = found
            texts += self._texts[page]
        return private_data.Known(texts, self.allowed)

    def blocks(self, page: str) -> list[Block] | PageError | None:
        if page not in self.cache:
            path = self.docs_dir / page
            if not path.is_file():
                self.cache[page] = None
            else:
                try:
                    # every block the record may hold, outputs included (recorded as not run)
                    self.cache[page] = page_blocks(self.root, self.docs_dir, path, shown_only=True)
                except PageError as error:
                    self.cache[page] = error
        return self.cache[page]


def _check_entry(report: Report, block: BlockRef, result: Result, pages: _Pages, device: Machine | None,
                 updated: dt.datetime | None, now: dt.datetime) -> None:
    """One block's result, as the stored results give it (their fields and types are checked)."""
    key = block.key
    expected_lang = pages.languages.page_language(block.page)
    if block.lang != expected_lang:
        where = "the site's language" if pages.languages.single else "the page's language"
        report.add(f"{key}.lang", "error", "schema", f"lang {block.lang!r} is not {where} ({expected_lang!r})")
    _check_values(report, key, result)
    when = _time(report, f"{key}.ran_at", result.ran_at, now)
    if when and updated and updated + SKEW < when <= now + SKEW:
        report.add(f"{key}.ran_at", "error", "time",
                   f"{result.ran_at} is after the record's updated time ({updated:%Y-%m-%dT%H:%M:%SZ})")
    if result.as_root:
        report.as_root += 1
    _check_reason_code(report, key, result)
    _check_tier(report, key, result, device)
    _check_isolation(report, key, result)
    _check_credit(report, block, result, pages)
    if device is not None and result.outcome == "skipped":
        _check_machine_said(report, key, result, device)
    _check_current(report, block, result, pages)
    if device is not None:
        _check_agreement(report, block, result, pages, device)


def _check_values(report: Report, key: str, result: Result) -> None:
    """A result's outcome, hashes, duration and output are ones the engine writes."""
    def add(message: str, where: str) -> None:
        report.add(where, "error", "schema", message)

    if result.outcome not in schema.OUTCOMES:
        add(f"outcome must be one of {', '.join(schema.OUTCOMES)}, not {result.outcome!r}", f"{key}.outcome")
    if not _HEX64.fullmatch(result.sha256):
        add("must be the 64 lower-case hex digits of the code's SHA-256", f"{key}.sha256")
    if result.signature is not None and not _HEX64.fullmatch(result.signature):
        add("must be 64 lower-case hex digits", f"{key}.signature")
    if not (math.isfinite(result.duration) and result.duration >= 0):
        add(f"must be a number of seconds ≥ 0, not {result.duration!r}", f"{key}.duration")
    output = result.output or ""
    if len(output) > OUTPUT_LIMIT + CUT_NOTE:
        report.add(f"{key}.output", "error", "size",
                   f"{len(output):,} characters: the engine keeps at most "
                   f"{OUTPUT_LIMIT:,} (and cuts the middle); this output was not cut by it")


def _check_agreement(report: Report, block: BlockRef, result: Result, pages: _Pages, device: Machine) -> None:
    """A passed or failed result for a block whose requirements this machine does not meet
    (`ruota_docs.records.agreement`)."""
    blocks = pages.blocks(block.page)
    if not isinstance(blocks, list):
        return
    found = next((b for b in blocks if b.sha256 == result.sha256 and b.index == block.index), None) \
        or next((b for b in blocks if b.sha256 == result.sha256), None)
    problem = agreement.problems(result.to_entry(block), found, device) if found is not None else None
    if problem:
        report.add(f"{block.key}.outcome", "error", "agreement", problem)


def _check_tier(report: Report, key: str, result: Result, device: Machine | None) -> None:
    """A ``tier`` is one of `tiers.TIERS`, reached by a passed block; ran and checked need a card."""
    tier = result.tier
    if tier is None:
        return
    if tier not in tiers.TIERS:
        report.add(f"{key}.tier", "error", "schema", f"tier must be one of {', '.join(tiers.TIERS)}, not {tier!r}")
    elif result.outcome != "passed":
        report.add(f"{key}.tier", "error", "schema", f"a {result.outcome} block reached no tier (got {tier!r})")
    elif tier != "compiled" and device is not None and device.backend == "cpu":
        report.add(f"{key}.tier", "error", "machine",
                   f"tier {tier!r} needs a GPU, and this record's machine has none ({device.describe()})")


def _check_isolation(report: Report, key: str, result: Result) -> None:
    """``isolation`` says how code that ran was isolated: one of `schema.ISOLATIONS`, and only where code ran."""
    if result.isolation is None:
        return
    if result.isolation not in schema.ISOLATIONS:
        report.add(f"{key}.isolation", "error", "schema",
                   f"isolation must be one of {', '.join(schema.ISOLATIONS)}, not {bounds.printable(result.isolation)}")
    elif result.outcome == "skipped":
        report.add(f"{key}.isolation", "error", "schema",
                   f"a skipped block ran no code, so it had no isolation (got {result.isolation!r})")


def _check_credit(report: Report, block: BlockRef, result: Result, pages: _Pages) -> None:
    """A copy credited with another copy's run names a page of this site: the same page in another of its languages."""
    source = result.reused_from
    if not source or source == block.page or pages.blocks(block.page) is None:
        return  # a copy's own run, or a page gone (stale: reported as such)
    source_lang = source.split("/", 1)[0] if pages.languages.folders else pages.languages.page_language(source)
    if pages.blocks(source) is None or (pages.languages.known and source_lang not in pages.languages.locales):
        report.add(f"{block.key}.credited", "error", "schema",
                   f"credited with the run of {bounds.printable(source)}, which is not a page of this site (its "
                   f"languages: {', '.join(pages.languages.locales)}): a copy is credited only with the run of the "
                   "identical block of its page in another language")


def _check_machine_said(report: Report, key: str, result: Result, device: Machine) -> None:
    """The engine's requirement skips say what the machine was: it must be this record's."""
    said = _machine_said(result)
    for described in _MACHINE_DESCRIBED.findall(said or ""):
        if described.strip() != device.describe():
            report.add(f"{key}.reason", "error", "machine",
                       f"the skip reason describes another machine ({described.strip()!r}) "
                       f"than this record's ({device.describe()!r})")
            break


def _machine_said(result: Result) -> str | None:
    """What a requirement skip says this machine is: its code's ``machine``, or for a reason
    without a code, the English after ``; this machine: ``."""
    code = result.reason_code
    if isinstance(code, dict) and not reason_codes.problems(code):
        return "; ".join(code["args"]["machine"]) if code["code"] == "requires" else None
    reason = result.reason or ""
    return reason.split("; this machine: ", 1)[1] if "; this machine: " in reason else None


def _check_reason_code(report: Report, key: str, result: Result) -> None:
    """A ``reason_code`` is one of the vocabulary's, with its arguments, and says what ``reason`` says."""
    code = result.reason_code
    if code is None:
        return
    found = reason_codes.problems(code)
    for problem in found:
        path, _, message = problem.partition(": ")
        report.add(f"{key}.{path}", "error", "schema", message)
    if not found and reason_codes.Reason.from_record(code).english() != (result.reason or ""):
        report.add(f"{key}.reason_code", "error", "schema",
                   f"says {reason_codes.Reason.from_record(code).english()!r}, the reason {result.reason!r}: "
                   "the engine writes the reason as its code's English")


#: What a stale entry means for readers, and what to do about it.
STALE_HINT = ("The site marks this block “Not yet verified” until the page runs again on the machine that wrote "
              "this record.")


def _check_current(report: Report, block: BlockRef, result: Result, pages: _Pages) -> None:
    blocks = pages.blocks(block.page)
    stale = None
    if blocks is None:
        stale = f"stale: {block.page} no longer exists"
    elif isinstance(blocks, PageError):
        stale = f"stale: {block.page} cannot be read now (line {blocks.line}: {blocks})"
    elif not any(b.sha256 == result.sha256 for b in blocks):
        at = next((b for b in blocks if b.index == block.index), None)
        stale = (f"stale: the page has {plural(len(blocks), 'block')} now, none at index {block.index}" if at is None
                 else f"stale: the code of block {block.index} ({_written_at(at)}) has changed since it ran")
    if stale:
        report.stale += 1
        report.add(block.key, "warning", "stale", stale, STALE_HINT)
    elif result.outcome == "passed" and isinstance(blocks, list):
        if result.tier in tiers.TIERS:
            _check_tier_reached(report, block.key, result, blocks)
        _check_printed(report, block.key, result, blocks)


def _written_at(block: Block) -> str:
    """Where a block of the page as it is now is written: ``line 12`` of the page, or ``snippets/part.md:5``
    for a fence written in an included Markdown file."""
    return block.source or f"line {block.line}"


#: The engine's note where it cut the middle of a long output (`ruota_docs.run.process.session`).
_CUT = re.compile(r"\n… \[[\d,]+ bytes of output omitted\] …\n")


def _check_printed(report: Report, key: str, result: Result, blocks: list[Block]) -> None:
    """A passed Python block printed what its ``#>`` lines state (the engine fails it otherwise): each
    stated line is in the recorded output, in order where it stands outside an indented body
    (`ruota_docs.blocks.expected_output.missing_from`).
    Not held where the engine changed the output after the run (its middle cut, names masked as <user>)."""
    found = next(b for b in blocks if b.sha256 == result.sha256)
    output = result.output or ""
    if found.kind != "python" or "#>" not in found.code or _CUT.search(output) or "<user>" in output \
            or "<host>" in output:
        return
    missing = expected_output.missing_from(expected_output.expected(found.code), output)
    if missing is not None:
        report.add(f"{key}.output", "error", "agreement",
                   f"passed, but its output lacks what the #> line at line {missing.index + 1} of its code states "
                   f"({bounds.printable(missing.text)}): the engine fails a block whose output differs from its "
                   "#> lines")


def _check_tier_reached(report: Report, key: str, result: Result, blocks: list[Block]) -> None:
    """The tier a passed result holds is the one its block reaches (`_check_tier` reports the rest)."""
    found = next(b for b in blocks if b.sha256 == result.sha256)
    expected = tiers.derive(found.evidence, found.requirements, result.outcome)
    if result.tier != expected:
        report.add(f"{key}.tier", "error", "schema", f"the block ({_written_at(found)}) reaches "
                   f"{expected or 'no tier'} when it {result.outcome}, not {result.tier!r}")


# -- private data, everywhere -------------------------------------------------------------------
def _strings(value: Any, where: str) -> Iterator[tuple[str, str]]:
    """``(where, text)`` for every string in the record, keys included."""
    if isinstance(value, dict):
        for key, item in value.items():
            inner = key if where == "blocks" else f"{where}.{key}" if where else key
            yield inner, str(key)
            yield from _strings(item, inner)
    elif isinstance(value, list):
        for n, item in enumerate(value):
            yield from _strings(item, f"{where}[{n}]")
    elif isinstance(value, str):
        yield where, value


def _block_names(data: dict[str, Any]) -> tuple[dict[str, str], dict[str, set[str]]]:
    """Stored places (``pages.x.md.results[2]``, ``outputs.<id>``) → the block they are for
    (``es/x.md#3``), so that a report names what the contributor knows: the block; and each
    place → the pages (under the docs directory) whose blocks show it."""
    names: dict[str, str] = {}
    shown_on: dict[str, set[str]] = {}
    for name, page in data.get("pages", {}).items():
        folders = page.get("folders", True)
        for n, result in enumerate(page.get("results", [])):
            lang, index = next(iter(result["at"].items()))
            paths = {f"{lang_}/{name}" if folders else name for lang_ in result["at"]}
            names[f"pages.{name}.results[{n}]"] = f"{lang}/{name}#{index}"
            shown_on.setdefault(f"pages.{name}.results[{n}]", set()).update(paths)
            if result.get("output"):
                names.setdefault(f"outputs.{result['output']}", f"{lang}/{name}#{index}.output")
                shown_on.setdefault(f"outputs.{result['output']}", set()).update(paths)
            if result.get("reason"):
                names.setdefault(f"reasons.{result['reason']}", f"{lang}/{name}#{index}")
                shown_on.setdefault(f"reasons.{result['reason']}", set()).update(paths)
    return names, shown_on


def _shown_on(where: str, shown_on: dict[str, set[str]]) -> set[str]:
    """The pages a stored place (``outputs.<id>``, ``pages.x.md.results[2].error``) is shown on."""
    head, dot, _ = where.partition("].")
    if dot:
        return shown_on.get(head + "]", set())
    table, _, rest = where.partition(".")
    return shown_on.get(f"{table}.{rest.partition('.')[0]}", set())


def _named(where: str, names: dict[str, str]) -> str:
    """A stored place (``pages.x.md.results[2].error``, ``reasons.<id>.reason``) as the block it is for."""
    head, dot, rest = where.partition("].")
    if dot and head + "]" in names:
        return f"{names[head + ']']}.{rest}"
    table, _, rest = where.partition(".")
    key, dot, field = rest.partition(".")
    if table == "reasons" and dot and f"reasons.{key}" in names:
        return f"{names[f'reasons.{key}']}.{field}"
    return names.get(where) or where


#: What a sender does about private data in a record. Text that the page or its code shows is the
#: docs' own and never reported, so the allow-list is for what the docs print some other way.
PRIVATE_HINT = ("Run the page again on the machine that wrote this record (the engine masks its user and host "
                "names), or remove the text and run `ruota-docs record migrate` on the record. If the docs print this "
                "text on purpose, add it to allow_private in mkdocs.yml.")


def _check_private(report: Report, data: dict[str, Any], pages: _Pages) -> None:
    names, shown_on = _block_names(data)
    words = private_data.private_words()  # this machine's names: found once for the record's thousands of strings
    if pages.allow_error:
        report.add("mkdocs.yml", "error", "private", f"{pages.allow_error}; fix the ruota_docs plugin's option")
    strings = list(_strings(data, ""))
    for index, found in private_data.findings_many([text for _, text in strings], words=words).items():
        stored_at, text = strings[index]
        where = _named(stored_at, names)
        # the docs' own example data (the page's text, its code) and the site's allow-list are no leak
        found = [f for f in found if not pages.known(_shown_on(stored_at, shown_on)).covers(f)]
        for finding in found:
            place = f"line {finding.line}: " if "\n" in text.rstrip("\n") else ""
            report.add(where or "record", "error" if finding.error else "warning", "private",
                       f"{place}contains {finding.describe()}", PRIVATE_HINT)


# -- a file -----------------------------------------------------------------------------------------
def _read(report: Report, path: Path, records_folder: Path) -> bytes | None:
    """The record's bytes, or None with the reason in ``report``: a regular file (never a link, a
    device or a hidden file, `ruota_docs.records.listing`), its size checked before it is read, and
    nested no deeper than the depth limit allows (`ruota_docs.records.bounds`)."""
    in_folder = path.parent.resolve() == Path(records_folder).resolve()
    problem = listing.file_problem(path, in_folder=in_folder)
    if problem:
        report.add("record", "error", "listing", problem)
        return None
    try:
        raw = bounds.read(path, MAX_BYTES)
    except bounds.TooLarge as error:
        report.add("record", "error", "size", f"{error}: larger than any record the engine writes")
        return None
    except (OSError, bounds.NotRegular) as error:
        report.add("record", "error", "schema", f"cannot be read: {getattr(error, 'strerror', None) or error}")
        return None
    problem = bounds.depth_problem(raw)
    if problem:
        report.add("record", "error", "bounds", problem)
        return None
    return raw


def _within_bounds(report: Report, data: dict[str, Any]) -> bool:
    """Strings, keys and numbers a reader can be shown (`ruota_docs.records.bounds`)."""
    for where, message in bounds.problems(data):
        report.add(where, "error", "bounds", message)
    return not report.count("error")


def check_file(path: Path, root: Path, docs_dir: Path, now: dt.datetime | None = None,
               pages: _Pages | None = None, records_folder: Path | None = None) -> Report:
    """Every problem in the record at ``path``, checked against the pages under ``docs_dir``.

    The record is first decoded strictly, field by field, and then held to the rules about what
    it means. The ``pages`` argument holds the pages' blocks as they were read for the records checked before,
    so that `check_files` reads each page only once. A record in the records directory,
    ``records_folder`` (``verification/`` by default), must be named as the engine names records. A record elsewhere
    (``--record my.json``) may have any name except a hidden one."""
    path = Path(path)
    now = now or dt.datetime.now(dt.timezone.utc)
    report = Report(str(path))
    folder = Path(records_folder or Path(root) / "verification")
    data = _decoded(path, report, folder)
    if data is None:
        return report
    in_folder = path.parent.resolve() == folder.resolve()
    device = _check_machine(report, data["machine"], data["machine_id"], path.stem if in_folder else None,
                            data.get("fingerprint"))
    _check_origin(report, data)
    updated = _time(report, "record.updated", data["updated"], now)
    _check_commit(report, data, Path(root), updated)
    if not _check_stored(report, data["pages"], data["reasons"], data["outputs"]):
        return report
    results = stored.expand(data["pages"], data["outputs"], data["reasons"])  # the shape is checked: decoded
    pages = pages or _Pages(Path(root), Path(docs_dir))
    report.entries = len(results)
    for block, result in results.items():
        _check_entry(report, block, result, pages, device, updated, now)
    _check_private(report, data, pages)
    return report


def _decoded(path: Path, report: Report, folder: Path) -> dict[str, Any] | None:
    """The record's JSON object, its top-level fields present with their types (None, reported, where not)."""
    raw = _read(report, path, folder)
    data = _parsed(raw, report) if raw is not None else None
    if raw is None or data is None:
        return None
    report.identity = (data.get("machine_id"), data.get("fingerprint"))
    if len(raw) > RECORD_LIMIT:
        report.add("record", "error", "size",
                   f"{len(raw):,} bytes, over the {RECORD_LIMIT:,} a record of this site may take "
                   f"(the engine writes one of about 85,000 for the whole site); its largest field is "
                   f"{_heaviest(data)}")
        return None
    if data.get("schema") in OLD_FORMATS and data.get("kind") == schema.KIND:
        report.add("record.schema", "error", "schema", f"schema {data['schema']} is {OLD_FORMATS[data['schema']]}, "
                   "which this ruota-docs no longer reads; run the suite again on that machine, which writes a "
                   f"schema {schema.SCHEMA} record")
        return None
    if not _within_bounds(report, data):
        return None  # what follows would read what it cannot show
    if not _fields(report, "record", data, _TOP, ("fingerprint",)):
        return None
    if data["kind"] != schema.KIND:
        report.add("record.kind", "error", "schema", f"must be {schema.KIND!r}")
    if data["schema"] != schema.SCHEMA:
        report.add("record.schema", "error", "schema",
                   f"schema {data['schema']} is not the one this ruota-docs writes ({schema.SCHEMA})"
                   + ("; a newer ruota-docs wrote it: upgrade ruota-docs (pip install -U ruota-docs, or pull the "
                      "repository)" if isinstance(data["schema"], int) and data["schema"] > schema.SCHEMA else ""))
    return data


def _parsed(raw: bytes, report: Report) -> dict[str, Any] | None:
    """``raw`` as a JSON object (no key twice, numbers within bounds); None, reported, where it is not one."""
    try:
        data = bounds.loads(raw, object_pairs_hook=_no_duplicates)
    except UnicodeDecodeError as error:
        report.add("record", "error", "schema", f"not UTF-8 (byte {error.start})")
        return None
    except _Duplicate as duplicate:
        report.add("record", "error", "schema",
                   f"the key {str(duplicate)!r} appears twice: JSON readers would keep only one")
        return None
    except json.JSONDecodeError as error:
        report.add("record", "error", "schema",
                   f"not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})")
        return None
    except bounds.BadNumber as error:  # NaN, Infinity, 1e999, an integer of thousands of digits
        report.add("record", "error", "bounds", f"{bounds.locate(raw, error.token)}: {error}")
        return None
    if not isinstance(data, dict):
        report.add("record", "error", "schema", "must be a JSON object")
        return None
    return data


# -- the stored form: pages, their results, the outputs ------------------------------------------------------------
_TOP = {"schema": (int,), "kind": (str,), "machine_id": (str,), "machine": (dict,), "fingerprint": (str, type(None)),
        "provenance": (dict,), "updated": (str,), "pages": (dict,), "reasons": (dict,), "outputs": (dict,)}
#: Formats of records before this one, which `record check` names when it refuses them.
OLD_FORMATS = {1: "the old format (one entry per page and language)",
               2: "an older format (each result holds its line, its reason and its time)"}


def _check_origin(report: Report, data: dict[str, Any]) -> None:
    """The record's provenance and fingerprint (`ruota_docs.records.provenance`)."""
    try:
        machine: Machine | None = Machine.from_json(data["machine"])
    except RecordError:
        machine = None  # reported with the machine's fields; its arch is not compared with the runner's labels
    for where, message in provenance.check(data["provenance"], machine):
        report.add(where, "error", "provenance", message)
    problem = provenance.check_fingerprint(data.get("fingerprint"))
    if problem:
        report.add("fingerprint", "error", "provenance", problem)


def _check_commit(report: Report, data: dict[str, Any], root: Path, updated: dt.datetime | None) -> None:
    """A record whose commit is not in the repository's history (where git can tell) is flagged, and
    a record written before the commit the suite ran on existed is refused."""
    commit = data["provenance"].get("commit") if isinstance(data["provenance"], dict) else None
    known = attestations.commit_known(root, commit)
    if known is False:
        report.add("provenance.commit", "warning", "provenance",
                   f"{commit} is not in this repository's history: the record ran code no one can see here "
                   "(fetch the branch it came from, or run the suite again on a commit of the repository)")
    seconds = attestations.commit_time(root, commit) if known and updated else None
    committed = dt.datetime.fromtimestamp(seconds, dt.timezone.utc) if seconds is not None else None
    if committed is not None and updated is not None and updated + SKEW < committed:
        report.add("record.updated", "error", "time",
                   f"{data['updated']} is before the commit the suite ran on ({str(commit)[:12]}, committed "
                   f"{committed:%Y-%m-%dT%H:%M:%SZ}): no run precedes its code")

_PAGE = re.compile(r"[^#\s/][^#\s]*\.md")
_LANG = re.compile(r"[a-z]{2}(?:[-_][A-Za-z]+)?")


@functools.cache
def _result_fields() -> tuple[dict[str, tuple[type, ...]], tuple[str, ...]]:
    """The fields of a stored result and their types (the model's, `ruota_docs.records.schema.Result`),
    and those that may be absent."""
    fields = {k: v for k, v in schema.ENTRY_FIELDS.items() if k not in schema.PER_COPY and k != "reason_code"}
    fields = {"sha256": fields.pop("sha256"), "at": (dict,), "credited": (dict,), "signatures": (dict,), **fields}
    fields["reason"] = (str,)  # the key of its entry in "reasons"
    fields["output"] = (str, type(None))  # the key of its entry in "outputs"
    fields["ran_at"] = (str,)
    return fields, (*schema.OPTIONAL_FIELDS, *schema.OMITTED_IF_NULL, "reason", *schema.MERGED, "credited",
                    "signatures")


_PAGE_FIELDS = {"signatures": (dict,), "lines": (dict,), "files": (dict,), "ran_at": (str,), "results": (list,),
                "folders": (bool,)}
#: An included Markdown file, as the page's ``files`` names it: a path relative to the project, inside it.
_FILE = re.compile(r"(?![/ ]|[A-Za-z]:)(?!.*(?:^|/)\.\.(?:/|$))[^\x00-\x1f\x7f\\]+")
_REASON_FIELDS = {"reason_code": (dict, type(None)), "reason": (str, type(None))}


def _check_table(report: Report, name: str, table: dict[str, Any], used: set[str], key_of: Callable[[Any], str],
                 fields: Mapping[str, tuple[type, ...]] | None) -> bool:
    """``outputs`` or ``reasons``: each value of its type, keyed by its hash, referenced by a result."""
    ok = True
    for key, value in table.items():
        where = f"{name}.{key}"
        if fields is None and not isinstance(value, str):
            report.add(where, "error", "schema", "must be a string")
            ok = False
        elif fields is not None and not (isinstance(value, dict)
                                         and _fields(report, where, value, fields, ("reason", "reason_code"))):
            if not isinstance(value, dict):
                report.add(where, "error", "schema", "must be an object {\"reason_code\": …}")
            ok = False
        elif fields is not None and not value:
            report.add(where, "error", "schema", "must hold the reason's code (reason_code), its English (reason), "
                                                 "or both")
            ok = False
        elif key != key_of(value):
            what = "output's SHA-256" if fields is None else "SHA-256 of the reason as JSON"
            report.add(where, "error", "schema", f"the key must be the first 16 hex digits of the {what} "
                                                 f"({key_of(value)}): the {name[:-1]} was changed")
        elif key not in used:
            report.add(where, "error", "schema", f"no result names this {name[:-1]}: the engine stores only "
                                                 + ("outputs it shows" if fields is None else "reasons it gives"))
    return ok


def _check_lines(report: Report, where: str, lines: dict[str, Any]) -> bool:
    """A page's ``lines``: each language's list of the lines its blocks start at."""
    ok = True
    for lang, found in lines.items():
        if not _LANG.fullmatch(lang) or not isinstance(found, list) or not all(
                line is None or _has_type(line, (int,)) and line >= 1 for line in found):
            report.add(f"{where}.lines.{lang}", "error", "schema",
                       f"must map a language folder to the line ≥ 1 of each block (null where unknown), "
                       f"not {json.dumps(found)[:80]}")
            ok = False
    return ok


def _check_files(report: Report, where: str, files: dict[str, Any], lines: dict[str, Any]) -> bool:
    """A page's ``files``: each language's list of the included Markdown file each block is written in
    (null for a block written on the page), each at a block with a line."""
    ok = True
    for lang, found in files.items():
        written = lines.get(lang)
        known: list[Any] = written if isinstance(written, list) else []
        if not _LANG.fullmatch(lang) or not isinstance(found, list) or not all(
                name is None or isinstance(name, str) and _FILE.fullmatch(name) and n < len(known)
                and known[n] is not None for n, name in enumerate(found)):
            report.add(f"{where}.files.{lang}", "error", "schema",
                       "must map a language folder to the included Markdown file each block is written in, a path "
                       "inside the project (null for a block on the page), each block with a line in \"lines\"; "
                       f"not {bounds.printable(json.dumps(found), 80)}")
            ok = False
    return ok


def _check_stored(report: Report, pages: dict[str, Any], reasons: dict[str, Any], outputs: dict[str, Any]) -> bool:
    """The shape of ``pages``, ``reasons`` and ``outputs``; False where the entries cannot be read from them."""
    ok, named = True, {"reason": set[str](), "output": set[str]()}
    seen: dict[str, dict[tuple[str, int], str]] = {}
    for name, page in pages.items():
        where = f"pages.{name}"
        if not _fields(report, where, page, _PAGE_FIELDS, ("signatures", "lines", "files", "ran_at", "folders")) \
                or not _check_lines(report, where, page.get("lines") or {}) \
                or not _check_files(report, where, page.get("files") or {}, page.get("lines") or {}):
            ok = False
            continue
        _check_page_names(report, where, name, page)
        for n, result in enumerate(page["results"]):
            ok = _check_result(report, f"{where}.results[{n}]", result, name, page, seen,
                               {"reason": reasons, "output": outputs}, named) and ok
    ok = _check_table(report, "reasons", reasons, named["reason"], stored.reason_id, _REASON_FIELDS) and ok
    return _check_table(report, "outputs", outputs, named["output"], stored.output_id, None) and ok


def _check_page_names(report: Report, where: str, name: str, page: dict[str, Any]) -> None:
    """A stored page's path, and the languages and hashes of its ``signatures``."""
    if not _PAGE.fullmatch(name):
        report.add(where, "error", "schema", "must be a page's path under the language folders (guides/x.md)")
    for lang, signature in (page.get("signatures") or {}).items():
        hex_or_none = signature is None or isinstance(signature, str) and _HEX64.fullmatch(signature)
        if not _LANG.fullmatch(lang) or not hex_or_none:
            report.add(f"{where}.signatures.{lang}", "error", "schema",
                       "must map a language to 64 lower-case hex digits")


def _check_result(report: Report, at: str, result: Any, name: str, page: dict[str, Any],
                  seen: dict[str, dict[tuple[str, int], str]], tables: dict[str, dict[str, Any]],
                  named: dict[str, set[str]]) -> bool:
    """One stored result: its fields (`_result_fields`), where it is, and the table entries it names
    (noted in ``named``); False where it cannot be read."""
    fields, optional = _result_fields()
    if not isinstance(result, dict):
        report.add(at, "error", "schema", "a result must be an object")
        return False
    if not _fields(report, at, result, fields, optional) or not _check_at(report, at, result, name, page, seen):
        return False
    ok = True
    for field_name, table in tables.items():
        key = result.get(field_name)
        if key is not None:
            named[field_name].add(key)
            if key not in table:
                report.add(f"{at}.{field_name}", "error", "schema",
                           f"names {field_name} {key!r}, which \"{field_name}s\" does not hold")
                ok = False
    if "ran_at" not in result and "ran_at" not in page:
        report.add(f"{at}.ran_at", "error", "schema", "missing: neither the result nor its page says when it ran")
        ok = False
    return ok


def _check_at(report: Report, where: str, result: dict[str, Any], page: str, stored_page: dict[str, Any],
              seen: dict[str, Any]) -> bool:
    """``at`` (language → block index, with a line in the page's ``lines``) and ``credited``
    (language → the language that ran it)."""
    ok = bool(result["at"])
    if not ok:
        report.add(f"{where}.at", "error", "schema", "must name at least one language's copy of the block")
    for lang, index in result["at"].items():
        if not _LANG.fullmatch(lang) or not (_has_type(index, (int,)) and index >= 0):
            report.add(f"{where}.at.{lang}", "error", "schema",
                       f"must map a language folder to the block's index ≥ 0, not {json.dumps(index)}")
            ok = False
        elif stored.line_of(stored_page, lang, index) is None:
            report.add(f"{where}.at.{lang}", "error", "schema",
                       f"block {index} of the {lang} copy has no line in the page's \"lines\"")
            ok = False
        elif (lang, index) in seen.setdefault(page, {}):
            report.add(f"{where}.at.{lang}", "error", "schema", f"{lang}/{page}#{index} has another result already "
                                                               f"({seen[page][(lang, index)]})")
            ok = False
        else:
            seen[page][(lang, index)] = where
    for lang, source in (result.get("credited") or {}).items():
        if lang not in result["at"] or not isinstance(source, str) or source == lang or not _LANG.fullmatch(source):
            report.add(f"{where}.credited.{lang}", "error", "schema",
                       "must map a copy named in \"at\" to the other "
                       f"language whose run it is credited with, not {json.dumps(source)}")
            ok = False
    return ok


def _size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False).encode())


def _heaviest(data: dict[str, Any]) -> str:
    """Where an oversized record's bytes are: its heaviest field, and the largest value in it."""
    top = max(data, key=lambda key: _size(data[key]))
    where, value = top, data[top]
    while isinstance(value, (dict, list)) and value:
        items = value.items() if isinstance(value, dict) else enumerate(value)
        key, value = max(items, key=lambda kv: _size(kv[1]))
        where += f".{key}" if isinstance(key, str) else f"[{key}]"
    return f"{top} ({_size(data[top]):,} bytes), the largest value in it {where} ({_size(value):,} bytes)"


def check_files(paths: Iterable[str | Path], root: Path, docs_dir: Path, now: dt.datetime | None = None,
                records_folder: Path | None = None, built: Mapping[str, Sequence[Block]] | None = None) -> list[Report]:
    """The findings of `check_file` on each record, and of one more rule applied across them.

    If two records come from the same machine (the same machine class and fingerprint), the second is
    reported as an error.
    Each page is read once for all the records, because CI checks every record of the site, and a
    site may hold a thousand. The ``built`` argument holds the blocks of each page that a build has
    already rendered, keyed by page (``es/guides/x.md``), as `page_blocks` returns them (``shown_only``
    included). This saves the build from rendering its pages again to check its records. Pages not
    in ``built`` are rendered here."""
    reports: list[Report] = []
    seen: dict[tuple[Any, Any], str] = {}
    pages = _Pages(Path(root), Path(docs_dir), built)
    for path in paths:
        report = check_file(Path(path), root, docs_dir, now, pages, records_folder)
        identity = getattr(report, "identity", None)
        if identity and identity[0] is not None:
            if identity in seen:
                which = f"{identity[0]!r}" + (f" (fingerprint {identity[1][:8]}…)" if identity[1] else "")
                report.add("machine_id", "error", "machine", f"machine {which} already has a record: {seen[identity]}; "
                                                            "one machine sends one record")
            else:
                seen[identity] = report.file
        reports.append(report)
    return reports


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count:,} {word if count == 1 else many or word + 's'}"


def summary(reports: list[Report], strict: bool = False) -> tuple[str, int]:
    """The last line of the report, and the exit status: 1 on any error (or warning, with ``strict``), else 0."""
    errors = sum(r.count("error") for r in reports)
    warnings = sum(r.count("warning") for r in reports)
    entries = sum(r.entries for r in reports)
    stale = sum(r.stale for r in reports)
    failed = errors or (strict and warnings)
    verdict = "REFUSED" if failed else "accepted"
    line = (f"{verdict}: {plural(len(reports), 'record')}, {plural(entries, 'entry', 'entries')} "
            f"({stale:,} stale); {plural(errors, 'error')}, {plural(warnings, 'warning')}"
            + (" (--strict: warnings count as errors)" if strict and warnings else ""))
    return line, 1 if failed else 0
