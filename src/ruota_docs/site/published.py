"""What the site publishes of a record, held to what ``ruota-docs record check`` holds it to.

CI checks every record before it builds the site, and a pull request's records before they
are merged; a site built anywhere else (an author's ``mkdocs build``, another deploy) would
publish whatever ``verification/`` holds. So the build itself stops on a record that breaks
the rules a reader could be harmed by, naming the file and the field, as the check does:

- a record larger than any the engine writes (`ruota_docs.records.schema.RECORD_LIMIT`);
- a provenance that does not fit (a CI record whose link is not to its workflow run, or to a
  run of another repository than the site's own, where mkdocs.yml's ``repo_url`` names it);
- personal data (a user and host name, a home directory, an e-mail address, a token) in an output
  or a reason the site shows: only those, as they are shown, since reading every output of a
  thousand records would cost each build more than the records themselves. What the page itself
  holds (its Markdown, its blocks' code) and the ``allow_private`` option are the docs' own
  example data (`ruota_docs.records.private_data.Known`), never a reason to stop.

With ``report_only`` nothing here stops the build: a refused record is left out of the site,
a refused output leaves its block unmarked, and each is listed with the other problems.

Beyond those, the build refuses whatever ``record check`` refuses (`checked`): every error of
the check stops it, naming the file and the field (warnings, such as stale results, do not: the
site shows a stale result as stale). It runs once every page is rendered and before any is written,
on each page's blocks as the build rendered them, once per set of record files a process reads.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from ruota_docs.blocks.block import Block
from ruota_docs.records import check, private_data, provenance
from ruota_docs.records.schema import RECORD_LIMIT, SHOWN_FIELDS, Record
from ruota_docs.site import groups

#: What to run for the whole story of a refused record.
_CHECK = "`ruota-docs record check {path}` lists everything it holds that a record may not"


class RecordRefused(ValueError):
    """A record the site does not publish; the message names the file and the field."""


class Published:
    """The records a build shows, by their data, and the texts of theirs already found clean."""

    def __init__(self, files: list[tuple[Path, Record]], repo_url: str | None = None, allowed=(),
                 keep_going: bool = False) -> None:
        """``allowed``: the ``allow_private`` option; ``keep_going`` (``report_only``): a refused record
        is listed in `refused` and left out of `kept`, instead of raising `RecordRefused`."""
        self._files = {id(data): path for path, data in files}
        self._clean: set[int] = set()
        self._verdicts: set[int] = set()
        try:
            self.allowed = private_data.compile_allowed(allowed)
        except private_data.AllowListError as error:
            raise RecordRefused(f"mkdocs.yml: {error}") from None
        self.refused: list[str] = []
        self.kept: list[tuple[Path, dict]] = []
        repository = _repository(repo_url)
        for path, data in files:
            try:
                _check_record(path, data, repository)
            except RecordRefused as error:
                if not keep_going:
                    raise
                self.refused.append(str(error))
                continue
            self.kept.append((path, data))

    def verdict(self, verdict, page: str, index: int, known=()) -> None:
        """What a block's panel shows of ``verdict`` (the outputs of its latest runs, the errors of
        failures, the reasons of skips and failures), held to `shown`; once for the copies of a block
        that share the verdict. ``known``: the texts the page publishes itself (its Markdown, the
        block's code), whose example data is no leak."""
        if id(verdict) in self._verdicts:
            return
        under = f"shown under block {index} of {page}"
        cover = private_data.Known(known, self.allowed)
        for _, result in groups.shown_outputs(groups.groups_of(verdict, page)):
            entry = result.entry
            for name in SHOWN_FIELDS["tab"] if entry is not None else ():
                self.shown(result.record, f"{_field(result, name)} ({under})", getattr(entry, name), cover)
        said = set()
        for result in verdict.by_state("skipped") + verdict.by_state("failed"):
            if result.reason_key not in said:
                said.add(result.reason_key)
                for name in SHOWN_FIELDS["mark"] if result.entry is not None else ():
                    self.shown(result.record, f"{_field(result, name)} ({under})", getattr(result.entry, name),
                               cover)
        self._verdicts.add(id(verdict))

    def shown(self, record: Record | None, where: str, text: str | None,
              known: private_data.Known | None = None) -> None:
        """``text`` (the field ``where`` of ``record``) is about to be shown: raise `RecordRefused`
        where it holds personal data that ``known`` (the page's own text, the allow-list) does not cover."""
        if not text or id(text) in self._clean:
            return
        found = [f for f in private_data.findings(text, this_machine=False) if f.error]
        if not found:
            self._clean.add(id(text))  # clean whatever page shows it
        known = known if known is not None else private_data.Known((), self.allowed)
        found = [f for f in found if not known.covers(f)]
        if found:
            path = self._files.get(id(record), "a record")
            raise RecordRefused(f"{path}: {where}: contains {found[0].describe()}, which readers would see on the "
                                f"site. Remove the record, or run the suite again on that machine. If the docs print "
                                f"this text on purpose, add it to allow_private in mkdocs.yml. "
                                f"{_CHECK.format(path=path)}.")


def _field(result, name: str) -> str:
    """Where a result's ``output`` or ``reason`` is in its record: its table's entry, where it has one."""
    key = result.table_key(name) if name in ("output", "reason") else None
    return f"{name}s.{key}" if key else name


def _repository(repo_url: str | None) -> str | None:
    """``OWNER/REPO`` of a GitHub ``repo_url`` (None for any other, or none)."""
    match = re.match(r"https?://github\.com/([^/]+/[^/#?]+?)(?:\.git)?/?$", repo_url or "")
    return match[1] if match else None


def _check_record(path: Path, data: Record, repository: str | None) -> None:
    size = Path(path).stat().st_size if Path(path).exists() else 0
    if size > RECORD_LIMIT:
        raise RecordRefused(f"{path}: record: {size:,} bytes, over the {RECORD_LIMIT:,} a record may take (the engine "
                            f"writes one of about 85,000 for the whole site); {_CHECK.format(path=path)}")
    origin = data.provenance
    if origin is None:  # a record written before provenance: sent by hand
        return
    problems = provenance.check(origin, data.machine)
    if not problems and repository and origin.get("kind") == "ci" \
            and str(origin.get("repository", "")).lower() != repository.lower():
        problems = [("provenance.repository", f"is {origin.get('repository')}, not this site's repository "
                                              f"{repository} (mkdocs.yml: repo_url)")]
    if problems:
        where, message = problems[0]
        raise RecordRefused(f"{path}: {where}: {message}; {_CHECK.format(path=path)}")


#: Errors of a refused build that its message quotes (the rest: `record check`).
_QUOTED = 20


def checked(paths: list[Path], root: Path, docs_dir: Path, records_folder: Path,
            keep_going: bool = False, built: Mapping[str, Sequence[Block]] | None = None) -> dict[str, list[str]]:
    """Raise `RecordRefused` with the check's errors where ``record check`` refuses any of ``paths``:
    the build publishes no record the check would turn away (a date in 2099, a pass a machine
    cannot have had, a number no chart can show). ``keep_going`` (``report_only``): return the
    errors by file instead, for the build to leave those records out. ``built``: the blocks of the
    pages the build rendered, by page (`ruota_docs.records.check.check_files`)."""
    reports = check.check_files(paths, root, docs_dir, records_folder=records_folder, built=built)
    refused = {r.file: [str(p) for p in r.problems if p.severity == "error"] for r in reports}
    refused = {file: errors for file, errors in refused.items() if errors}
    errors = [error for found in refused.values() for error in found]
    if errors and not keep_going:
        more = f"\n… and {len(errors) - _QUOTED:,} more" if len(errors) > _QUOTED else ""
        raise RecordRefused(f"{len(errors):,} errors of `ruota-docs record check` in the records: the site publishes "
                            "no record the check refuses (fix or remove it):\n" + "\n".join(errors[:_QUOTED]) + more)
    return refused
