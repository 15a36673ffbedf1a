"""Sets of records the build's ``record check`` accepted, remembered from one build to the next.

A build checks every record before it publishes one (`ruota_docs.site.published.checked`): each
output scanned for private data, the ``#>`` lines of each passed block held to its output, each
result to its block. Between two builds the records and the pages seldom change, so a set of
records the check accepted (no error; warnings, such as stale results, never stop a build) is
remembered in ``$XDG_CACHE_HOME/ruota-docs/checked/``, under a key of everything the check reads:

- each record's path and bytes, and the records folder (the naming rules hold there);
- every page the check read (the pages the records name): its text (what a page publishes itself
  is no leak) and its blocks as the check takes them (from the build's rendering, or rendered by
  the check), or what is wrong with a page it cannot read; compared when the set is looked up,
  since the pages read are known only once it has been checked;
- the site's mkdocs.yml (its languages, ``allow_private``);
- where each record's commit stands in the repository (known or not, and when it was committed);
- the engine's code that checks (every module of ``ruota_docs.records`` and ``ruota_docs.blocks``,
  by modification time and size).

The time is not in it: an accepted record stays accepted as time passes (none of its times is in
the future, and the other time rules do not move with the clock). A set with an error is never
remembered, and ``ruota-docs record check`` never reads what is remembered: it checks every time.

A speed trick (`ruota_docs.blocks.speedups`, ``check_cache``): ``RUOTA_DOCS_NO_SPEEDUPS=check_cache``
checks the records in every build and remembers nothing.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Iterable
from pathlib import Path

from ruota_docs.blocks import site_config, speedups, user_cache
from ruota_docs.blocks.block import Block
from ruota_docs.blocks.pages import PageError
from ruota_docs.records import attestations

#: Bumped when what is keyed changes.
FORMAT = 1
#: How many accepted sets to remember (a few sites, each with a few states of its records).
KEEP = 200
_FOLDER = "checked"
#: A page's blocks as the check takes them (`ruota_docs.records.check`): a list, the page's problem, or
#: None where it does not exist.
Blocks = Callable[[str], "list[Block] | PageError | None"]

#: The fields of a block the check reads (everything but its place in one rendering's capture).
_BLOCK_FIELDS = ("page", "lang", "line", "fence_language", "kind", "code", "index", "end_line", "source",
                 "data_format", "title", "requirements", "options", "evidence", "includes", "code_origins", "error",
                 "skip_reason", "signature", "page_total", "injected", "variant", "generated_by", "generated_from",
                 "made_by")


@functools.lru_cache(maxsize=1)
def _code_stamp() -> str:
    """The modification times and sizes of the modules that check (``ruota_docs.records`` and ``.blocks``)."""
    package = Path(__file__).resolve().parent.parent
    parts = []
    for folder in ("records", "blocks"):
        for path in sorted((package / folder).rglob("*.py")):
            info = path.stat()
            parts.append(f"{path.relative_to(package)}:{info.st_mtime_ns}:{info.st_size}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _blocks_text(found: list[Block] | PageError | None) -> str:
    """A page's blocks as the check is given them, written out field by field."""
    if found is None:
        return "missing"
    if isinstance(found, PageError):
        return f"unreadable {found.line} {found}"
    return "\n".join(repr(tuple(getattr(block, name) for name in _BLOCK_FIELDS)) for block in found)


def _commit(root: Path, raw: bytes) -> str:
    """Where the record's commit stands in the repository at ``root``: ``_check_commit`` reads it."""
    try:
        data = json.loads(raw)
        commit = data["provenance"].get("commit")
    except (ValueError, TypeError, KeyError, AttributeError):
        return "unread"  # the check reports why: such a set is refused, never remembered
    if not isinstance(commit, str):
        return "none"
    return f"{commit} {attestations.commit_known(root, commit)} {attestations.commit_time(root, commit)}"


def key(paths: Iterable[Path], root: Path, docs_dir: Path, records_folder: Path) -> str | None:
    """The key of checking the records at ``paths`` (all but the pages: `accepted` compares those);
    None where the trick is off, or a file cannot be read."""
    if not speedups.on("check_cache"):
        return None
    digest = hashlib.sha256(f"format {FORMAT}\n{_code_stamp()}\n{root}\n{docs_dir}\n{records_folder}\n".encode())
    try:
        digest.update(site_config.config_path(root).read_bytes())
        for path in paths:
            raw = Path(path).read_bytes()
            digest.update(f"\nrecord {path} {len(raw)}\n".encode())
            digest.update(raw)
            digest.update(_commit(root, raw).encode())
    except OSError:
        return None
    return digest.hexdigest()[:40]


def _pages_digest(pages: Iterable[str], docs_dir: Path, blocks: Blocks) -> str:
    """Each page's text and blocks, as the check reads them."""
    digest = hashlib.sha256()
    for name in sorted(pages):
        try:
            text = (docs_dir / name).read_bytes()
        except OSError:
            text = b"\0missing"
        digest.update(f"\npage {name} {len(text)}\n".encode())
        digest.update(text)
        digest.update(_blocks_text(blocks(name)).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def accepted(digest: str | None, docs_dir: Path, blocks: Blocks) -> bool:
    """Whether the check accepted the records keyed ``digest`` before, against the pages as they are now:
    each page it read then (its text, and its blocks as ``blocks(page)`` gives them) is as it was."""
    if digest is None:
        return False
    found = user_cache.load_pickle(_FOLDER, digest)
    if not isinstance(found, dict) or found.get("format") != FORMAT or not isinstance(found.get("pages"), list):
        return False
    return bool(found.get("digest") == _pages_digest(found["pages"], docs_dir, blocks))


def remember(digest: str | None, pages: Iterable[str], docs_dir: Path, blocks: Blocks) -> None:
    """The check accepted the records keyed ``digest``, having read the ``pages`` it names."""
    if digest is None:
        return
    pages = sorted(pages)
    where = user_cache.keep_pickle(_FOLDER, digest, {"format": FORMAT, "pages": pages,
                                                     "digest": _pages_digest(pages, docs_dir, blocks)})
    if where is not None:
        user_cache.trim(where, KEEP)
