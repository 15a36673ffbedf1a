"""What readers are told about a block's requirements and about why it did not run.

The record keeps the engine's English (``requires ROCm; this machine: …``, ``not run:
an earlier block at line 12 ended the page's process (timed out after 2 s)``); pages
say the same in their own language. Requirement terms are the block's own, so they are
named from the block; the engine's messages are recognised by pattern and rebuilt
from the strings in :mod:`ruota_docs.site.locales`. A message no pattern knows is shown as
recorded.
"""

from __future__ import annotations

import re

from ruota_docs.site import formatting
from ruota_docs.site.locales import text
from ruota_docs.blocks.terms import FLAG, TERMS


def _words(term, lang: str) -> tuple[str, dict]:
    """The string key of a term (``hipcc`` with targets reads differently) and its values."""
    known = TERMS[term.name]
    values = tuple(term.values)
    if known.form == FLAG or not values:
        return known.strings_key(values), {}
    if known.value_label is not None:
        values = tuple(known.value_label(v) for v in values)
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


def requirement_label(term, lang: str) -> str:
    """The badge for one requirement term: ``ROCm``, ``gfx906``, ``VRAM ≥ 8 Gio``."""
    key, values = _words(term, lang)
    return text(lang, f"term.{key}", **values)


def requirement_phrase(term, lang: str) -> str:
    """What a skip says the block needs: ``una GPU gfx906``, ``au moins 8 Gio de VRAM``."""
    key, values = _words(term, lang)
    return text(lang, f"needs.{key}", **values)


def needs(terms, lang: str) -> str:
    """``requiere ROCm y una GPU gfx906`` / ``nécessite ROCm et un GPU gfx906``."""
    return text(lang, "needs", what=formatting.join([requirement_phrase(t, lang) for t in terms], lang))


# -- the engine's messages -----------------------------------------------------------
_DEAD = re.compile(r"^(?:not run: )?an earlier block at line (?P<line>\d+) ended the page's process \((?P<why>.*)\)$", re.S)
_TIMEOUT = re.compile(r"^timed out after (?P<seconds>\d+(?:\.\d+)?(?:e[-+]?\d+)?) s$")
_DIED = re.compile(r"^the page's process died \((?P<signal>[^()]*)\)$")
_CANNOT_START = re.compile(r"^(?:not run: )?the page's process cannot start \((?P<detail>.*)\)$", re.S)
_SHELL = re.compile(r"^the shell block ended with (?P<signal>.+)$")
_WROTE = re.compile(r"^wrote into the repository instead of its working directory: (?P<files>.+?) \(write relative to .*\)$", re.S)
_EXIT_STATUS = re.compile(r"^exit status (?P<code>-?\d+)$")
_SIGNAL = re.compile(r"^(?:signal (?P<number>\d+)|(?P<name>SIG[A-Z0-9]+))$")
#: What the engine records for a block it never runs: ``not run: `` and the author's reason,
#: written in the page's language, or one of the engine's own (run/sybil/evaluators.py).
_NOT_RUN = re.compile(r"^not run: (?P<why>.*)$", re.S)
_SHOWN_ONLY = {
    "output or prose, not code": "engine.text_block",
    "an indented code block has no language; readers see it as text": "engine.indented_block",
}


def _signal(words: str, lang: str) -> str | None:
    if match := _EXIT_STATUS.match(words):
        return text(lang, "engine.exit_status", code=match["code"])
    if match := _SIGNAL.match(words):
        return text(lang, "engine.signal", name=match["name"] or match["number"])
    return None


def engine_message(message: str, lang: str) -> str | None:
    """The engine's English ``message`` in ``lang``; ``None`` when it is not one of its own."""
    message = message.strip()
    if match := _DEAD.match(message):
        why = engine_message(match["why"], lang)
        return text(lang, "engine.dead", line=match["line"], why=why or match["why"]) if why else None
    if match := _TIMEOUT.match(message):
        return text(lang, "engine.timeout", duration=formatting.seconds(float(match["seconds"]), lang))
    if (match := _DIED.match(message)) and (signal := _signal(match["signal"], lang)):
        return text(lang, "engine.died", signal=signal)
    if match := _CANNOT_START.match(message):
        return text(lang, "engine.cannot_start", detail=match["detail"])
    if (match := _SHELL.match(message)) and (signal := _signal(match["signal"], lang)):
        return text(lang, "engine.shell", signal=signal)
    if match := _WROTE.match(message):
        return text(lang, "engine.wrote", files=match["files"])
    if match := _NOT_RUN.match(message):  # the English prefix goes; the reason is already the page's
        why = match["why"].strip()
        return text(lang, _SHOWN_ONLY[why]) if why in _SHOWN_ONLY else engine_message(why, lang) or why
    return None


def localised_reason(block, reason: str, lang: str) -> str:
    """A skip reason from the record, in the reader's language.

    A requirement skip names the block's unmet terms as its badges do; the engine's
    other messages are translated by pattern; anything else is shown as recorded.
    """
    if reason.startswith("requires "):
        needed = reason.split(";")[0]
        unmet = [t for t in block.requirements if t.describe() in needed]
        if block.kind == "windows" and "Windows" in needed and not unmet:
            return text(lang, "needs", what=text(lang, "needs.os", **{"or": "Windows"}))
        return needs(unmet, lang) if unmet else reason
    return engine_message(reason, lang) or reason
