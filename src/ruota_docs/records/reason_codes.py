"""Reason codes: why a block was skipped or failed, as structure beside the English text.

Every entry the engine writes has a ``reason`` (English, for people and for old readers)
and a ``reason_code`` that says the same as data::

    "reason": "requires ROCm; this machine: CUDA, NVIDIA H200",
    "reason_code": {"code": "requires", "args": {"terms": ["rocm"], "machine": ["CUDA, NVIDIA H200"]}}

``reason_code`` is ``null`` where the entry has no reason (a block that passed), and absent
in records written before codes existed. :data:`CODES` is the vocabulary the run side
writes and the site reads: each code, its arguments and their types, and its English,
so that the text a record holds is always :meth:`Reason.english` of its code. The site
renders a code in the reader's language (:mod:`ruota_docs.site.reasons`); ``record
check`` holds a record to this table (:func:`problems`).

Some arguments are reasons themselves (``page_ended``'s ``why``: what ended the page's
process) and nest, as ``{"code": …, "args": …}``. ``ended`` arguments say how a process
ended: ``{"signal": "SIGKILL"}``, ``{"signal": 99}`` (a number Python has no name for)
or ``{"exit_status": 3}``.
"""

from __future__ import annotations

import signal as _signal
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ruota_docs.blocks.generated import english as generated_english
from ruota_docs.blocks.terms import RequirementError, parse

#: Why blocks that are only shown are not run, by block kind.
SHOWN_ONLY = {
    "text": "output or prose, not code",
    "indented": "an indented code block has no language; readers see it as text",
    "shown": "shown, never run: the site's policy for its language is show",
}


class ReasonCodeError(ValueError):
    """A ``reason_code`` that is not one of :data:`CODES`, or whose arguments do not fit it."""


@dataclass(frozen=True)
class Reason:
    """One reason: its code and its arguments (JSON values; nested reasons as dicts)."""

    code: str
    args: dict[str, Any] = field(default_factory=dict)

    def english(self) -> str:
        """The English text the record keeps as ``reason``."""
        return CODES[self.code].english(self.args)

    def to_record(self) -> dict[str, Any]:
        return {"code": self.code, "args": dict(self.args)}

    @classmethod
    def from_record(cls, data: Any) -> Reason:
        """The reason of a record's ``reason_code``; raises `ReasonCodeError` where it does not fit :data:`CODES`."""
        found = problems(data)
        if found:
            raise ReasonCodeError(found[0])
        return cls(data["code"], dict(data.get("args") or {}))


def reason(code: str, **args: Any) -> Reason:
    """A reason of the vocabulary, its arguments checked: ``reason("timeout", seconds=2.0)``."""
    made = Reason(code, args)
    found = problems(made.to_record())
    if found:
        raise ReasonCodeError(found[0])
    return made


# -- how processes end ------------------------------------------------------------------------
def ended(returncode: int) -> dict[str, Any]:
    """How a process ended, from its return code (negative: the signal that killed it)."""
    if returncode >= 0:
        return {"exit_status": returncode}
    try:
        return {"signal": _signal.Signals(-returncode).name}
    except ValueError:
        return {"signal": -returncode}


def ended_english(how: dict[str, Any]) -> str:
    """``exit status 3``, ``SIGKILL``, ``signal 99``."""
    if "exit_status" in how:
        return f"exit status {how['exit_status']}"
    name = how["signal"]
    return name if isinstance(name, str) else f"signal {name}"


def _nested(value: Any) -> str:
    return Reason(value["code"], value.get("args") or {}).english()


# -- the English of each code ---------------------------------------------------------------
def _requires(a: dict[str, Any]) -> str:
    described: list[str] = []
    for term in a["terms"]:
        try:
            described.extend(r.describe() for r in parse(term))
        except RequirementError:
            described.append(term)
    return f"requires {', '.join(described)}; this machine: {'; '.join(a['machine'])}"


def _repository_changed(a: dict[str, Any]) -> str:
    parts = []
    if a["files"]:
        files = a["files"]
        shown = ", ".join(files[:10]) + (f" and {len(files) - 10} more" if len(files) > 10 else "")
        parts.append(f"wrote into the repository instead of its working directory: {shown} "
                     "(write relative to the current directory, a temporary directory; "
                     "if another program changed these files meanwhile, run the page again)")
    if a["records"]:
        records = a["records"]
        parts.append(f"changed {'a verification record' if len(records) == 1 else 'verification records'}: "
                     f"{', '.join(records)} (only the engine writes records, after the blocks; if another program "
                     "changed it meanwhile, such as a page running in parallel, that page fails too)"
                     + "".join(f"; {n}" for n in a["notes"]))
    note = "; ".join(parts)
    return f"{_nested(a['also'])}; it also {note}" if a.get("also") else note


@dataclass(frozen=True)
class Code:
    """One code of the vocabulary."""

    #: argument name → the JSON types it may hold ("reason": a nested reason, "ended": how a process ended)
    args: dict[str, Any]
    english: Callable[[dict[str, Any]], str]
    doc: str


_STR, _INT, _NUM, _LIST, _OPT_STR = ("str",), ("int",), ("int", "float"), ("list",), ("str", "null")

CODES: dict[str, Code] = {
    "requires": Code({"terms": _LIST, "machine": _LIST}, _requires,
                     "skipped: the block's unmet requirement terms (as written) and what this machine is"),
    "not_run": Code({"why": _STR}, lambda a: f"not run: {a['why']}",
                    "skipped: the author's own reason (skip:, run: never)"),
    "shown_only": Code({"kind": _STR}, lambda a: f"not run: {SHOWN_ONLY[a['kind']]}",
                       "skipped: a block readers see as text (kind: text, indented, or shown by the site's policy)"),
    "generated": Code({"by": _STR, "source": _STR}, lambda a: f"not run: {generated_english(a['by'], a['source'])}",
                      "skipped: a block a Markdown extension made from elsewhere (by: the extension, '' if unknown)"),
    "page_stopped": Code({"cause": ("reason",)}, lambda a: f"not run: {_nested(a['cause'])}",
                         "skipped: the page's process is gone, for the cause given"),
    "page_ended": Code({"line": _INT, "why": ("reason",)},
                       lambda a: f"an earlier block at line {a['line']} ended the page's process ({_nested(a['why'])})",
                       "the block at that line ended the page's process (a cause of page_stopped)"),
    "cannot_start": Code({"detail": _STR}, lambda a: f"the page's process cannot start ({a['detail']})",
                         "the page's process could not start (a cause of page_stopped)"),
    "cannot_start_as_user": Code({}, lambda a: "the page's process cannot start as the unprivileged user",
                                 "the unprivileged user cannot run the page (a cause of page_stopped)"),
    "timeout": Code({"seconds": _NUM}, lambda a: f"timed out after {a['seconds']:g} s",
                    "failed: the block ran too long"),
    "died": Code({"ended": ("ended",)}, lambda a: f"the page's process died ({ended_english(a['ended'])})",
                 "failed: the page's process ended while the block ran"),
    "shell_failed": Code({"ended": ("ended",), "command": _OPT_STR},
                         lambda a: f"the shell block ended with {ended_english(a['ended'])}"
                                   + (f" at `{a['command']}`" if a["command"] else ""),
                         "failed: a shell block ended with an error, at the command named where bash said which"),
    "raised": Code({"message": _STR}, lambda a: a["message"],
                   "failed: what the block raised (the traceback's last line)"),
    "problem": Code({"message": _STR}, lambda a: a["message"],
                    "failed: the engine's message about the block or its page (a directive it cannot read, a user "
                    "that cannot run the page, a memory limit that is not a size)"),
    "repository_changed": Code({"files": _LIST, "records": _LIST, "notes": _LIST, "also": ("reason", "null")},
                               _repository_changed,
                               "failed: the block wrote into the repository or changed a record (also: the "
                               "failure it had besides)"),
    "output_differs": Code({"at": _STR},
                           lambda a: f"its output differs from its #> lines (first at {a['at']}; "
                                     "pytest --update-outputs rewrites them)",
                           "failed: what the block printed is not what its #> lines say (at: file:line)"),
    "outputs_not_updated": Code({"at": _OPT_STR, "error": _STR},
                                lambda a: "its #> lines cannot be updated: "
                                          f"{a['at'] + ': ' if a['at'] else ''}{a['error']}",
                                "failed: --update-outputs could not rewrite the block's #> lines"),
    "outputs_updated": Code({}, lambda a: "#> lines updated from this run",
                            "passed: --update-outputs rewrote its #> lines"),
    "data_invalid": Code({"format": _STR, "error": _STR}, lambda a: f"invalid {a['format']}: {a['error']}",
                         "failed: a data block does not parse (error: the parser's first line)"),
    "data_valid": Code({"format": _STR}, lambda a: f"valid {a['format']}", "passed: a data block parses"),
}


# -- checking a record's reason_code -----------------------------------------------------------
#: What each plain JSON type of an argument accepts.
_IS = {
    "null": lambda v: v is None,
    "str": lambda v: isinstance(v, str),
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "float": lambda v: isinstance(v, float),
    "list": lambda v: isinstance(v, list) and all(isinstance(item, str) for item in v),
}
_NAMES = {"str": "a string", "int": "an integer", "float": "a number", "list": "a list of strings",
          "reason": "a reason code", "ended": "how a process ended", "null": "null"}


def _ended_problems(value: dict[str, Any], where: str) -> list[str]:
    if set(value) == {"exit_status"} and _IS["int"](value["exit_status"]):
        return []
    if set(value) == {"signal"} and isinstance(value["signal"], (str, int)):
        return []
    return [f"{where}: must be {{\"signal\": NAME or NUMBER}} or {{\"exit_status\": N}}, not {value!r}"]


def _type_problem(value: Any, kinds: tuple[Any, ...], where: str) -> list[str]:
    for kind in kinds:
        if kind == "reason" and isinstance(value, dict):
            return problems(value, where)
        if kind == "ended" and isinstance(value, dict):
            return _ended_problems(value, where)
        if kind in _IS and _IS[kind](value):
            return []
    return [f"{where}: must be {' or '.join(_NAMES[k] for k in kinds)}, not {value!r}"]


def problems(data: Any, where: str = "reason_code") -> list[str]:
    """What is wrong with a ``reason_code`` value (empty: it fits :data:`CODES`)."""
    if not isinstance(data, dict) or set(data) - {"code", "args"} or "code" not in data:
        return [f"{where}: must be an object {{\"code\": …, \"args\": {{…}}}}, not {data!r}"]
    code = CODES.get(data["code"]) if isinstance(data["code"], str) else None
    if code is None:
        return [f"{where}.code: {data['code']!r} is not a reason code (known: {', '.join(CODES)})"]
    args = data.get("args", {})
    if not isinstance(args, dict):
        return [f"{where}.args: must be an object, not {args!r}"]
    found = [f"{where}.args: {data['code']} takes no argument {name!r} (it takes: {', '.join(code.args) or 'none'})"
             for name in args if name not in code.args]
    for name, kinds in code.args.items():
        if name not in args:
            found.append(f"{where}.args: {data['code']} needs {name!r}")
        else:
            found.extend(_type_problem(args[name], kinds, f"{where}.args.{name}"))
    if not found and data["code"] == "shown_only" and args["kind"] not in SHOWN_ONLY:
        found.append(f"{where}.args.kind: must be one of {', '.join(SHOWN_ONLY)}, not {args['kind']!r}")
    return found
