"""What the site publishes of a record, held to what ``ruota-docs record check`` holds it to.

CI checks every record before it builds the site, and a pull request's records before they
are merged; a site built anywhere else (an author's ``mkdocs build``, another deploy) would
publish whatever ``verification/`` holds. So the build itself stops on a record that breaks
the rules a reader could be harmed by, naming the file and the field, as the check does:

- a record larger than any the engine writes (`ruota_docs.records.schema.RECORD_LIMIT`);
- a provenance that does not fit (a CI record whose link is not to its workflow run, or to a
  run of another repository than the site's own, where mkdocs.yml's ``repo_url`` names it);
- personal data (a user and host name, a home folder, an e-mail address, a token) in an output
  or a reason the site shows: only those, as they are shown, since reading every output of a
  thousand records would cost each build more than the records themselves.

The rest of ``record check`` (the results against the pages, the machine's coherence) is
the check's alone: a record the site can read shows as it is, its stale results as stale.
"""

from __future__ import annotations

import re
from pathlib import Path

from ruota_docs.records import private_data, provenance
from ruota_docs.records.schema import RECORD_LIMIT, SHOWN_FIELDS, Record
from ruota_docs.site import groups

#: What to run for the whole story of a refused record.
_CHECK = "`ruota-docs record check {path}` lists everything it holds that a record may not"


class RecordRefused(ValueError):
    """A record the site does not publish; the message names the file and the field."""


class Published:
    """The records a build shows, by their data, and the texts of theirs already found clean."""

    def __init__(self, files: list[tuple[Path, Record]], repo_url: str | None = None) -> None:
        self._files = {id(data): path for path, data in files}
        self._clean: set[int] = set()
        self._verdicts: set[int] = set()
        repository = _repository(repo_url)
        for path, data in files:
            _check_record(path, data, repository)

    def verdict(self, verdict, page: str, index: int) -> None:
        """What a block's panel shows of ``verdict`` (the outputs of its latest runs, the errors of
        failures, the reasons of skips and failures), held to `shown`; once for the copies of a block
        that share the verdict."""
        if id(verdict) in self._verdicts:
            return
        under = f"shown under block {index} of {page}"
        for _, result in groups.shown_outputs(groups.groups_of(verdict, page)):
            entry = result.entry
            for name in SHOWN_FIELDS["tab"] if entry is not None else ():
                self.shown(result.record, f"{_field(result, name)} ({under})", getattr(entry, name))
        said = set()
        for result in verdict.by_state("skipped") + verdict.by_state("failed"):
            if result.reason_key not in said:
                said.add(result.reason_key)
                for name in SHOWN_FIELDS["mark"] if result.entry is not None else ():
                    self.shown(result.record, f"{_field(result, name)} ({under})", getattr(result.entry, name))
        self._verdicts.add(id(verdict))

    def shown(self, record: Record | None, where: str, text: str | None) -> None:
        """``text`` (the field ``where`` of ``record``) is about to be shown: raise `RecordRefused`
        where it holds personal data."""
        if not text or id(text) in self._clean:
            return
        found = [f for f in private_data.findings(text, this_machine=False) if f.error]
        if found:
            path = self._files.get(id(record), "a record")
            raise RecordRefused(f"{path}: {where}: {found[0].describe()}: a reader would see it on the site; remove "
                                f"the record, or run the suite again on that machine ({_CHECK.format(path=path)})")
        self._clean.add(id(text))


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
