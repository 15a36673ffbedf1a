"""What the site may say of the records it shows beyond what they say of themselves: who sent each
(`ruota_docs.records.senders`) and whether a ``ci`` record's attestation was verified
(`ruota_docs.records.attestations`). The build sets it once it has read the records (`use`); the
groups, the block panels and the card matrix ask it (`current`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ruota_docs.records import attestations, senders


@dataclass
class Trust:
    """Senders and verified CI records, by record (the dict the build read)."""

    sender: dict[int, str] = field(default_factory=dict)
    ci: dict[int, str] = field(default_factory=dict)  #: "verified" or "claimed", for ``ci`` records
    unknown_commit: set[int] = field(default_factory=set)  #: ``ci`` records whose commit is not in the history

    def sender_of(self, record: dict) -> str:
        return self.sender.get(id(record), senders.UNKNOWN)

    def senders(self, records: list[dict]) -> int:
        """How many independent senders ``records`` have (unknown ones count as one)."""
        return senders.independent([self.sender_of(r) for r in records])

    def ci_state(self, record: dict) -> str | None:
        return self.ci.get(id(record))


_CURRENT = [Trust()]


def current() -> Trust:
    return _CURRENT[0]


def use(root: Path, files: list[tuple[Path, dict]], verified: dict[str, str]) -> Trust:
    """Find who sent each record of ``files`` and which ``ci`` ones were verified; make it `current`."""
    found = Trust()
    by_path = senders.senders(root, [path for path, _ in files], verified)
    for path, data in files:
        found.sender[id(data)] = by_path[Path(path)]
        ci = attestations.state(data, Path(path).name, verified)
        if ci is not None:
            found.ci[id(data)] = ci
            if attestations.commit_known(root, (data.provenance or {}).get("commit")) is False:
                found.unknown_commit.add(id(data))
    _CURRENT[0] = found
    return found
