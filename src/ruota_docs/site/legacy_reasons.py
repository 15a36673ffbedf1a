"""Reasons of records written before reason codes: their English read back into codes.

Records carry a ``reason_code`` beside their English ``reason`` (see
:mod:`ruota_docs.records.reason_codes`); those written before it existed hold the English
only. This module is the fallback for them alone: it recognises the engine's English by
pattern and returns the code it would have written, so that :mod:`ruota_docs.site.reasons`
renders every record one way. A reason no pattern knows gives ``None`` (shown as recorded).
Nothing that the engine writes today goes through here.
"""

from __future__ import annotations

import re

from ruota_docs.records.reason_codes import SHOWN_ONLY

_DEAD = re.compile(r"^(?P<skip>not run: )?an earlier block at line (?P<line>\d+) "
                   r"ended the page's process \((?P<why>.*)\)$", re.S)
_TIMEOUT = re.compile(r"^timed out after (?P<seconds>\d+(?:\.\d+)?(?:e[-+]?\d+)?) s$")
_DIED = re.compile(r"^the page's process died \((?P<signal>[^()]*)\)$")
_CANNOT_START = re.compile(r"^(?P<skip>not run: )?the page's process cannot start \((?P<detail>.*)\)$", re.S)
_SHELL = re.compile(r"^the shell block ended with (?P<signal>.+)$")
_WROTE = re.compile(r"^wrote into the repository instead of its working directory: "
                    r"(?P<files>.+?) \(write relative to .*\)$", re.S)
_NOT_RUN = "not run: "
_EXIT_STATUS = re.compile(r"^exit status (?P<code>-?\d+)$")
_SIGNAL = re.compile(r"^(?:signal (?P<number>\d+)|(?P<name>SIG[A-Z0-9]+))$")


def _ended(words: str) -> dict | None:
    if match := _EXIT_STATUS.match(words):
        return {"exit_status": int(match["code"])}
    if match := _SIGNAL.match(words):
        return {"signal": match["name"] or int(match["number"])}
    return None


def _code(code: str, **args) -> dict:
    return {"code": code, "args": args}


def _stopped(match, code: dict) -> dict:
    """A cause, or the skip of the blocks after it where the reason began with ``not run:``."""
    return _code("page_stopped", cause=code) if match["skip"] else code


def code_of(reason: str, block=None) -> dict | None:
    """The reason code of an old record's English ``reason`` (``block``: the block it is about,
    whose requirement terms a ``requires …`` reason names); ``None`` where none fits."""
    reason = (reason or "").strip()
    if reason.startswith("requires "):
        return _requires(reason, block)
    if match := _DEAD.match(reason):
        why = code_of(match["why"])
        return _stopped(match, _code("page_ended", line=int(match["line"]), why=why)) if why else None
    if match := _TIMEOUT.match(reason):
        return _code("timeout", seconds=float(match["seconds"]))
    if (match := _DIED.match(reason)) and (how := _ended(match["signal"])):
        return _code("died", ended=how)
    if match := _CANNOT_START.match(reason):
        return _stopped(match, _code("cannot_start", detail=match["detail"]))
    if (match := _SHELL.match(reason)) and (how := _ended(match["signal"])):
        return _code("shell_failed", ended=how, command=None)
    if match := _WROTE.match(reason):
        return _code("repository_changed", files=[match["files"]], records=[], notes=[], also=None)
    if reason.startswith(_NOT_RUN):  # the author's reason, one of the engine's, or the cause of a stop
        why = reason[len(_NOT_RUN):].strip()
        kind = next((k for k, said in SHOWN_ONLY.items() if said == why), None)
        if kind is not None:
            return _code("shown_only", kind=kind)
        cause = code_of(why)
        return _code("page_stopped", cause=cause) if cause else _code("not_run", why=why)
    return None


def _requires(reason: str, block) -> dict | None:
    """The block's terms that the English names (``requires ROCm, arch gfx906; this machine: …``)."""
    needed, _, machine = reason.partition("; this machine: ")
    terms = [t for t in getattr(block, "requirements", ()) if t.describe() in needed]
    if not terms and getattr(block, "kind", None) == "windows" and "Windows" in needed:
        return _code("requires", terms=["os=windows"], machine=[machine])
    return _code("requires", terms=[str(t) for t in terms], machine=[machine]) if terms else None
