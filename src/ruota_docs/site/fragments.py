"""HTML fragments the plugin puts into pages, in the reader's language.

This module decides what a fragment says (which lines, which numbers, in which words); the
markup is in the Jinja templates of ``site/templates/ruota/``, which a site may override
(`ruota_docs.site.fragment_templates`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from pathlib import Path
from typing import Any

from markupsafe import Markup

from ruota_docs.site import charts, formatting, groups, machine_names, reasons
from ruota_docs.site.fragment_templates import add_globals, render, render_kept
from ruota_docs.translations import staleness
from ruota_docs.site.locales import STRINGS, digits, in_words, text
from ruota_docs.records import verdicts
from ruota_docs.records.schema import BACKENDS, Record, Result
from ruota_docs.records.verdicts import MachineResult, Verdict
from ruota_docs.blocks.terms import OS_LABELS, Requirement
from ruota_docs.blocks.terms import ROCM_PROGRAMS, alternatives

# The badge and skip wording of requirement terms lives in ruota_docs.site.reasons.
requirement_label = reasons.requirement_label

_ICONS = {
    # Material Design Icons (Apache 2.0), inlined so pages load nothing from elsewhere.
    "passed": "M12 2C6.5 2 2 6.5 2 12S6.5 22 12 22 22 17.5 22 12 17.5 2 12 2"
              "M10 17L5 12L6.41 10.59L10 14.17L17.59 6.58L19 8L10 17Z",
    "failed": "M12 2C17.53 2 22 6.47 22 12S17.53 22 12 22 2 17.53 2 12 6.47 2 12 2"
              "M15.59 7L12 10.59L8.41 7L7 8.41L10.59 12L7 15.59L8.41 17L12 13.41L15.59 17L17 15.59L13.41 12L17 8.41"
              "L15.59 7Z",
    "skipped": "M12 2A10 10 0 0 0 2 12A10 10 0 0 0 12 22A10 10 0 0 0 22 12A10 10 0 0 0 12 2M7 13V11H17V13H7Z",
    "stale": "M12 20A8 8 0 0 0 20 12A8 8 0 0 0 12 4A8 8 0 0 0 4 12A8 8 0 0 0 12 20"
             "M12 2A10 10 0 0 1 22 12A10 10 0 0 1 12 22C6.47 22 2 17.5 2 12A10 10 0 0 1 12 2"
             "M12.5 7V12.25L17 14.92L16.25 16.15L11 13V7H12.5Z",
}
_ICONS["compiled"] = (  # a check in an open circle: built for the target, not run on it
    "M12 2C6.5 2 2 6.5 2 12S6.5 22 12 22 22 17.5 22 12 17.5 2 12 2M12 20C7.59 20 4 16.41 4 12S7.59 4 12 4 "
    "20 7.59 20 12 16.41 20 12 20M16.59 7.58L10 14.17L7.41 11.59L6 13L10 17L18 9L16.59 7.58Z")
_ICONS["never"] = _ICONS["stale"]
_ICONS["notrun"] = _ICONS["untested"] = _ICONS["skipped"]


def icon(state: str, label: str | None = None) -> str:
    """The icon of ``state``: hidden from screen readers, or, with ``label``, an image of that name
    (where no words beside it say the state)."""
    return render_kept("icon", path=_ICONS[state], state=state, label=label)


# what the templates call: an icon there is HTML, put in as it is
add_globals(text=text, icon=lambda state, label=None: Markup(icon(state, label)))


def badges(block: Any, lang: str) -> str:
    """The requirement badges shown above a block ('' when it has none)."""
    labels = [requirement_label(t, lang) for t in block.requirements]
    if block.kind == "windows" and not any(t.name == "os" for t in block.requirements):
        labels.insert(0, requirement_label(Requirement("os", ("windows",)), lang))
    if not labels:
        return ""
    return render("badges", labels=labels, lang=lang)


def _latest(results: Iterable[MachineResult]) -> str | None:
    return max(filter(None, (r.ran_at for r in results)), default=None)


def _failure(results: Iterable[MachineResult], lang: str) -> str | None:
    """Why the block failed, where the engine itself said so alike on every machine
    (a timeout, a dead process); a Python error is left to the output below."""
    said = {reasons.engine_failure(r.entry, lang) for r in results}
    return said.pop() if len(said) == 1 and None not in said else None


#: Groups a mark line names before it counts the rest ("and 12 other targets").
NAMED_GROUPS = 3


def _phrase(g: groups.Group, states: tuple[str, ...], lang: str, form: str = "") -> str:
    """One group in a mark line: the machine where it is the only one (as a sentence names it, in
    `machine_names`' ``form``; its label where there is none), else how many machines of which
    target, and whether independent records confirm it."""
    count = g.count(*states)
    if g.count() == 1:
        return machine_names.name(g.results[0], lang, form) if form else machine_names.label(g.results[0], lang)
    if any(g.confirmed(s) for s in states):
        return text(lang, "group_confirmed", count=count, target=groups.target_label(g.backend, g.target, lang))
    return text(lang, "group_machines", count=count, target=groups.target_label(g.backend, g.target, lang),
                senders=text(lang, "senders", count=g.senders(*states)))


def _phrases(found: list[Any], states: tuple[str, ...], lang: str, form: str = "a", again: bool = True,
             style: str = "standard") -> str:
    """The groups in ``states``, joined as a sentence lists them (``style``: `formatting.join`'s); ``again``:
    after a preposition that French repeats (« sur A et sur B »), not in a bare list."""
    found = [g for g in found if g.count(*states)]
    words = [_phrase(g, states, lang, form) for g in found[:NAMED_GROUPS]]
    if len(found) > NAMED_GROUPS:
        words.append(text(lang, "other_targets", count=len(found) - NAMED_GROUPS))
    before = text(lang, "machines_again") if again else ""
    return formatting.join(words[:1] + [before + w for w in words[1:]], lang, style)


def _failed_lines(found: list[Any], lang: str) -> list[tuple[str, str]]:
    """Failures: one line per group whose machines disagree ("failed on 1 of 4 gfx1102
    machines"), one line for the groups that failed as a whole."""
    lines = []
    for g in [g for g in found if g.disagrees][:NAMED_GROUPS]:
        failed = g.of("failed")
        words = text(lang, "failed_of", failed=g.count("failed"), total=g.count("passed", "failed"),
                     target=groups.target_label(g.backend, g.target, lang), date=formatting.date(_latest(failed), lang))
        why = _failure(failed, lang)
        lines.append(("failed", text(lang, "failed_because", failed=words, reason=why) if why else words))
    whole = [g for g in found if g.of("failed") and not g.disagrees]
    if whole:
        failed = [r for g in whole for r in g.of("failed")]
        words = text(lang, "failed_on", machines=_phrases(whole, ("failed",), lang),
                     date=formatting.date(_latest(failed), lang), count=len({r.machine_id for r in failed}))
        why = _failure(failed, lang)
        lines.append(("failed", text(lang, "failed_because", failed=words, reason=why) if why else words))
    return lines


def _by_reason(verdict: Verdict) -> dict[tuple[str, str], list[MachineResult]]:
    """A verdict's skipped results by what their records say (English reason and code), once
    for the copies of the block that share the verdict."""
    def make() -> dict[tuple[str, str], list[MachineResult]]:
        found: dict[tuple[str, str], list[MachineResult]] = {}
        said: dict[Hashable, tuple[str, str]] = {}  # a reason's key → what it says: read once for the machines
        for r in verdict.by_state("skipped"):
            key = said.get(r.reason_key)
            if key is None:
                entry = r.entry
                key = said[r.reason_key] = ((entry.reason or "", repr(entry.reason_code)) if entry is not None
                                            else ("", "None"))
            found.setdefault(key, []).append(r)
        return found
    made: dict[tuple[str, str], list[MachineResult]] = verdict.kept("by_reason", make)
    return made


def compiled_only(block: Any) -> bool:
    """Whether the block's evidence is code compiled for its targets, never run on the card."""
    evidence = getattr(block, "evidence", None)
    return evidence is not None and evidence.tier == "compiled"


def kept_out_by_author(block: Any) -> bool:
    """Whether a block that is not run is kept out by its author (``run: skip`` with the author's reason:
    "Not tested by design"), rather than one the engine cannot run ("Not tested here")."""
    if getattr(block, "generated_by", None) is not None or block.not_run_reason is None:
        return False
    return (bool(block.options.get("skip")) and not block.options.get("engine_reason")
            and reasons.authored(block.not_run_reason))


def mark(block: Any, verdict: Verdict, lang: str, found: list[groups.Group] | None = None) -> str:
    """The small verification mark under a block: a line per kind of result, the machines
    counted by backend and target (the page's own card first)."""
    lines = []
    page = getattr(block, "page", "")
    found = groups.groups_of(verdict, page) if found is None else found
    if getattr(block, "generated_by", None) is not None:  # the engine's reason, in the reader's language
        why = reasons.generated(block.generated_by, block.generated_from, lang)
        lines.append(("notrun", text(lang, "not_run_engine", reason=why)))
    elif block.not_run_reason is not None:
        # the author's reason is a verb phrase ("installs packages"), said of the block; the
        # engine's (an imported convention's mark) is a phrase of its own
        why = reasons.author_reason(block.not_run_reason, lang)
        lines.append(("notrun", text(lang, "not_run" if kept_out_by_author(block) else "not_run_engine", reason=why)))
    lines += _failed_lines(found, lang)
    passed = verdict.by_state("passed")
    if passed and compiled_only(block):  # built for its targets without the card: never worded as verified
        targets = list(block.evidence.targets)
        # what was built, on which machines (named as every mark names them) and when; then that it never ran
        built = text(lang, "compiled_on", targets=formatting.join(targets, lang), count=len(passed),
                     machines=_phrases(found, ("passed",), lang, "a"),
                     date=formatting.date(verdict.latest_run("passed"), lang))
        lines.append(("compiled", text(lang, "compiled_line", built=built,
                                       targets=formatting.join(targets, lang, style="nor"))))
    elif passed:  # a data block (YAML, JSON, TOML) is parsed, not run: its mark says so
        verb = "parsed_on" if getattr(block, "kind", "") == "data" else "verified_on"
        lines.append(("passed", text(lang, verb, machines=_phrases(found, ("passed",), lang),
                                     date=formatting.date(verdict.latest_run("passed"), lang), count=len(passed))))
    skipped = verdict.by_state("skipped")
    if skipped and block.not_run_reason is None:
        # grouped by what the reader is told: machines whose English reasons differ only
        # in what they are ("this machine: …") share one line
        said: dict[str, list[Any]] = {}
        by_reason = _by_reason(verdict)
        for key, machines in by_reason.items():
            said.setdefault(reasons.reason_text(machines[0].entry, lang), []).append(key)
        # a line of GPU machines before one of CPUs alone, the order of the verified line and of the tabs
        for reason, keys in sorted(said.items(), key=lambda item: all(
                r.group[0] == "cpu" for key in item[1] for r in by_reason[key])):
            on_page = groups.page_targets(page)  # the same for every copy's language
            found_groups = verdict.kept(("skipped_groups", tuple(keys), on_page), lambda: groups.group(
                [r for key in keys for r in _by_reason(verdict)[key]], on_page))
            where = _phrases(found_groups, ("skipped",), lang, style="neither")
            lines.append(("skipped", text(lang, "skipped_on", machines=where, reason=reason)))
    failed = verdict.by_state("failed")
    parsed = passed and getattr(block, "kind", "") == "data"
    if verdict.by_state("stale") and block.not_run_reason is None and not parsed:  # syntax is the same everywhere
        if passed or failed or skipped:  # the lines above name machines: this one names its own
            lines.append(("stale", text(lang, "stale_on", machines=_phrases(found, ("stale",), lang))))
        else:
            lines.append(("stale", text(lang, "stale")))
    elif not (passed or failed or skipped) and block.not_run_reason is None:
        lines.append(("never", text(lang, "never")))
    return render("mark", lines=lines, lang=lang)


#: From this many identical lines in a row, an output tab shows the line once and says how many there were.
REPEATED_LINES = 3


def collapse_repeats(output: str, lang: str) -> str:
    """``output`` as a tab shows it: a line printed ``REPEATED_LINES`` times or more in a row (the
    same warning at every step) once, then how many more times it came; the record keeps them all."""
    lines = output.split("\n")
    shown: list[str] = []
    start = 0
    while start < len(lines):
        end = start
        while end + 1 < len(lines) and lines[end + 1] == lines[start]:
            end += 1
        count = end - start + 1
        if count >= REPEATED_LINES and lines[start].strip():
            shown += [lines[start], text(lang, "output_repeated", count=count - 1)]  # the copies hidden
        else:
            shown += lines[start:end + 1]
        start = end + 1
    return "\n".join(shown)


#: What an empty output tab says, by the block's kind: a parsed block (YAML, JSON, TOML) prints
#: nothing by nature, and a doctest's outputs are those shown in the block, matched.
_EMPTY = {"data": "no_output_parsed", "doctest": "no_output_doctest"}


def output_tabs(verdict: Verdict, lang: str, uid: str, page: str = "", found: list[Any] | None = None,
                compiled: bool = False, kind: str = "python") -> str:
    """Tabs with what the block printed: the latest run on the page's card (else the GPU
    target of most machines) and on the CPU; the other machines are counted in the mark
    and listed on the card matrix."""
    shown = groups.shown_outputs(groups.groups_of(verdict, page) if found is None else found)
    if not shown:
        return ""
    tabs = []
    for shared, result in shown:
        entry = result.entry
        states = (result.state,) if shared[0].disagrees else ("passed", "failed")
        ran = shared[0].count(*states)
        label = formatting.join([machine_names.label(g.results[0], lang) if g.count() == 1
                                 else _phrase(g, states, lang) for g in shared], lang)
        if entry is None:
            continue
        body = collapse_repeats(entry.output or "", lang)
        if result.state == "failed" and entry.error:
            error = reasons.error_text(entry, lang)
            body = (body + "\n" if body else "") + error
        # a parsed file's date is in its mark ("Valid syntax: parsed on … on 6 December 2026") and its time
        # says nothing a reader needs
        meta = [] if kind == "data" else [formatting.date(entry.ran_at, lang)]
        if kind != "data":
            took = entry.duration or 0
            meta.append(text(lang, "took_under" if formatting.seconds_under(took) else "took",
                             duration=formatting.seconds(took, lang)))
        if ran > 1:  # which of the group's runs this is
            meta.append(text(lang, "latest_of", machine=machine_names.label(result, lang), count=ran))
        if entry.tier:  # how far this result goes: compiled is never worded as run
            meta.append(text(lang, f"tier_{entry.tier}"))
        if entry.as_root:  # what a permission check printed there is not what readers get
            meta.append(text(lang, "ran_as_root"))
        # a stored result names, per copy, the language whose run it was credited with: said in the
        # meta line's tooltip, not in its text, which stays date · duration · what the run proves
        other = result.credited.get(lang) or (entry.reused_from or "").partition("/")[0]
        tip = text(lang, f"credited.{other}") if other and f"credited.{other}" in STRINGS[lang] else ""
        state = "compiled" if compiled and result.state == "passed" else result.state
        # a parsed file's tab says what its mark says: its syntax is valid, not that it was verified
        said = "parsed" if kind == "data" and state == "passed" else state
        tabs.append({"state": state, "said": said, "label": label, "body": body, "meta": meta, "tip": tip})
    return render("output_tabs", tabs=tabs, uid=uid, lang=lang, empty=_EMPTY.get(kind, "no_output"))


def block_panel(block: Any, verdict: Verdict, lang: str, uid: str) -> str:
    state = "notrun" if block.not_run_reason is not None else verdict.state
    compiled = compiled_only(block)
    if compiled and state == "passed":
        state = "compiled"
    page = getattr(block, "page", "")
    found = groups.groups_of(verdict, page)
    return render("block_panel", state=state, uid=uid, mark=Markup(mark(block, verdict, lang, found)),
                  tabs=Markup(output_tabs(verdict, lang, uid, page, found, compiled, block.kind)),
                  disagree=any(g.disagrees for g in found), lang=lang)


def translation_banner(docs_dir: Path, page_key: str, lang: str, source_lang: str) -> str:
    """The banner over a page of another language than ``lang``'s own (the i18n plugin shows
    the source page where a translation is missing), or over a translation whose source
    changed since it was translated; '' for any other page."""
    if page_key.split("/", 1)[0] != lang:
        return render("banner", kind="note", words=text(lang, "untranslated"), lang=lang)
    if lang == source_lang:
        return ""
    state = staleness.translation_state(docs_dir, page_key, source_lang)
    if state is not None and state.stale:
        words = text(lang, "stale_translation", date=formatting.date(state.source_changed, lang))
        return render("banner", kind="warning", words=words, lang=lang)
    return ""


#: The kinds of blocks not verified, in the order the summary lists them: the skipped last, whose
#: "because …" clause is the longest.
_NOT_VERIFIED = ("failed", "compiled", "parsed", "pending", "notrun", "untested", "skipped")


def _needed_by_skipped(blocks_verdicts: Sequence[tuple[Any, Verdict]], lang: str) -> str:
    """What the skipped blocks need (``ROCm``, ``network access``) where they all need the same; else ``""``."""
    phrases = {formatting.join([reasons.requirement_phrase(t, lang) for t in b.requirements], lang)
               if b.requirements else "" for b, v in blocks_verdicts if _summary_state(b, v) == "skipped"}
    # a list of needs ("ROCm, network access and …") would put commas inside one of the summary's items
    return phrases.pop() if len(phrases) == 1 and "," not in next(iter(phrases)) else ""


def _skipped_key(blocks_verdicts: Sequence[tuple[Any, Verdict]]) -> str:
    """"skipped on both test machines" where the page has results from two machines and every skipped block
    from both, else "on every test machine" (which reads as many where the summary has just named two)."""
    on_page = {r.machine_id for _, v in blocks_verdicts for r in v.results}
    skipped = [v for b, v in blocks_verdicts if _summary_state(b, v) == "skipped"]
    both = len(on_page) == 2 and bool(skipped) and all({r.machine_id for r in v.results} == on_page for v in skipped)
    return "summary_skipped_both" if both else "summary_skipped"


def _summary_state(block: Any, verdict: Verdict) -> str:
    """What the summary line counts a block as: compiled code that passed is compiled, and a data block (YAML,
    JSON) that parsed has had its syntax checked; neither is counted as verified."""
    if block.not_run_reason is not None or getattr(block, "generated_by", None) is not None:
        return "notrun" if kept_out_by_author(block) else "untested"
    if verdict.state == "passed" and compiled_only(block):
        return "compiled"
    if verdict.state == "passed" and getattr(block, "kind", "") == "data":
        return "parsed"
    return verdict.state


def page_summary(blocks_verdicts: Sequence[tuple[Any, Verdict]], lang: str, shown: int = 0) -> str:
    """The lines at the top of a page: one sentence for how many blocks were verified, where and when, then
    what became of the others: one sentence where they are all of one kind, else a short list
    ("The others:" · "One was only compiled …" · "Eight are not tested by design"). A small count is a word
    ("on two test machines", "The other nine": zero to nine, in each language), as running
    text writes small numbers, except that the two counts of one phrase are written alike ("12 of the 28",
    "two of the three"). ``shown``: the blocks shown only to be read (sample output, Markdown), which are not
    counted: a last sentence says so, since a reader who counts the page's blocks finds them too."""
    total = len(blocks_verdicts)
    if not total:
        return ""
    # a count in words, as the summary's own; one in digits would be its only one (« cinq … sept … 12 »)
    uncounted = "" if not shown else (text(lang, "summary_shown", count=shown) if in_words(shown, lang)
                                      else text(lang, "summary_shown_uncounted"))
    counts = Counter(_summary_state(b, v) for b, v in blocks_verdicts)
    counts["pending"] = counts["stale"] + counts["never"]
    if counts["notrun"] + counts["untested"] == total:  # nothing here is meant to run: say only why
        docstrings = all(getattr(b, "generated_by", None) == "mkdocstrings" for b, _ in blocks_verdicts)
        key = "summary_all_docstrings" if docstrings else "summary_all_notrun"  # an API page's examples
        return render("page_summary", state="notrun", parts=[text(lang, key, count=total)], items=[],
                      after=uncounted, lang=lang)
    passed_on = [{r.machine_id for r in v.by_state("passed")} for b, v in blocks_verdicts
                 if _summary_state(b, v) == "passed"]
    machines = set().union(*passed_on)

    if counts["passed"] == 0:
        # "not verified yet" only where some block could be: not where they are all parsed, compiled or kept out
        hopeful = counts["failed"] or counts["pending"] or counts["skipped"]
        parts = [text(lang, "summary_none")] if hopeful else []
    else:
        stamps = [stamp for _, v in blocks_verdicts if (stamp := v.latest_run())]
        # "on two machines" only where every verified block passed on both
        everywhere = all(found == machines for found in passed_on if found)
        if everywhere and len(machines) == 2:  # "on both test machines"
            where = text(lang, "machines_both")
        elif everywhere or len(machines) != 2:
            where = text(lang, "machines_count" if everywhere else "machines_some", count=len(machines))
        else:  # "en una o en las dos máquinas de pruebas"
            where = text(lang, "machines_either")
        key = "summary_all" if counts["passed"] == total else "summary"  # every block verified, or some
        words = in_words(total, lang)
        pair = (counts["passed"], total) if words else (digits(counts["passed"], lang), digits(total, lang))
        parts = [text(lang, key, passed=pair[0], total=pair[1], machines=where,
                      date=formatting.date(max(stamps) if stamps else None, lang))]
    rest = [(key, counts[key]) for key in _NOT_VERIFIED if counts[key]]
    items, after = _summary_rest(rest, bool(counts["passed"]), parts, _needed_by_skipped(blocks_verdicts, lang), lang,
                                 skipped=_skipped_key(blocks_verdicts))
    if uncounted and items:  # after the list, with the sentence on why
        after = " ".join(s for s in (after, uncounted) if s)
    elif uncounted:  # the summary's last sentence
        parts.append(uncounted)
    state = "failed" if counts["failed"] else (
        "passed" if (counts["passed"] or counts["parsed"]) and not counts["pending"] else "stale")
    return render("page_summary", state=state, parts=parts, items=items, after=after, lang=lang)


def _summary_rest(rest: list[tuple[str, int]], some_passed: bool, parts: list[str], needed: str,
                  lang: str, skipped: str = "summary_skipped") -> tuple[list[str], str]:
    """The blocks not verified, after the summary's first sentence (appended to ``parts``): one sentence where
    they are alike, else a list (returned); then where to read why: in the item of the one kind whose marks
    give a reason, else in a sentence (returned, or appended where no list). Each count of the list is
    written as running text writes it, a small count in words, a larger one in digits (« huit », « 35 »),
    whatever the first sentence's pair needed: the list is clauses of its own, and « 8 ; un » or « 1 » opening
    an item read as mistakes (a single block is « l'un », "one")."""
    if not rest:
        return [], ""
    left = sum(n for _, n in rest)
    opening = "summary_rest" if some_passed else "summary_rest_none"

    def said(key: str, n: int) -> str:
        if key == "skipped" and needed:  # what they need, where they all need the same
            return text(lang, "summary_skipped_named", count=n, what=needed)
        return text(lang, skipped if key == "skipped" else f"summary_{key}", count=n)

    # the mark under a block says why it was not run; a parsed or compiled block needs no more words, nor
    # do skipped ones alone whose need the summary has named; where the list holds several kinds, the
    # sentence says which (skipped ones too: their mark says more than the need the list names)
    explained = {key for key, _ in rest if key not in ("parsed", "compiled")}
    if needed and explained == {"skipped"}:
        explained = set()
    items: list[str] = []
    if len(rest) == 1:
        parts.append(text(lang, opening + "_alike", count=left, what=said(*rest[0])))
    else:
        parts.append(text(lang, opening + "_list", count=left))
        # one kind of the list whose marks say why: its item says so, rather than a sentence that names it again
        noted = next(iter(explained)) if len(explained) == 1 else None
        place = ["summary_item"] + ["summary_item_next"] * (len(rest) - 2) + ["summary_item_last"]
        items = [text(lang, place[i], count=n, what=said(key, n))
                 + (" " + text(lang, "summary_item_why", count=n) if key == noted else "")
                 for i, (key, n) in enumerate(rest)]
        # punctuated as the language punctuates a list that ends a sentence (French: « ; » then a full stop)
        sep, end = text(lang, "summary_item_sep"), text(lang, "summary_item_end")
        items = [item + sep for item in items[:-1]] + [items[-1] + end]
        if noted:
            return items, ""
    if not explained:
        return items, ""
    # skipped and kept-out blocks beside others (a parsed block is "not run" too): the sentence names which
    not_run = explained <= {"skipped", "notrun"} and explained != {key for key, _ in rest}
    why = "summary_why_not_run" if not_run else "summary_why"
    after = text(lang, why, count=sum(n for key, n in rest if key in explained))
    if items:
        return items, after
    parts.append(after)  # one sentence said them all: the reason's sentence goes on in its paragraph
    return items, ""


def _series_labels(options: dict[str, Any], metrics: list[str]) -> list[str]:
    """The readers' names of the series (``labels="a; b"``), else the metrics' own names."""
    given = [label.strip() for label in str(options.get("labels", "")).split(";") if label.strip()]
    if given and len(given) != len(metrics):
        raise ValueError(f"labels= names {len(given)} series but metrics= has {len(metrics)}")
    return given or metrics


def _head(name: str, unit: str) -> str:
    """A column's header with its unit: ``Valor (MiB)``; ``math (référence, Mio)`` rather than
    two brackets in a row where the name ends in its own."""
    if not unit:
        return name
    return f"{name[:-1]}, {unit})" if name.endswith(")") else f"{name} ({unit})"


def chart(options: dict[str, Any], bars: list[tuple[str, list[Result | None]]], lang: str) -> str:
    """A ``chart:`` directive: a table and an SVG bar chart of recorded metrics, one bar (group of bars) per
    ``bars`` item: its label ("NVIDIA H100" for one machine, ``gfx1102`` for several) and its entries."""
    metrics = [m for m in str(options.get("metrics", "")).split(",") if m]
    names = _series_labels(options, metrics)
    unit = formatting.unit(str(options.get("unit", "")), lang)
    title = str(options.get("title", ", ".join(metrics)))
    groups: list[tuple[str, list[tuple[str, float | None, str]]]] = []
    rows: list[tuple[str, str, list[float | None]]] = []
    places: list[int | None] = []  # the decimals of each value as printed: the chart shows them all alike
    for named, entries in bars:
        values: list[tuple[str, float | None, str]] = []
        for metric, name in zip(metrics, names):
            printed = next((p for e in entries if e is not None and e.outcome == "passed"
                            and (p := charts.metric_text(e.output, metric)) is not None), None)
            value = float(printed) if printed is not None else None
            if printed is not None:
                places.append(charts.decimals(printed))
            values.append((name if len(metrics) > 1 else "", value, "measured"))
        if any(v is not None for _, v, _ in values):
            groups.append((named, values))
            rows.append((named, text(lang, "chart_measured"), [v for _, v, _ in values]))
    for item in str(options.get("reported", "")).split(";"):
        label, sep, written = item.rpartition("=")
        if sep and label.strip():
            try:
                number = float(written.strip().replace(",", "."))
            except ValueError:
                raise ValueError(f"reported value {written.strip()!r} for {label.strip()!r} is not a number") from None
            groups.append((label.strip(), [("", number, "reported")]))
            places.append(charts.decimals(written.strip().replace(",", ".")))
            rows.append((label.strip(), text(lang, "chart_reported"), [number]))
    if not groups:
        return render("chart", rows=[], series=formatting.join(names, lang), lang=lang)
    # one series: its label where the author gives one ("worst error / tolerance"), else the generic "Value"
    labelled = len(metrics) > 1 or bool(str(options.get("labels", "")).strip())
    heads = [_head(name, unit) for name in names] if labelled else [_head(text(lang, "value"), unit)]
    # one number of decimals for the whole chart (0,60 beside 0,95), that of its most precise value
    decimals = [d for d in places if d is not None]
    precision = max(decimals, default=0) if len(decimals) == len(places) else None

    def shown_as(v: float) -> str:
        return formatting.fixed(v, lang, precision) if precision is not None else formatting.number(v, lang)

    shown = [{"label": label, "source": source,
              "cells": [shown_as(v) if v is not None else "—" for v in values]}
             for label, source, values in rows]
    svg = Markup(charts.bar_chart(title, groups, unit, shown_as))
    sources = any(source == text(lang, "chart_reported") for _, source, _ in rows)  # all measured: no column for it
    return render("chart", rows=shown, heads=heads, svg=svg, title=title, sources=sources, lang=lang)




def _count(state: str, count: int, lang: str) -> str:
    """A count in the status table: the icon and the number, and in words for screen
    readers and on hover (``3 bloques correctos``)."""
    return render_kept("count", state=state, words=text(lang, f"count_{state}", count=count),
                       number=formatting.number(count, lang, 0), lang=lang)


def rocm_kind(block: Any) -> str | None:
    """``device`` for a block that needs PyTorch on a ROCm GPU, ``toolchain`` for one that needs
    only ROCm's software (hipcc, or one of ROCm's programs), ``None`` for any other."""
    names = {t.name for t in block.requirements}
    if "rocm" in names:
        return "device"
    programs = {a for t in block.requirements if t.name == "tool" for v in t.values for a in alternatives(v)}
    if ("hipcc" in names or programs & set(ROCM_PROGRAMS)) and not names & {"gpu", "cuda"}:
        return "toolchain"
    return None


def rocm_evidence(pages: list[tuple[str, str, list[Any]]], lang: str) -> str:
    """Two rows drawn from the records: where the ROCm toolchain blocks and the ROCm device
    blocks of this language passed ("no machine has run them yet" where none did); code compiled for AMD
    targets has a row of its own, never counted as passed here."""
    rows = []
    for kind in ("toolchain", "device"):
        items = [(b, v) for _, _, found in pages for b, v in found
                 if rocm_kind(b) == kind and b.not_run_reason is None and not compiled_only(b)]
        if not items:
            continue
        passed: dict[tuple[str, str], tuple[set[Any], list[Any]]] = {}  # target → (blocks passed there, results)
        for n, (_, verdict) in enumerate(items):
            for result in verdict.by_state("passed"):
                found = passed.setdefault(result.group, (set(), []))
                found[0].add(n)
                found[1].append(result)
        if passed:
            where = "; ".join(
                text(lang, "rocm_passed_on", machine=machine_names.label(results[0], lang)
                     if len({r.machine_id for r in results}) == 1
                     else groups.target_label(*key, lang), passed=len(blocks), total=len(items),
                     date=formatting.date(_latest(results), lang))
                for key, (blocks, results) in passed.items())
        else:
            where = text(lang, "rocm_no_record")
        rows.append({"what": text(lang, "rocm_" + kind), "count": formatting.number(len(items), lang, 0),
                     "state": "passed" if passed else "never", "where": where})
    compiled = _compiled_row(pages, lang)
    if compiled:
        rows.append(compiled)
    if not rows:
        return ""
    return render("rocm_evidence", rows=rows, lang=lang)


def _compiled_row(pages: list[tuple[str, str, list[Any]]], lang: str) -> dict[str, Any] | None:
    """The row of the blocks that compile code for AMD targets without the card: machine by machine
    (a GPU before the CPU, as in the machines table), the targets its passed results compiled for and
    when, worded as compiled (never as run), or "no record yet"."""
    items = [(b, v) for _, _, found in pages for b, v in found
             if b.evidence is not None and b.evidence.tier == "compiled" and b.not_run_reason is None]
    if not items:
        return None
    machines: dict[str, tuple[set[str], list[Any]]] = {}  # machine id → (targets compiled for, its results)
    for block, verdict in items:
        for result in verdict.by_state("passed"):
            found = machines.setdefault(result.machine_id, (set(), []))
            found[0].update(block.evidence.targets)
            found[1].append(result)
    total = formatting.number(len(items), lang, 0)
    said = []
    for targets, results in sorted(machines.values(), key=lambda m: (m[1][0].machine.backend == "cpu",
                                                                     machine_names.label(m[1][0], lang))):
        # named as the status page's other tables name it ("NVIDIA H100"); one line per machine
        # how many of the group's blocks it compiled: a machine may have run only some of the pages
        said.append(text(lang, "rocm_compiled_on", machine=machine_names.label(results[0], lang), passed=len(results),
                         total=total, targets=formatting.join(sorted(targets, key=lambda t: (len(t), t)), lang),
                         date=formatting.date(_latest(results), lang)))
    if any(results[0].machine.backend == "cpu" for _, results in machines.values()):
        said.append(text(lang, "rocm_compiled_ci"))  # a machine without a GPU compiled as CI does, on every commit
    return {"what": text(lang, "rocm_compiled"), "count": total,
            "state": "passed" if said else "never", "where": text(lang, "rocm_no_record"), "lines": said}



#: Up to this many records, the status page describes each machine; beyond, the newest of each
#: target (the card matrix lists them).
DESCRIBED_MACHINES = 50


def _newest_per_target(ledgers: list[Record]) -> list[Record]:
    if len(ledgers) <= DESCRIBED_MACHINES:
        return ledgers
    newest: dict[tuple[str, str], Record] = {}
    for data in ledgers:
        key = data.machine.group
        if key not in newest or str(data.updated) > str(newest[key].updated):
            newest[key] = data
    return [newest[key] for key in sorted(newest)]


#: The states the status page counts: compiled code that passed apart from the blocks that ran and
#: passed (as the page summaries count it), and a block its author never runs (``run: skip``) apart
#: from one skipped for want of a requirement.
_COUNTED = ("passed", "compiled", "failed", "skipped", "notrun", "untested")


def _state(block: Any, state: str) -> str:
    """The state a status page counts: a skipped block that is never run is "not tested by design"
    where its author keeps it out, "not tested here" where the engine cannot run it (as its mark says);
    compiled code that passed is "compiled only", never "passed"."""
    if state == "passed" and compiled_only(block):
        return "compiled"
    if state == "skipped" and block.not_run_reason is not None:
        return "notrun" if kept_out_by_author(block) else "untested"
    return state


def status_page(pages: list[tuple[str, str, list[Any]]], ledgers: list[Record], lang: str) -> str:
    """The generated verification status: every page, every target (a machine where it is its
    target's only one), the machines' descriptions.

    ``pages`` holds ``(title, url, [(block, verdict), …])`` for the reader's language.
    """
    # one column per backend and target (a thousand machines are a few dozen targets)
    found = groups.group([verdicts.MachineResult(verdicts.record_id(d), d.machine.label, "absent",
                                                 None, d) for d in ledgers])
    columns = [(g.key, g.label(lang) if g.count() == 1 else groups.target_label(g.backend, g.target, lang))
               for g in found]
    size = {g.key: g.count() for g in found}
    key_of = {(g.backend, g.target): g.key for g in found}
    # a result that does not say what machine it is for counts in its record's column (`MachineResult.group`)
    key_of |= {("", r.machine_id): g.key for g in found for r in g.results}
    totals: dict[Hashable, Counter[str]] = {key: Counter() for key, _ in columns}
    for _, _, items in pages:
        for b, v in items:
            for (group, state), count in v.tally().items():  # counted once for the copies sharing a verdict
                totals[key_of[group]][_state(b, state)] += count
    chart: list[tuple[str, list[tuple[str, float | None, str]]]] = [
        (label, [(text(lang, s), float(totals[key][s]), s) for s in _COUNTED])
        for key, label in columns]
    blocks = lambda v: text(lang, "blocks_count", count=int(v))  # noqa: E731
    svg = Markup(charts.bar_chart(text(lang, "outcomes_chart"), chart, "", blocks)) if chart else ""
    rows = []
    for title, url, items in pages:
        cells = []
        # one pass over the page's results, not one per column
        by_column: dict[Hashable, Counter[str]] = {key: Counter() for key, _ in columns}
        for b, v in items:
            for (group, state), count in v.tally().items():
                by_column[key_of[group]][_state(b, state)] += count
        for key, _ in columns:
            c = by_column[key]
            c["stale"] = len(items) * size[key] - sum(c[s] for s in _COUNTED)  # changed, or never recorded
            cells.append([Markup(_count(s, c[s], lang)) for s in (*_COUNTED, "stale") if c[s]])
        rows.append({"title": title, "url": url, "count": formatting.number(len(items), lang, 0), "cells": cells})
    # the chart's values as a table: its text alternative, with the blocks no state counts (changed since
    # their run, or never recorded) in a column of their own, so that each row adds up to every block
    every = sum(len(items) for _, _, items in pages)
    values = [{"label": label, "cells": [formatting.number(totals[key][s], lang, 0) for s in _COUNTED]
               + [formatting.number(every * size[key] - sum(totals[key][s] for s in _COUNTED), lang, 0)]}
              for key, label in columns] if chart else []
    return render("status_page", svg=svg, values=values, rocm=Markup(rocm_evidence(pages, lang)), pages=rows,
                  columns=[label for _, label in columns],
                  machines=[_described(data, lang) for data in _in_column_order(_newest_per_target(ledgers), found)],
                  lang=lang)


def _in_column_order(ledgers: list[Record], found: list[groups.Group]) -> list[Record]:
    """The machines in the order of the chart and the tables above them (`groups.group`: the backends'
    order, then the targets'), so that the page lists them one way throughout."""
    position = {(g.backend, g.target): at for at, g in enumerate(found)}
    return sorted(ledgers, key=lambda data: position.get(data.machine.group, len(position)))


def _described(data: Record, lang: str) -> dict[str, Any]:
    """One machine of the status page, as its row describes it."""
    m = data.machine
    # PyTorch as it names itself (2.11.0+cu130, as the output tabs print it); the other packages are
    # left to the record: its machine is its latest run's, which may not have run every page
    torch = m.torch or m.packages.get("torch")
    versions = f"PyTorch {torch}" if torch else ""
    extra = ", ".join(x for x in (m.hip and f"HIP {m.hip}", m.cuda and f"CUDA {m.cuda}") if x)
    system = f"{OS_LABELS.get(m.os, m.os)} {machine_names.arch(m.machine)}"
    return {
        "label": machine_names.machine_label(m, lang),
        "backend": BACKENDS[m.backend].name if m.backend in BACKENDS else m.backend,
        "gpu": (m.gpu_name or "—") + (f" · {m.arch}" if m.arch else ""),
        "facts": " · ".join(x for x in (system, f"Python {m.python}", extra, versions) if x),
        "updated": formatting.date(data.updated, lang),
    }
