"""Expanding ``--8<--`` includes exactly as the published page does.

The expansion is delegated to pymdownx.snippets itself, configured from
``mkdocs.yml``, so the code the engine executes is the code readers see. Two
things pymdownx passes over silently are errors here: a circular include, and
(with ``check_paths``) a missing file or section.
"""

from __future__ import annotations

import functools
from pathlib import Path

import markdown
import yaml
from pymdownx.snippets import SnippetMissingError, SnippetPreprocessor


class IncludeError(ValueError):
    """An include that cannot be expanded."""


class _CycleGuard(set):
    """pymdownx skips a file already being included; we refuse it instead."""

    def __contains__(self, item: object) -> bool:
        if set.__contains__(self, item):
            raise IncludeError(f"circular include of {Path(str(item)).name}")
        return False


class _StrictSnippets(SnippetPreprocessor):
    def run(self, lines):
        self.seen = _CycleGuard()
        self.bases = None
        self.failed = set()
        return self.parse_snippets(lines)


class _Loader(yaml.SafeLoader):
    """Reads mkdocs.yml, ignoring ``!!python/name:`` tags the build resolves itself."""


_Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)
_Loader.add_multi_constructor("!", lambda loader, suffix, node: None)


def load_mkdocs_config(root: Path) -> dict:
    """The parsed ``mkdocs.yml`` at ``root`` (empty if absent)."""
    path = root / "mkdocs.yml"
    if not path.exists():
        return {}
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader) or {}


def snippet_options(config: dict) -> dict:
    """The ``pymdownx.snippets`` options of a parsed mkdocs.yml."""
    for entry in config.get("markdown_extensions") or []:
        if isinstance(entry, dict) and "pymdownx.snippets" in entry:
            return dict(entry["pymdownx.snippets"] or {})
        if entry == "pymdownx.snippets":
            return {}
    return {}


class Expander:
    """Expands the includes of code blocks, with base paths relative to ``root``."""

    def __init__(self, root: Path, options: dict | None = None) -> None:
        self.root = Path(root)
        options = dict(options if options is not None else snippet_options(load_mkdocs_config(self.root)))
        base = options.get("base_path", ["."])
        base = [base] if isinstance(base, str) else list(base)
        options["base_path"] = [str(self.root / b) for b in base]
        options.setdefault("check_paths", True)
        md = markdown.Markdown(extensions=["pymdownx.snippets"], extension_configs={"pymdownx.snippets": options})
        self._pre = _StrictSnippets(_config_of(md), md)

    def expand(self, body: str) -> str:
        """The body with every include replaced by the lines it names."""
        if "8<" not in body:
            return body
        try:
            lines = self._pre.run(body.split("\n"))
        except SnippetMissingError as error:
            raise IncludeError(str(error)) from None
        except IncludeError:
            raise
        except (OSError, UnicodeDecodeError) as error:
            raise IncludeError(f"cannot read include: {error}") from None
        return "\n".join(lines)

    def sources(self, body: str) -> list[str]:
        """The include targets named in a body, in order (``file.py:section``)."""
        found = []
        for line in body.split("\n"):
            match = SnippetPreprocessor.RE_ALL_SNIPPETS.match(line)
            if match and match.group("inline_marker") and not match.group("escape"):
                found.append(match.group("snippet")[1:-1].strip())
        return found


def _config_of(md: markdown.Markdown) -> dict:
    ext = next(e for e in md.registeredExtensions if e.__class__.__name__ == "SnippetExtension")
    return ext.getConfigs()


@functools.lru_cache(maxsize=8)
def expander_for(root: str) -> Expander:
    """One cached :class:`Expander` per repository root."""
    return Expander(Path(root))
