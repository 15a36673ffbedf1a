"""What readers are told about a block's requirements and about why it did not run.

The record keeps the engine's English (``requires ROCm; this machine: …``) and, beside
it, the same reason as a code with its arguments (``reason_code``: the vocabulary is
:mod:`ruota_docs.records.reason_codes`). Pages say it in their own language: each code is
looked up here and rebuilt from the strings in :mod:`ruota_docs.site.locales`; a code
without words in the reader's language is shown as recorded.
"""

from __future__ import annotations

import re

from ruota_docs.blocks.block import MARKED_SKIP
from ruota_docs.blocks.terms import FLAG, TERMS, RequirementError, alternatives, parse
from ruota_docs.records.reason_codes import Reason, ReasonCodeError
from ruota_docs.records.schema import Result
from ruota_docs.site import formatting
from ruota_docs.site.locales import text


def _words(term, lang: str) -> tuple[str, dict]:
    """The string key of a term (``hipcc`` with targets reads differently) and its values."""
    known = TERMS[term.name]
    values = tuple(term.values)
    if known.form == FLAG or not values:
        return known.strings_key(values), {}
    if known.value_label is not None:
        values = tuple(known.value_label(v) for v in values)
    if term.name == "tool":  # llvm-readobj|roc-obj-ls: "llvm-readobj or roc-obj-ls", in the page's language
        values = tuple(formatting.join(list(alternatives(v)), lang, "or") for v in values)
    shown = {
        "slash": " / ".join(values),
        "plus": " + ".join(values),
        "or": formatting.join(values, lang, "or"),
        "and": formatting.join(values, lang),
        "value": values[0] if values else "",
        "size": formatting.size(values[0], lang) if values else "",
        "count": len(values),
    }
    return known.strings_key(values), shown


#: How a badge names a Python module whose project writes its name otherwise (the import name
#: stays in skip reasons, where it is what the reader types).
MODULE_NAMES = {
    "tensorflow": "TensorFlow", "tensorflow_datasets": "TensorFlow Datasets", "torch": "PyTorch",
    "triton": "Triton", "keras": "Keras", "transformers": "Transformers", "accelerate": "Accelerate",
    "numpy": "NumPy", "scipy": "SciPy",
}


def requirement_label(term, lang: str) -> str:
    """The badge for one requirement term: ``ROCm``, ``gfx906``, ``VRAM ≥ 8 Gio``, ``TensorFlow``."""
    if term.name == "import":
        term = type(term)(term.name, tuple(MODULE_NAMES.get(v, v) for v in term.values))
    key, values = _words(term, lang)
    return text(lang, f"term.{key}", **values)


def requirement_phrase(term, lang: str) -> str:
    """What a skip says the block needs: ``una GPU gfx906``, ``au moins 8 Gio de VRAM``."""
    key, values = _words(term, lang)
    return text(lang, f"needs.{key}", **values)


def needs(terms, lang: str) -> str:
    """``requiere ROCm y una GPU gfx906`` / ``nécessite ROCm et un GPU gfx906``.

    In the author's order, but for a requirement with a clause ("a HIP compiler that can build for
    gfx906") or an "and" of its own ("the tensorflow and tensorflow_datasets modules"): it comes last,
    so that it cannot swallow the next one, and an "and" of its own joins it with "as well as"."""
    word = formatting.join(["\0", "\1"], lang).split("\0")[1].split("\1")[0]  # " and ", " y ", " et "
    phrases = [(t, requirement_phrase(t, lang)) for t in terms]
    said = [(phrase, word in phrase, t.name == "hipcc" and bool(t.values)) for t, phrase in phrases]
    plain = [phrase for phrase, listed, clause in said if not (listed or clause)]
    last = [phrase for phrase, listed, clause in said if listed or clause]
    if plain and any(listed for _, listed, _ in said):
        return text(lang, "needs", what=text(lang, "needs_also", first=formatting.join(plain, lang),
                                             last=formatting.join(last, lang)))
    return text(lang, "needs", what=formatting.join(plain + last, lang))


# -- reason codes in the reader's language -------------------------------------------------
def _ended(how: dict, lang: str) -> str:
    if "exit_status" in how:
        return text(lang, "engine.exit_status", code=how["exit_status"])
    return text(lang, "engine.signal", name=how["signal"])


def _requires(args: dict, lang: str) -> str | None:
    try:
        terms = [term for written in args.get("terms", []) for term in parse(written)]
    except RequirementError:
        return None
    return needs(terms, lang) if terms else None


def _repository_changed(args: dict, lang: str) -> str | None:
    files = args.get("files") or []
    if not files or args.get("records") or args.get("also"):
        return None  # only a write into the repository, and nothing else, has words of its own
    shown = ", ".join(files[:10]) + (f" and {len(files) - 10} more" if len(files) > 10 else "")
    return text(lang, "engine.wrote", files=shown)


def _page_ended(args: dict, lang: str) -> str | None:
    why = render(args.get("why"), lang)
    return text(lang, "engine.dead", line=args["line"], why=why) if why else None


def _page_stopped(args: dict, lang: str) -> str | None:
    """The cause, without the engine's English ``not run:`` (in English where it has no words of its own)."""
    cause = args.get("cause")
    return render(cause, lang) or Reason.from_record(cause).english()


#: What a block only shown is said to be, by kind.
_SHOWN_ONLY = {"text": "engine.text_block", "indented": "engine.indented_block", "shown": "engine.shown_block"}

def generated(by: str, source: str, lang: str) -> str:
    """Why a block an extension made from elsewhere is not run, in ``lang``."""
    if by == "mkdocstrings":
        return text(lang, "engine.generated_docstring", extension=by, object=source)
    return text(lang, "engine.generated_by", extension=by) if by else text(lang, "engine.generated")


def _limit(value: float, lang: str) -> str:
    """A time limit as it was set (``0,5 s``, ``10 min``), not to a measured duration's significant figures."""
    return formatting.quantity(value, "s", lang) if value < 60 else formatting.seconds(value, lang)


#: Reasons the engine writes in a block's place (an imported convention's mark), by their English.
_ENGINE_REASONS = {MARKED_SKIP: "engine.marked_skip"}


def author_reason(reason: str, lang: str) -> str:
    """A block's reason for never running: the author's words as written, or, where the engine
    wrote it (``test="skip"`` on a pytest-examples fence), in the reader's language."""
    key = _ENGINE_REASONS.get(reason)
    return text(lang, key) if key else curly(reason, lang)


#: A straight apostrophe inside a word (user's), as a directive's reason= is typed.
_APOSTROPHE = re.compile(r"(?<=\w)'(?=\w)")


def curly(words: str, lang: str) -> str:
    """An author's words as the site's English prose writes them: its apostrophes curly (user’s). Spanish
    has none, and the French pages keep the straight one throughout."""
    return _APOSTROPHE.sub("’", words) if lang == "en" else words


def authored(reason: str) -> bool:
    """Whether a block's reason for never running is its author's own words (not the engine's)."""
    return reason not in _ENGINE_REASONS


#: How each code is said in the reader's language; a code not here is shown as recorded.
_RENDER = {
    "requires": _requires,
    # the author's reason, written in the page's language already
    "not_run": lambda a, lang: curly(a["why"], lang),
    "shown_only": lambda a, lang: text(lang, _SHOWN_ONLY[a["kind"]]),
    "generated": lambda a, lang: generated(a["by"], a["source"], lang),
    "page_stopped": _page_stopped,
    "page_ended": _page_ended,
    "timeout": lambda a, lang: text(lang, "engine.timeout", duration=_limit(float(a["seconds"]), lang)),
    "died": lambda a, lang: text(lang, "engine.died", signal=_ended(a["ended"], lang)),
    "cannot_start": lambda a, lang: text(lang, "engine.cannot_start", detail=a["detail"]),
    # the failing command is the shell's own words: only the bare exit has words of its own
    "shell_failed": lambda a, lang: (None if a.get("command")
                                     else text(lang, "engine.shell", signal=_ended(a["ended"], lang))),
    "repository_changed": _repository_changed,
}


def render(code: dict | None, lang: str) -> str | None:
    """A record's reason code in ``lang``; ``None`` where it has no words of its own there."""
    if not isinstance(code, dict) or code.get("code") not in _RENDER:
        return None
    try:
        return _RENDER[code["code"]](code.get("args") or {}, lang)
    except (KeyError, TypeError, ValueError, ReasonCodeError):  # a code that does not fit: say what the record says
        return None


def reason_text(result: Result | None, lang: str) -> str:
    """A result's skip reason in the reader's language (as recorded where it has no words there)."""
    if result is None:
        return ""
    return render(result.reason_code, lang) or result.reason or ""


def engine_failure(result: Result | None, lang: str) -> str | None:
    """Why the engine says a block failed (a timeout, a dead process) in ``lang``; ``None`` for
    a failure of the block's own (a Python error: its output says it)."""
    return render(result.reason_code, lang) if result is not None else None


def error_text(result: Result, lang: str) -> str:
    """A result's ``error`` in ``lang`` where it is the engine's own message, else as recorded."""
    error = result.error or ""
    said = render(result.reason_code, lang) if error.strip() == (result.reason or "").strip() else None
    return said or error
