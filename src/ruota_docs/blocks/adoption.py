"""``ruota-docs init``: what a site needs before every block runs or says why not.

It renders every page, finds the blocks that have no run policy (a language the engine does
not run, a shell block not marked safe), and proposes one site-wide policy per language
(:mod:`ruota_docs.blocks.policies`): ``show`` for a language that is not code the engine
runs (``html``, ``diff``), ``skip "…"`` for shell blocks, which someone must read before
marking them safe. Nothing is written unless asked; then the policies go into mkdocs.yml,
under the ``ruota_docs`` plugin.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ruota_docs.blocks import renderer, site_config

#: The reason proposed for shell blocks: true until someone has read them.
SHELL_REASON = "not run yet: read it, then mark it <!-- run: safe -->"


@dataclass
class Proposal:
    policies: dict[str, str] = field(default_factory=dict)  #: language → policy, as written in mkdocs.yml
    counts: Counter = field(default_factory=Counter)  #: blocks per language the policies settle
    other: list[str] = field(default_factory=list)  #: ``page:line: message`` that no policy settles
    pages: int = 0

    def yaml(self, indent: str = "      ") -> str:
        """The ``policies:`` option, as it goes under ``- ruota_docs:``."""
        lines = [f"{indent}policies:"]
        for language, policy in sorted(self.policies.items()):
            lines.append(f"{indent}  {_key(language)}: {_value(policy)}  # {self.counts[language]} block(s)")
        return "\n".join(lines) + "\n"


def _key(language: str) -> str:
    return language if re.fullmatch(r"[A-Za-z0-9_+.-]+", language) else f'"{language}"'


def _value(policy: str) -> str:
    return policy if policy in ("show", "run") else "'" + policy.replace("'", "''") + "'"


def propose(root: Path) -> Proposal:
    """The policies that settle the site's unsettled blocks, and what they leave."""
    root = Path(root).resolve()
    docs = site_config.markdown_setup(root).docs_dir
    proposal = Proposal()
    for path in sorted(docs.rglob("*.md")):
        proposal.pages += 1
        rendered = renderer.render(root, path, docs_dir=docs, fast=True)
        proposal.other += [f"{rendered.page}:{p.line}: {p.message}" for p in rendered.problems]
        for block in rendered.blocks:
            if not block.error:
                continue
            language = (block.fence_language or "").lower()
            policy = _policy_for(block.kind, block.error, language)
            if policy is None:
                proposal.other.append(block.error)
                continue
            proposal.policies.setdefault(language, policy)
            proposal.counts[language] += 1
    return proposal


def _policy_for(kind: str, error: str, language: str) -> str | None:
    if not language:
        return None  # a fence with no language: each needs one written, no site-wide rule fits
    if "has no run policy" in error:
        return "show"
    if "neither marked safe" in error:
        return f'skip "{SHELL_REASON}"'
    return None


#: ``- ruota_docs`` (``plugins:`` as a list) or ``ruota_docs:`` / ``ruota_docs: null`` (as a mapping)
_PLUGIN = re.compile(r"^(?P<indent>\s*)(?P<dash>-\s*)?ruota_docs\s*(?P<colon>:\s*(?:null|~|\{\s*\})?)?\s*(?:#.*)?$")


def write(root: Path, proposal: Proposal) -> str:
    """Add the proposal's policies to mkdocs.yml under the ``ruota_docs`` plugin; returns
    what was done. Raises ``ConfigError`` where the file cannot take them as it is."""
    path = site_config.config_path(Path(root))
    text = path.read_text(encoding="utf-8")
    options = site_config.plugin_options(site_config.load_mkdocs_config(Path(root)), "ruota_docs")
    if options is None:
        raise site_config.ConfigError(f"{path}: the ruota_docs plugin is not listed under plugins: add it first")
    if "policies" in options:
        raise site_config.ConfigError(f"{path}: ruota_docs already has policies: merge the proposal by hand")
    lines = text.splitlines(keepends=True)
    for n, line in enumerate(lines):
        found = _PLUGIN.match(line.rstrip("\n"))
        if not found or not (found["dash"] or found["colon"]):
            continue
        indent = found["indent"] + ("    " if found["dash"] else "  ")
        head = f"{found['indent']}{'- ' if found['dash'] else ''}ruota_docs:\n"
        lines[n:n + 1] = [head, proposal.yaml(indent)]
        path.write_text("".join(lines), encoding="utf-8")
        written = site_config.plugin_options(site_config.load_mkdocs_config(Path(root)), "ruota_docs") or {}
        if set(written.get("policies") or {}) != set(proposal.policies):  # indented otherwise than we guessed
            path.write_text(text, encoding="utf-8")
            raise site_config.ConfigError(f"{path}: the policies would not read back as written; add them by hand")
        return f"{path.name}: policies for {len(proposal.policies)} language(s) added under ruota_docs"
    raise site_config.ConfigError(f"{path}: cannot find the line '- ruota_docs' (or 'ruota_docs:') to add policies "
                                  "under; add them by hand")
