"""Code blocks on the page: their verification marks and output tabs follow the ledger,
and the copy button copies exactly the code the engine executes (includes expanded)."""

from __future__ import annotations

import pytest

from browserkit import LANGUAGES, REVEAL_JS, copy_plan, fixture_output, recorded_page
from ruota_docs.site import formatting, fragments, groups, machine_names

SITES = ["site", "fixture_site"]
SURVEY_OF = {"site": "real_survey", "fixture_site": "fixture_survey"}


def _shown(verdict, block) -> list:
    """``(groups, result)`` of each output tab, as the site chooses them (the guide's card or a
    GPU, then the CPU; an identical output once)."""
    return groups.shown_outputs(groups.groups_of(verdict, block.page))


def _expected_labels(verdict, block, lang: str) -> list[str]:
    labels = []
    for shared, result in _shown(verdict, block):
        states = (result.state,) if shared[0].disagrees else ("passed", "failed")
        labels.append(formatting.join([machine_names.label(g.results[0], lang) if g.count() == 1
                                       else fragments._phrase(g, states, lang) for g in shared], lang))
    return labels


@pytest.mark.parametrize("which", SITES)
def test_marks_and_output_tabs_follow_the_ledger(request, which):
    """Under every checked block: a mark; tabs exactly for the machines with a record."""
    site, reports = request.getfixturevalue(which), request.getfixturevalue(SURVEY_OF[which])
    problems, blocks_seen, tabs_seen = [], 0, 0
    for (page, lang), report in sorted(reports.items()):
        where = f"{lang}/{page}"
        verdicts = site.verdicts(page, lang)
        panels = report.dom["panels"]
        if len(panels) != len(verdicts):
            problems.append(f"{where}: {len(panels)} verification panels for {len(verdicts)} checked blocks")
            continue
        for (block, verdict), panel in zip(verdicts, panels):
            blocks_seen += 1
            state = "notrun" if block.not_run_reason is not None else verdict.state
            if state == "passed" and fragments.compiled_only(block):  # compiled for its targets: never "passed"
                state = "compiled"
            label = f"{where} block {block.index} (line {block.line})"
            if f"ruota-state-{state}" not in panel["cls"].split():
                problems.append(f"{label}: panel {panel['cls']!r}, expected state {state!r}")
            if not panel["after_code"]:
                problems.append(f"{label}: the marks do not follow the code block")
            if not panel["marks"]:
                problems.append(f"{label}: no verification mark")
            expected = _expected_labels(verdict, block, lang)
            tabs_seen += len(expected)
            if panel["labels"] != expected:
                problems.append(f"{label}: output tabs {panel['labels']}, expected {expected}")
            for result, output in zip([r for _, r in _shown(verdict, block)], panel["outputs"]):
                printed = (result.entry.output or "").strip()
                if printed and printed.splitlines()[0] not in output:
                    problems.append(f"{label}: the {result.label} tab does not show what it printed ({printed[:40]!r})")
        with_badges = [b for b, _ in verdicts if b.requirements or b.kind == "windows"]
        if len(report.dom["requires"]) != len(with_badges):
            problems.append(f"{where}: {len(report.dom['requires'])} requirement badges for {len(with_badges)} blocks with requirements")
        problems += [f"{where}: requirement badges not directly above a code block" for r in report.dom["requires"] if not r["before_code"]]
    assert not problems, "\n".join(problems)
    if which == "fixture_site":  # guard: the fixture really exercises records and tabs
        assert blocks_seen >= 15 and tabs_seen >= 18, (blocks_seen, tabs_seen)


def _two_tab_blocks(site, page: str, lang: str) -> list:
    return [(b, v) for b, v in site.verdicts(page, lang) if len(_shown(v, b)) >= 2]


@pytest.mark.parametrize("which", SITES)
def test_clicking_an_output_tab_shows_that_machines_output(request, new_context, which):
    site = request.getfixturevalue(which)
    chosen = []
    for lang in LANGUAGES:
        found = [(p, b, v) for p in site.pages() for b, v in _two_tab_blocks(site, p, lang)]
        if found:
            chosen.append((lang, *found[0]))
    if not chosen:
        pytest.skip("no block has output recorded on two machines yet (verification/*.json)")
    page, recorder = recorded_page(new_context(site), site)
    for lang, path, block, verdict in chosen:
        page.goto(site.href(path, lang))
        panel = page.locator(f"#ruota-block-{block.index}")  # the panel of that block, whatever comes before it
        page.evaluate(REVEAL_JS, panel.element_handle())
        labels = panel.locator(".ruota-outputs > .tabbed-labels > label")
        blocks = panel.locator(".ruota-outputs > .tabbed-content > .tabbed-block")
        shown = [r for _, r in _shown(verdict, block)]
        for n in (1, 0):
            labels.nth(n).click()
            visible = [blocks.nth(i).is_visible() for i in range(blocks.count())]
            assert visible == [i == n for i in range(len(visible))], f"{lang}/{path} block {block.index}: after clicking tab {n}: {visible}"
            printed = (shown[n].entry.output or shown[n].entry.error or "").strip().splitlines()
            if printed:
                assert printed[0] in blocks.nth(n).inner_text(), f"{lang}/{path} block {block.index}: tab {n} shows {blocks.nth(n).inner_text()!r}"
            if which == "fixture_site":  # the fixture knows what each machine printed
                assert fixture_output(shown[n].machine_id, block).splitlines()[0] in blocks.nth(n).inner_text()
    assert not recorder.problems(navigated=True), recorder.problems(navigated=True)


@pytest.mark.parametrize("which", SITES)
def test_copy_button_copies_the_executed_code(request, which):
    """The copy button gives exactly the code the engine runs (``block.code``, as the
    engine captured it from the site's renderer, includes expanded), except trailing
    whitespace, which Material trims. The survey pressed the buttons."""
    site, reports = request.getfixturevalue(which), request.getfixturevalue(SURVEY_OF[which])
    plan = {key: blocks for key, blocks in copy_plan(site).items() if key in reports}
    included = sum(1 for blocks in plan.values() for b in blocks if b.includes)
    if not included:
        pytest.skip("no page includes a snippet yet")  # the fixture site always does
    problems = []
    for (path, lang), blocks in sorted(plan.items()):
        copied = reports[(path, lang)].copied
        for block in blocks:
            got = copied.get(block.index, {"error": "not tried"})
            if got.get("text") != block.code.rstrip():
                problems.append(f"{lang}/{path} block {block.index} (line {block.line}) includes={list(block.includes)}:\n"
                                f"  copied   {(got.get('text') or got.get('error'))[:300]!r}\n  executed {block.code.rstrip()[:300]!r}")
    assert not problems, "\n".join(problems)
    if which == "fixture_site":  # guard: includes, a section, an indented block were all copied
        assert included >= 9, plan
