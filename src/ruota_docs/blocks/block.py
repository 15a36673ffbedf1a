"""A code block as the engine runs it, made from what the renderer captured.

The language decides the policy (:mod:`ruota_docs.blocks.languages`); the directives written
before the fence add requirements and run options; Sybil's ``skip:`` and
``run: skip reason="…"`` turn a block off with a reason readers see.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field

from ruota_docs.blocks import languages, terms, tiers
from ruota_docs.blocks.capture.state import Captured
from ruota_docs.blocks.directives import DirectiveError

RUN_OPTIONS = ("safe", "skip", "reason", "timeout", "id", "env", "isolate")
#: Blocks that are shown but hold no code to run: outputs, prose, diagrams, indented code, and the
#: blocks of a language whose site policy is ``show``.
SHOWN_ONLY = ("text", "indented", "shown")
#: The reason of a block a pytest-examples fence marks ``test="skip"`` (the site says it in each language).
MARKED_SKIP = 'marked test="skip" on its fence'


@dataclass
class Block:
    """A code block as the engine runs it: the parsed form of a Sybil region."""

    page: str  #: path under the docs folder, ``es/guides/keras-rx7600.md``
    lang: str  #: the page's language, ``es`` (a block's own language is `fence_language`)
    line: int  #: the page line of the fence (of the include, for a fence in an included file)
    fence_language: str  #: as written after the fence (``py3``), '' for none
    kind: str  #: python, doctest, shell, windows, data, text, indented or invalid
    code: str  #: exactly the code readers see, after includes
    index: int = 0  #: position among the page's blocks
    number: int = -1  #: its capture number in this rendering (places its markers)
    end_line: int | None = None  #: the page line of the closing fence, when it is on the page
    source: str = ""  #: ``file:line`` of the fence when it is written in an included file
    data_format: str | None = None  #: yaml, json or toml for data blocks
    title: str | None = None
    requirements: tuple = ()
    options: dict = field(default_factory=dict)
    evidence: tiers.Evidence | None = None  #: what ``<!-- evidence: … -->`` declares
    includes: tuple = ()  #: files (relative to the project) the code came from, besides the page
    code_origins: tuple = ()  #: ``(file, line)`` per code line: where to rewrite it
    error: str | None = None  #: why the block cannot be run as written
    skip_reason: str | None = None  #: Sybil's ``<!-- skip: … -->``
    signature: str = ""  #: identical for pages whose block sequences are identical
    page_total: int = 0  #: how many blocks the page has
    injected: bool = False  #: brought in by another extension's preprocessor; ``line`` is its directive's
    #: one of several blocks one such directive brought in: variants of one example, shown as tabs
    #: (FastAPI's ``{* … *}``), which ``isolation: variants`` runs each in a process of its own
    variant: bool = False
    #: for a block the page's HTML shows from no fence of it: the extension that made it ('' where unknown)
    generated_by: str | None = None
    generated_from: str = ""  #: what it was made from (mkdocstrings: the object's identifier)
    #: the site's hook that wrote this block into the page (``collect_hooks``): the page's file does not
    #: hold it as shown, and ``line`` is the file's line where the hook's part of the page stands
    made_by: str = ""

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.code.encode()).hexdigest()

    @property
    def block_id(self) -> str | None:
        value = self.options.get("id")
        return value if isinstance(value, str) else None

    @property
    def where(self) -> str:
        """``file:line`` of the fence as a reader finds it: in the Markdown file an include brought
        it from (``snippets/part.md:5``), else on the page (``guide.md:12``)."""
        if self.made_by and not self.source:
            return f"{self.page}:{self.line} (made there by the hook {self.made_by})"
        return self.source or f"{self.page}:{self.line}"

    @property
    def written_in(self) -> tuple[str, int] | None:
        """``(file, line)`` of a fence written in a Markdown file an include brought into the page (the file
        relative to the project, where it is inside it); None for a fence written on the page."""
        file, _, line = self.source.rpartition(":")
        return (file, int(line)) if file and line.isdigit() else None

    @property
    def shown_only(self) -> bool:
        """Output, prose or a diagram: never run, and not marked on the page."""
        return self.kind in SHOWN_ONLY

    @property
    def not_run_reason(self) -> str | None:
        """The author's reason not to run this block, if any."""
        if self.options.get("skip"):
            return str(self.options.get("reason") or "")
        return self.skip_reason

    def identity(self) -> tuple:
        """What must be equal for two pages to share one execution of this block (an
        output shown in a translation may be translated: it never runs)."""
        reqs = tuple(str(r) for r in self.requirements)
        opts = tuple(sorted((k, str(v)) for k, v in self.options.items() if k != "reason"))
        code = "" if self.shown_only else self.code
        found = (self.kind, self.fence_language, code, reqs, opts, self.not_run_reason is not None)
        # a block's declared tier is part of what it shows; appended only where declared, so that
        # the signatures of pages without one stay what the records hold
        return found if self.evidence is None else (*found, self.evidence.tier, self.evidence.targets)


def build(captured: Captured, page: str, lang: str, *, line: int, end_line: int | None, source: str,
          code_origins: tuple, includes: tuple, extended: dict | None, policies: dict | None = None) -> Block:
    """The `Block` for one captured code block; problems are kept in ``Block.error``.

    ``policies`` are the site's, per fence language (:mod:`ruota_docs.blocks.policies`)."""
    kind, data_format = _kind_of(captured, extended)
    block = Block(page=page, lang=lang, line=line, fence_language=captured.fence_language, kind=kind,
                  code=captured.code, end_line=end_line, source=source, data_format=data_format,
                  title=captured.options.get("title"), code_origins=code_origins, includes=includes,
                  number=captured.number)
    if kind == "python" and captured.code.lstrip().startswith(">>>"):
        block.kind = "doctest"
    block.error = _read_directives(block, captured)
    if block.error is not None:
        block.kind = "invalid"
        return block
    if captured.skip is not None:
        block.skip_reason = captured.skip
    try:
        _fence_attributes(block, getattr(captured, "attrs", None) or {})
    except terms.RequirementError as error:
        block.error = f"{block.where}: requires={captured.attrs.get('requires')!r} on the fence: {error}"
        block.kind = "invalid"
        return block
    _apply_policy(block, (policies or {}).get((captured.fence_language or "").lower()))
    if block.not_run_reason is None and not block.shown_only:
        block.error = _unexplained(block, kind)
    return block


def _kind_of(captured: Captured, extended: dict | None) -> tuple[str, str | None]:
    """``(kind, data format)`` of a captured block, from its fence language."""
    if captured.indented:
        return "indented", None
    kind, data_format = languages.resolve(captured.fence_language, extended)
    if captured.formatter != "superfences" and kind == "invalid":
        kind = "text"  # a custom fence (a diagram, say) that is no known language
    return kind, data_format


def _read_directives(block: Block, captured: Captured) -> str | None:
    """Reads the block's requirements, run options and declared tier from its directives; returns
    the error (``page:line: …``, or ``file:line: …`` for a directive written in an included Markdown
    file) of one it cannot read, else None."""
    where = block.where
    try:
        if captured.error:
            where = f"{block.page}:{captured.error.split(':', 1)[0]}"
            raise DirectiveError(captured.error.split(": ", 1)[1])
        evidence = None
        for directive in captured.directives:
            where = directive.source or f"{block.page}:{directive.line}"
            if directive.name == "requires":
                block.requirements += terms.parse(directive.args)
            elif directive.name == "evidence":
                evidence = directive  # checked once every requirement is read, whatever the order
            else:
                block.options.update(run_options(directive))
        if evidence is not None:
            where = evidence.source or f"{block.page}:{evidence.line}"
            block.evidence = tiers.parse(evidence, block.requirements)
    except (terms.RequirementError, DirectiveError) as error:
        return f"{where}: {error}"
    return None


def _unexplained(block: Block, kind: str) -> str | None:
    """The error of a block that would run without a policy that lets it: no known language, or a
    shell block not marked safe (None where it may run)."""
    if kind == "invalid":
        what = f"language {block.fence_language!r}" if block.fence_language else "no language"
        return (f"{block.where}: code block with {what} has no run policy; give it a known language "
                f"or explain it with <!-- run: skip reason=\"…\" -->")
    if kind in ("shell", "windows") and not block.options.get("safe"):
        return (f"{block.where}: {block.fence_language} block is neither marked safe to run "
                f"(<!-- run: safe -->) nor explained (<!-- run: skip reason=\"…\" -->)")
    return block.error


#: pytest-examples' fence attributes (```` ```python {test="skip" requires="3.12"} ````), read as the engine's own.
FENCE_ATTRIBUTES = ("test", "lint", "requires", "group")


def _fence_attributes(block: Block, attrs: dict) -> None:
    """pytest-examples' attributes on a fence: ``test="skip"`` is not run (a directive still decides
    first), ``requires="3.12"`` is the requirement ``python>=3.12``; ``group="name"`` keeps the block
    in its page's process under ``isolation: block``, where the blocks of its group see each other's
    names, as pytest-examples shares a group's globals; ``lint`` asks nothing of the engine, which lints no code."""
    if str(attrs.get("test", "")).lower() == "skip" and not block.options.get("skip") and block.skip_reason is None:
        block.options.update(skip=True, reason=MARKED_SKIP)
    if attrs.get("requires"):
        block.requirements += terms.parse(f"python>={attrs['requires']}")
    if attrs.get("group"):
        block.options["group"] = str(attrs["group"])


def _apply_policy(block: Block, policy) -> None:
    """The site's policy for the block's language, where no directive of its own decided."""
    if policy is None or block.not_run_reason is not None or block.options.get("safe") or block.shown_only:
        return
    if policy.action == "show":
        block.kind = "shown"
    elif policy.action == "skip":
        block.skip_reason = policy.reason
    elif block.kind in ("shell", "windows"):  # run: as if marked <!-- run: safe -->
        block.options["safe"] = True


def run_options(directive) -> dict:
    """The options of a ``run:`` directive, checked."""
    options = directive.options()
    unknown = [k for k in options if k not in RUN_OPTIONS]
    if unknown:
        raise DirectiveError(f"unknown run: option {unknown[0]!r}; known: {', '.join(RUN_OPTIONS)}", directive.line)
    if options.get("skip") and not str(options.get("reason", "") or "").strip():
        raise DirectiveError('run: skip needs a reason readers can see: <!-- run: skip reason="…" -->', directive.line)
    if "timeout" in options:
        try:
            if float(options["timeout"]) <= 0:
                raise ValueError
        except (TypeError, ValueError):
            raise DirectiveError(f"run: timeout must be a positive number of seconds (got {options['timeout']!r})",
                                 directive.line) from None
    if "env" in options:
        names = str(options["env"] or "").split(",")
        if not all(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", n) for n in names):
            raise DirectiveError(f"run: env names variables, separated by commas: env=HF_TOKEN,HF_HOME "
                                 f"(got {options['env']!r})", directive.line)
    return options


def page_signature(blocks: list[Block]) -> str:
    data = json.dumps([b.identity() for b in blocks], default=str)
    return hashlib.sha256(data.encode()).hexdigest()
