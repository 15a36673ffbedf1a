"""Whether a translation is out of date.

Each translation records the hash of the source page it was translated from
(``translation_of: 1a2b3c4d5e6f``). When the source changes, the translation is stale until
``ruota-docs i18n mark-synced`` records the new hash.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ruota_docs.blocks.pages import FRONT_MATTER
from ruota_docs.translations.parity import source_hash, split_front_matter


@dataclass
class TranslationState:
    page: str
    source_page: str
    recorded: str | None
    current: str
    source_changed: dt.datetime | None

    @property
    def stale(self) -> bool:
        return self.recorded != self.current


def _git(docs_dir: Path, *args: str) -> str | None:
    try:
        return subprocess.run(["git", *args], cwd=docs_dir, capture_output=True, text=True, check=True,
                              timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return None


def last_change(path: Path) -> dt.datetime:
    """When a file last changed: the time of its last commit, or its modification time if it has uncommitted changes."""
    stamp = None
    if not _git(path.parent, "status", "--porcelain", "--", path.name):
        stamp = (_git(path.parent, "log", "-1", "--format=%cI", "--", path.name) or "").strip()
    if stamp:
        return dt.datetime.fromisoformat(stamp)
    return dt.datetime.fromtimestamp(path.stat().st_mtime, dt.timezone.utc)


def translation_state(docs_dir: Path, page: str, source_lang: str = "es") -> TranslationState | None:
    """The staleness of a translated page (``fr/guides/x.md``), or ``None`` for a source page."""
    lang, _, rel = page.partition("/")
    if lang == source_lang:
        return None
    source = Path(docs_dir) / source_lang / rel
    target = Path(docs_dir) / page
    if not source.exists() or not target.exists():
        return None
    fields, _, _ = split_front_matter(target.read_text(encoding="utf-8"))
    current = source_hash(source.read_text(encoding="utf-8"))
    recorded = fields.get("translation_of")
    return TranslationState(page, f"{source_lang}/{rel}", recorded, current,
                            last_change(source) if recorded != current else None)


def source_diff(docs_dir: Path, state: TranslationState) -> str:
    """What changed in the source since the version the translation records."""
    source = Path(docs_dir) / state.source_page
    now_text = source.read_text(encoding="utf-8")
    old_text = None
    history = _git(source.parent, "log", "--format=%H", "--", source.name) or ""
    top = (_git(source.parent, "rev-parse", "--show-toplevel") or "").strip()
    rel = source.resolve().relative_to(Path(top).resolve()).as_posix() if top else None
    for commit in history.split():
        blob = _git(source.parent, "show", f"{commit}:{rel}") if rel else None
        if blob is not None and source_hash(blob) == state.recorded:
            old_text = blob
            break
    if old_text is None:
        return (f"(the source version {state.recorded or 'of this translation'} is not in the git history; "
                "compare the pages by hand)\n")
    return "".join(difflib.unified_diff(old_text.splitlines(keepends=True), now_text.splitlines(keepends=True),
                                        f"{state.source_page} (translated)", f"{state.source_page} (now)"))


def mark_synced(docs_dir: Path, page: str, source_lang: str = "es") -> str:
    """The current source hash, written into a translation's front matter and returned."""
    lang, _, rel = page.partition("/")
    source = Path(docs_dir) / source_lang / rel
    target = Path(docs_dir) / page
    digest = source_hash(source.read_text(encoding="utf-8"))
    text = target.read_text(encoding="utf-8")
    match = FRONT_MATTER.match(text)
    if match:
        body = match["body"]
        if re.search(r"^translation_of:.*$", body, re.M):
            body = re.sub(r"^translation_of:.*$", f"translation_of: {digest}", body, flags=re.M)
        else:
            body = f"{body}translation_of: {digest}\n"
        text = f"---\n{body}---\n" + text[match.end():]
    else:
        text = f"---\ntranslation_of: {digest}\n---\n\n" + text
    target.write_text(text, encoding="utf-8")
    return digest
