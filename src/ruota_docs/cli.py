"""The ``ruota-docs`` command.

    ruota-docs status [--strict]            what every machine's record says, per page
    ruota-docs i18n check                   translations that differ from their source; glossary variants
    ruota-docs i18n status                  translations whose source changed, with a diff
    ruota-docs i18n mark-synced PAGE…       record that a translation matches its source again
    ruota-docs verify [PYTEST ARGS…]        run the snippet suite on this machine, write its record
    ruota-docs contribute [--yes]           run the suite, check the record, prepare its pull request
    ruota-docs record check FILE… [--json]  validate records before they are accepted
    ruota-docs record migrate FILE…         write records again as the engine writes them (after a hand edit)
    ruota-docs runner [--grant]             who runs the pages when the suite runs as root
    ruota-docs toolchain [--targets A,B]    ROCm's software here: hipcc, the gfx targets it builds, rocminfo
    ruota-docs facts [--as-of DATE]         external claims by age; with --as-of, exit 1 naming the expired
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

from ruota_docs import __version__, status
from ruota_docs.blocks import fact_directive, terms
from ruota_docs.records import ledger, listing
from ruota_docs.records.schema import SCHEMA
from ruota_docs.run import toolchain
from ruota_docs.site import formatting
from ruota_docs.translations import glossary, parity, staleness
from ruota_docs.blocks import site_config
from ruota_docs.blocks.site_config import ConfigError


def _count(count: int, one: str, other: str) -> str:
    """``1 block`` / ``2 blocks``: English plurals for the command's own output."""
    return f"{count} {one if formatting.plural_form(count, 'en') == 'one' else other}"


def _root(path: str | None) -> Path:
    """The project directory: the first at or above ``path`` with a ``mkdocs.yml`` (or ``mkdocs.yaml``,
    as MkDocs and the pytest plugin accept)."""
    start = Path(path or os.getcwd()).resolve()
    found = site_config.site_above(start)
    if found is not None:
        return found
    raise SystemExit(f"ruota-docs: no mkdocs.yml in {start} or above; run inside the project or pass --root")


def _site(root: Path) -> tuple[Path, list[str], str, list[str], Path]:
    site = site_config.read(root)
    languages = list(site.languages)
    if not site_config.languages(root).folders:  # a site in one language
        languages = [site_config.languages(root).default]
    return site.docs_dir, languages, site.source_language, list(site.untranslated), site.record_dir


def _no_translations(root: Path) -> str | None:
    """Why the translation commands do not apply to this site, if they do not."""
    langs = site_config.languages(root)
    if langs.single:
        return (f"this site is written in one language ({langs.default}) and has no i18n plugin: "
                "there are no translations to check")
    if langs.suffixes:
        return ("this site names its translations page.<locale>.md (the i18n plugin's suffix layout): "
                "ruota-docs compares translations laid out in one folder per language (docs_structure: folder)")
    return None


def cmd_status(args) -> int:
    root = _root(args.root)
    docs, languages, _, _, record_dir = _site(root)
    try:
        report = status.compute(root, docs, languages, record_dir)
    except ledger.LedgerError as error:
        print(f"ruota-docs: {error}", file=sys.stderr)
        return 2
    shown = os.path.relpath(record_dir, root)
    print(f"machines: {', '.join(report.machines) or 'none (no record in ' + shown + '/)'}")
    for page in report.pages:
        _print_page_status(page)
    if report.gone:
        print(f"\nrecords of pages no longer in {docs.name}/ (ignored here and by the site):")
        for page, machine, count in report.gone:
            print(f"  {page}: {_count(count, 'block', 'blocks')} recorded by {machine}")
    found = _strict_failures(report) if args.strict else []
    if found:
        print("\n" + "; ".join(found), file=sys.stderr)
        return 1
    return 0


def _print_page_status(page) -> None:
    """One page of ``status``: each machine's counts, then what is unmeasured, stale or weak."""
    if page.error:
        print(f"{page.page}:{page.error[0]}: cannot read: {page.error[1]}")
        return
    print(f"\n{page.page} ({_count(page.blocks, 'block', 'blocks')})")
    for machine, c in page.per_machine.items():
        not_run = page.blocks - c["passed"] - c["failed"] - c["skipped"]  # stale, or nothing recorded
        print(f"  {machine}: {c['passed']} passed, {c['failed']} failed, {c['skipped']} skipped, {not_run} not run")
    for line, problem in page.unmeasured:
        print(f"  {page.page}:{line}: {problem}")
    if page.stale:
        print(f"  stale (no record of the current code): {_places(page.stale)}")
    if page.weak:
        print(f"  not verified anywhere or failing: {_places(page.weak)}")


def _places(found: list[int | str]) -> str:
    """``lines 3, 7`` of the page, then the ``file:line`` of blocks written in included Markdown files."""
    lines = [str(n) for n in found if isinstance(n, int)]
    return "; ".join(([f"lines {', '.join(lines)}"] if lines else []) + [str(n) for n in found if isinstance(n, str)])


def _strict_failures(report) -> list[str]:
    """What makes ``status --strict`` fail: weak blocks, unmeasured values, unreadable pages."""
    weak, missing, unreadable = report.weak, report.values_missing, report.unreadable
    found = []
    if weak:
        found.append(f"{_count(weak, 'block', 'blocks')} {'has' if weak == 1 else 'have'} no passing record "
                     "on any machine or failed last time")
    if missing:
        found.append(f"{_count(missing, 'value', 'values')} in the prose {'is' if missing == 1 else 'are'} "
                     "wrong or not measured on any machine")
    if unreadable:
        found.append(f"{_count(unreadable, 'page', 'pages')} cannot be read")
    return found


def cmd_i18n(args) -> int:
    root = _root(args.root)
    why_not = _no_translations(root)
    if why_not:
        print(f"ruota-docs i18n {args.action}: does not apply: {why_not}")
        return 0 if args.action != "mark-synced" else 2
    docs, languages, source, untranslated, _ = _site(root)
    if args.action == "check":
        return _i18n_check(root, docs, languages, source, untranslated)
    if args.action == "status":
        return _i18n_status(docs, languages, source, untranslated, show_diff=not args.no_diff)
    return _i18n_mark_synced(args.pages, docs, languages, source)


def _i18n_check(root, docs, languages, source, untranslated) -> int:
    """``i18n check``: every translation has the source's structure and the glossary's terms."""
    try:
        glossaries = glossary.for_site(root, languages)
    except glossary.GlossaryError as error:
        print(f"ruota-docs: {error}", file=sys.stderr)
        return 2
    problems = parity.check(docs, languages, source, untranslated, glossaries=glossaries)
    for problem in problems:
        print(f"docs/{problem}")
    if problems:
        print(f"{_count(len(problems), 'problem', 'problems')} "
              f"({_count(len(languages), 'language', 'languages')} checked: {', '.join(languages)})")
    else:
        print(f"translations match ({', '.join(languages)})")
    return 1 if problems else 0


def _i18n_status(docs, languages, source, untranslated, *, show_diff: bool) -> int:
    """``i18n status``: the pages not translated yet and the translations older than their source."""
    stale = missing = 0
    for lang in languages:
        if lang == source:
            continue
        missing += _print_missing(docs, lang, source, untranslated)
        for path in sorted((docs / lang).rglob("*.md")):
            state = staleness.translation_state(docs, path.relative_to(docs).as_posix(), source)
            if state is None or not state.stale:
                continue
            stale += 1
            when = state.source_changed.date().isoformat() if state.source_changed else "?"
            print(f"STALE docs/{state.page}: {state.source_page} changed on {when} "
                  f"(recorded {state.recorded or 'nothing'}, now {state.current})")
            if show_diff:
                print(staleness.source_diff(docs, state))
    found = [_count(n, one, many) for n, one, many in ((stale, "stale translation", "stale translations"),
                                                        (missing, "missing translation", "missing translations")) if n]
    print(", ".join(found) if found else "every translation is in sync with its source")
    return 1 if found else 0


def _print_missing(docs, lang, source, untranslated) -> int:
    """Print each source page with no translation into ``lang`` yet; return how many."""
    missing = 0
    for path in sorted((docs / source).rglob("*.md")):
        page = path.relative_to(docs / source).as_posix()
        if not (docs / lang / page).exists() and page not in untranslated:
            missing += 1
            print(f"MISSING docs/{lang}/{page}: no translation of docs/{source}/{page} yet "
                  "(the site shows the original)")
    return missing


def _i18n_mark_synced(pages, docs, languages, source) -> int:
    """``i18n mark-synced``: record that each named translation matches its source as it is now."""
    if not pages:
        print("ruota-docs i18n mark-synced: name one or more pages "
              "(fr/guides/x.md, or guides/x.md for all translations)", file=sys.stderr)
        return 2
    for page in pages:
        targets = _mark_synced_targets(page.removeprefix("docs/"), docs, languages, source)
        if targets is None:
            return 2
        for target in targets:
            if not (docs / target).exists():
                print(f"ruota-docs: docs/{target} does not exist", file=sys.stderr)
                return 2
            digest = staleness.mark_synced(docs, target, source)
            print(f"docs/{target}: translation_of {digest}")
    return 0


def _mark_synced_targets(page, docs, languages, source) -> list[str] | None:
    """The translations ``page`` names (one, or all of a source-relative path); ``None``, after
    saying why, when it names none."""
    first = page.split("/", 1)[0]
    if first == source:
        rest = page.split("/", 1)[1] if "/" in page else page
        names = ", ".join(f"{lang}/{rest}" for lang in languages if lang != source)
        print(f"ruota-docs: docs/{page} is the source page: name a translation ({names}), or {rest} for all of them",
              file=sys.stderr)
        return None
    if "/" in page and len(first) in (2, 3) and first not in languages and not (docs / source / page).exists():
        print(f"ruota-docs: {first!r} is not a language of this site ({', '.join(languages)})", file=sys.stderr)
        return None
    return [page] if first in languages else [f"{lang}/{page}" for lang in languages if lang != source]


def cmd_init(args) -> int:
    """Propose the site-wide policies that settle the blocks with no run policy; write them with --write."""
    from ruota_docs.blocks import adoption  # noqa: PLC0415 — only this command needs it

    root = _root(args.root)
    try:
        proposal = adoption.propose(root)
    except ConfigError as error:
        print(f"ruota-docs: {error}", file=sys.stderr)
        return 2
    settled = sum(proposal.counts.values())
    print(f"{_count(proposal.pages, 'page', 'pages')}: {_count(settled, 'block', 'blocks')} with no run policy "
          f"in {_count(len(proposal.policies), 'language', 'languages')}, "
          f"{_count(len(proposal.other), 'other problem', 'other problems')}")
    if proposal.policies:
        print("\nproposed, under '- ruota_docs:' in mkdocs.yml (show: readers see it, nothing runs; "
              "skip: not run, with the reason shown):\n")
        print(proposal.yaml(), end="")
    if proposal.other:
        print("\nno site-wide policy settles these: write a directive before each (see the authors' guide):")
        for line in proposal.other:
            print(f"  {line}")
    if args.write and proposal.policies:
        try:
            print("\n" + adoption.write(root, proposal))
        except ConfigError as error:
            print(f"ruota-docs: {error}", file=sys.stderr)
            return 2
    elif proposal.policies:
        print("\nnothing written: run ruota-docs init --write to add these policies to mkdocs.yml")
    return 0


def cmd_verify(args, extra: list[str]) -> int:
    """Run the docs suite here; the pytest plugin writes this machine's record."""
    root = _root(args.root)
    # pages or directories named here (from this directory) run instead of the whole docs directory
    paths = {i for i, a in enumerate(extra) if not a.startswith("-") and Path(a).exists()}
    named = [str(Path(a).resolve()) if i in paths else a for i, a in enumerate(extra)]
    docs = os.path.relpath(_site(root)[0], root)  # the site's docs_dir, whatever it is called
    command = [sys.executable, "-m", "pytest", *([] if paths else [docs]), "-p", "no:cacheprovider", *named]
    print("running:", " ".join(command), flush=True)
    return subprocess.call(command, cwd=root)


def cmd_serve(args, extra: list[str]) -> int:
    """The authors' live preview (``python -m ruota_docs.serve.server``), in the project's directory."""
    from ruota_docs.serve import server  # noqa: PLC0415 — MkDocs' modules, only for this command

    os.chdir(_root(args.root))
    return server.main(extra, prog="ruota-docs serve")


def cmd_toolchain(args) -> int:
    """What `requires: hipcc …` and `tool=` are checked against on this machine; exit 1 when a
    target given with --targets cannot be built."""
    wanted = []
    if args.targets:
        try:
            (term,) = terms.parse(f"hipcc arch={args.targets}")
        except terms.RequirementError as error:
            print(f"ruota-docs toolchain: --targets: {error}", file=sys.stderr)
            return 2
        wanted = list(term.values)
    found = toolchain.compiler(refresh=args.refresh)
    if found.path is None:
        print(f"hipcc: {found.error}")
    elif found.error:
        print(f"hipcc: {found.path} does not work: {found.error}")
    else:
        print(f"hipcc: {found.path} (HIP {found.version})")
        extra_targets = [t for t in wanted if t not in toolchain.KNOWN_TARGETS]
        results = toolchain.builds(list(toolchain.KNOWN_TARGETS) + extra_targets)
        ok = [t for t, b in results.items() if b.ok]
        print(f"builds for: {', '.join(ok) or 'none'}")
        for build in results.values():
            if not build.ok:
                print(f"  not {build.target}: {build.error}")
    for name in ("roc-obj-ls", "rocminfo", "rocm_agent_enumerator"):
        print(f"{name}: {toolchain.find_program(name) or 'not found on ' + toolchain.searched()}")
    answer = toolchain.rocminfo()
    if answer.returncode is not None:
        print(f"rocminfo says: {answer.first_line} (exit status {answer.returncode})")
    print(f"cache: {toolchain.cache_path()}")
    missing = [t for t in wanted if not (found.works and toolchain.builds([t])[t].ok)]
    if missing:
        print(f"cannot build for: {', '.join(missing)}", file=sys.stderr)
        return 1
    return 0


def cmd_record(args) -> int:
    """Validate records before they are accepted: schema, current code, machine, privacy, sizes, times."""
    if args.action == "migrate":
        return _migrate(args.files)
    if args.action == "verify-ci":
        return _verify_ci(args)
    root = _root(args.root)
    docs = _site(root)[0]
    if args.action == "describe":
        return _describe_records(root, docs, args.files)
    return _check_records(args, root, docs)


def _describe_records(root: Path, docs: Path, files: list[str]) -> int:
    """``record describe FILE…``: what each record says, as its pull request will."""
    from ruota_docs.run import contribute  # noqa: PLC0415 — only this action needs it

    status = 0
    for name in files:
        body, refused = contribute.describe_record(root, Path(name), docs)
        print(body)
        status = max(status, refused)
    return status


def _check_records(args, root: Path, docs: Path) -> int:
    """``record check``: the records named (files, directories, ``--from`` a list), each checked and reported."""
    from ruota_docs.records import check  # noqa: PLC0415 — only this command needs it

    # a directory stands for the records in it (`ruota_docs.records.listing`, as every tool reads them);
    # --from: names one per NUL byte (`git diff -z`), so that no name passes through a shell
    record_dir = _site(root)[4]
    names = list(args.files) + (listing.read_names(args.names_from) if args.names_from else [])
    if not names:
        print("record check: name the records (FILE…, a directory, or --from a list)", file=sys.stderr)
        return 2
    files, refused = listing.named(names, record_dir)
    if not files and not refused:
        print(f"record check: no records (*.json) in {', '.join(names)}", file=sys.stderr)
        return 2
    reports = check.check_files(files, root, docs, records_folder=record_dir)
    for path, why in refused:
        reports.append(check.Report(str(path)))
        reports[-1].add("record", "error", "listing", why)
    line, status = check.summary(reports, strict=args.strict)
    if args.json:
        print(json.dumps({"ok": status == 0, "summary": line, "records": [r.to_dict() for r in reports]}, indent=1))
        return status
    for report in reports:
        for problem in report.problems:
            print(problem)
        ran = f"; {check.plural(report.as_root, 'block')} ran as root" if report.as_root else ""
        print(f"{listing.shown(report.file)}: {check.plural(report.entries, 'entry', 'entries')}, "
              f"{report.stale:,} stale, "
              f"{check.plural(report.count('error'), 'error')}, "
              f"{check.plural(report.count('warning'), 'warning')}{ran}")
    print(line)
    return status


def _verify_ci(args) -> int:
    """``record verify-ci [FOLDER] --repo OWNER/REPO --out LIST`` (`ruota_docs.records.attestations.main`)."""
    from ruota_docs.records import attestations  # noqa: PLC0415 — only this action needs it

    folder = args.files[0] if args.files else str(_site(_root(args.root))[4])
    return attestations.main([folder, *(["--repo", args.repo] if args.repo else []),
                              *(["--out", args.out] if args.out else [])])


def _migrate(files: list[str]) -> int:
    """Write records again as the engine writes them: the same results, the tables keyed again."""
    status = 0
    for name in files:
        try:
            before, after = ledger.migrate(Path(name))
        except (OSError, ledger.RecordError) as error:
            print(f"ruota-docs: {name}: {getattr(error, 'strerror', None) or error}", file=sys.stderr)
            status = 1
            continue
        print(f"{name}: schema {SCHEMA}, {before:,} → {after:,} bytes ({after / before:.0%})")
    return status


def cmd_contribute(args, extra: list[str]) -> int:
    """Run the suite here, check the record and prepare the pull request that sends it."""
    from ruota_docs.run import contribute  # noqa: PLC0415 — only this command needs it
    from ruota_docs.run.device import probe  # noqa: PLC0415

    root = _root(args.root)

    def answer(question: str) -> str:
        # --yes starts the run; pushing is always asked (and never answered yes without a person)
        if args.yes and question.startswith("Go on?"):
            return "y"
        if sys.stdin.isatty():
            return input(question)
        print(f"{question}no: no terminal to ask in" + (" (--yes starts the run)" if question.startswith("Go on?")
                                                         else ""))
        return "n"

    return contribute.contribute(root, _site(root)[0], probe(), ask=answer, extra=extra)


def _print_sandbox(run, runner) -> None:
    """Whether the pages run in the sandbox here (`ruota_docs.run.sandbox`), and if not, why."""
    from ruota_docs.run import sandbox  # noqa: PLC0415

    user = (runner.uid, runner.gid, runner.groups) if runner else None
    try:
        isolation, why = sandbox.choose(run.isolation, user, runner is not None)
    except sandbox.SandboxError as error:
        print(f"ruota-docs: {error}")
        return
    if isolation == sandbox.SANDBOX:
        print("isolation: each page in bubblewrap's sandbox (its own PID and network namespaces, the repository "
              "read-only, an allow-listed environment, resource limits)")
    else:
        print(f"isolation: {isolation}, no sandbox" + (f" ({why})" if why else " (--isolation user)"))


def cmd_runner(args) -> int:
    """Who runs the pages' code here, and whether that user can reach what the pages need."""
    from ruota_docs.run import settings, unprivileged  # noqa: PLC0415 — POSIX only

    root = _root(args.root)
    run = settings.from_environment(root)
    if not unprivileged.switch_needed(run.run_as_root):
        who = "root, as --run-as-root asks" if run.run_as_root else "the user running the suite"
        _print_sandbox(run, None)
        print(f"pages run as {who}: no other user is involved (the suite switches users only when run as root)")
        return 0
    try:
        runner = unprivileged.ensure_user(run.run_as_user)
        notice = unprivileged.created_notice()
        if notice:
            print(notice)
        denied = unprivileged.unreachable(runner, unprivileged.needed_paths(root))
        if denied and args.grant:
            for command in unprivileged.grant(runner, denied):
                print("ran:", " ".join(command))
            denied = unprivileged.unreachable(runner, unprivileged.needed_paths(root))
        smoke = None if denied else unprivileged.smoke_test(runner)
    except unprivileged.RunnerError as error:
        print(f"ruota-docs: {error}", file=sys.stderr)
        return 2
    if denied or smoke:
        print(unprivileged.refusal(runner, denied, smoke), file=sys.stderr)
        return 1
    _print_sandbox(run, runner)
    print(f"pages run as {runner.describe()}, with HOME in each page's temporary directory; "
          "it can reach the interpreter, the virtualenv and the repository")
    return 0


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date written YYYY-MM-DD: {text!r}") from None


def cmd_facts(args) -> int:
    """Every ``<!-- fact: … -->`` of every page, oldest first; with ``--as-of``, the expired ones fail."""
    root = _root(args.root)
    try:
        site = site_config.read(root)
    except ConfigError as error:
        print(f"ruota-docs: {error}", file=sys.stderr)
        return 2
    today = dt.date.today()
    as_of = args.as_of or today
    max_age = args.max_age or site.fact_max_age
    if max_age < 1:
        print("ruota-docs: --max-age must be at least 1 day", file=sys.stderr)
        return 2
    found, problems = fact_directive.in_pages(site.docs_dir, today)
    docs = os.path.relpath(site.docs_dir, root)
    for page, line, message in problems:
        print(f"{docs}/{page}:{line}: error: {message}", file=sys.stderr)
    found.sort(key=lambda f: (f.fact.checked, f.page, f.line))
    expired = [f for f in found if f.fact.expired(as_of, max_age)]
    if args.json:
        print(json.dumps({"as_of": as_of.isoformat(), "max_age_days": max_age, "facts": [
            {"page": f"{docs}/{f.page}", "line": f.line, "checked": f.fact.checked.isoformat(),
             "age_days": f.fact.age(as_of), "expired": f in expired, "sources": list(f.fact.sources), "claim": f.claim}
            for f in found]}, indent=2, ensure_ascii=False))
    elif args.as_of is None or not expired:
        for f in found:
            mark = "  EXPIRED" if f in expired else ""
            print(f"{f.fact.age(as_of):5d} d  {f.fact.checked}  {docs}/{f.page}:{f.line}{mark}\n"
                  f"          {f.claim}\n          {' '.join(f.fact.sources)}")
    if args.as_of is not None and not args.json:
        for f in expired:
            print(f"{docs}/{f.page}:{f.line}: expired: checked {f.fact.checked}, {f.fact.age(as_of)} days before "
                  f"{as_of} (the site allows {max_age}): {' '.join(f.fact.sources)}")
    sources = len({f.fact.key for f in found})
    print(f"{_count(len(found), 'fact', 'facts')} ({_count(sources, 'distinct check', 'distinct checks')}) "
          f"in {docs}/ as of {as_of}; {len(expired)} older than {max_age} days"
          + (f"; {_count(len(problems), 'directive', 'directives')} that cannot be read" if problems else ""),
          file=sys.stderr if args.json else sys.stdout)
    if problems:
        return 2
    return 1 if args.as_of is not None and expired else 0


def main(argv: list[str] | None = None) -> int:
    """The ``ruota-docs`` command: its exit status for ``argv`` (default: the process's arguments)."""
    parser = argparse.ArgumentParser(prog="ruota-docs",
                                     description="Verified documentation: records, translations and runs.")
    parser.add_argument("--version", action="version", version=f"ruota-docs {__version__}")
    parser.add_argument("--root", help="project directory (default: the one holding mkdocs.yml, from here upwards)")
    sub = parser.add_subparsers(dest="command", required=True)
    status = sub.add_parser("status", help="per page: which machines passed, failed, skipped; stale blocks")
    status.add_argument("--strict", action="store_true",
                        help="exit 1 if a block has no passing record or failed last, a value in the prose is not "
                             "measured on any machine, or a page cannot be read")
    tr = sub.add_parser("i18n", help="translation checks: parity with the source, staleness, the glossaries")
    tr.add_argument("action", choices=["check", "status", "mark-synced"],
                    help="check: every translation matches its source (blocks, links, numbers, glossary); "
                         "status: translations missing, or stale since their source changed, with the diff; "
                         "mark-synced: record that a translation matches its source as it is now")
    tr.add_argument("pages", nargs="*", help="for mark-synced: fr/guides/x.md, or guides/x.md for every translation")
    tr.add_argument("--no-diff", action="store_true", help="status: list stale pages without the source diff")
    sub.add_parser("verify", help="run every page's code blocks here and record the results (extra args go to pytest)",
                   usage="ruota-docs verify [PAGE or DIRECTORY ...] [pytest options]",
                   description="Runs pytest from the project directory on docs/, or on the pages and directories "
                               "named, and writes this machine's record "
                               "(verification/<machine-class>-<fingerprint>.json). "
                               "Every other argument goes to pytest: -n 2 --dist loadscope (two workers), --no-record, "
                               "--reuse-record, --update-outputs, --network, --block-timeout S (pytest --help lists "
                               "them all).")
    contribute = sub.add_parser("contribute", help="for a card's owner: run the suite here, check the record, prepare "
                                                   "the branch and the pull request that send it",
                                usage="ruota-docs contribute [--yes] [pytest options]",
                                description="Probes this machine and says what it will do; runs every page's code "
                                            "blocks (an interrupted run resumes); checks the record as the "
                                            "maintainers will; commits only the record on a branch of its own (the "
                                            "work tree stays as it is) and prints the git push and gh pr create "
                                            "commands. Works offline up to the push, and pushes nothing without a "
                                            "yes.")
    contribute.add_argument("--yes", action="store_true", help="answer yes to starting (the push is still asked for)")
    sub.add_parser("serve", add_help=False,  # its own options and --help: ruota_docs.serve.server's
                   help="live preview for authors: a save rebuilds the pages it shows on (ruota-docs serve --help)")
    record = sub.add_parser("record", help="check verification records before they are accepted",
                            description="Checks each record: its schema; that each entry's page and block exist with "
                                        "the same code (else stale: never shown as verified); a coherent machine; "
                                        "nothing personal or secret; outputs within the size limit; no time in the "
                                        "future. One line per problem (FILE: WHERE: error|warning: reason), then a "
                                        "summary; exit 1 on any error.")
    record.add_argument("action", choices=["check", "migrate", "describe", "verify-ci"],
                        help="check: validate; migrate: write a record again as the engine writes it (its "
                             "outputs' and reasons' keys computed again, after a hand edit); "
                             "describe: the pull request's body for a record (with its check); verify-ci: "
                             "`gh attestation verify` each ci record (signer: the records workflow) and write "
                             "the list of verified ones (--out) that the site's build reads")
    record.add_argument("--repo", metavar="OWNER/REPO", help="verify-ci: the repository whose records workflow signs")
    record.add_argument("--out", metavar="LIST", help="verify-ci: where to write the list of verified records")
    record.add_argument("--from", dest="names_from", metavar="LIST",
                        help="also the records named in the file LIST, one per NUL byte as `git diff -z --name-only` "
                             "writes them ('-': standard input): names pass through no shell")
    record.add_argument("files", nargs="*", metavar="FILE",
                        help="records to check (verification/<machine-class>-<fingerprint>.json)")
    record.add_argument("--json", action="store_true", help="print the report as JSON")
    record.add_argument("--strict", action="store_true", help="warnings (stale entries, unknown GPUs) count as errors")
    runner = sub.add_parser("runner", help="who runs the pages' code when the suite runs as root, and whether it can",
                            description="When the suite runs as root, each page's code runs as the unprivileged user "
                                        "ruota-docs-runner (created when missing, in the render and video groups). "
                                        "This checks that it can reach the interpreter, the virtualenv and the "
                                        "repository.")
    runner.add_argument("--grant", action="store_true",
                        help="let it in where it cannot: an ACL entry for it (setfacl), "
                             "else o+x on the directories in the way")
    init = sub.add_parser("init", help="adopting the engine: propose site-wide policies for the blocks with no run "
                                       "policy (written to mkdocs.yml only with --write)")
    init.add_argument("--write", action="store_true", help="add the proposed policies to mkdocs.yml")
    tools = sub.add_parser("toolchain",
                           help="ROCm's software on this machine: hipcc, the gfx targets it builds for, rocminfo")
    tools.add_argument("--targets", metavar="A,B", help="also try these gfx targets; exit 1 if one cannot be built")
    tools.add_argument("--refresh", action="store_true", help="ignore the cache and probe hipcc again")
    facts = sub.add_parser("facts", help="external claims (<!-- fact: checked=… source=… -->) by age; with --as-of, "
                                         "exit 1 naming each one older than the site allows",
                           description="Lists every fact directive of every page, oldest first: its age in days, "
                                       "the day it was checked, where it is written, the claim and its source. With "
                                       "--as-of DATE, exits 1 and names each fact older than the ruota_docs plugin's "
                                       f"fact_max_age (default {site_config.DEFAULT_FACT_MAX_AGE} days) on that date. "
                                       "A directive that cannot be read, or is dated in the future, is an error "
                                       "(exit 2).")
    facts.add_argument("--as-of", type=_date, metavar="YYYY-MM-DD",
                       help="judge the ages on this date and exit 1 if any fact has expired (CI passes today)")
    facts.add_argument("--max-age", type=int, metavar="DAYS", help="instead of the plugin's fact_max_age")
    facts.add_argument("--json", action="store_true", help="print the list as JSON (the summary goes to stderr)")
    args, extra = parser.parse_known_args(argv)
    if args.command == "verify":
        return cmd_verify(args, extra)
    if args.command == "serve":
        return cmd_serve(args, extra)
    if args.command == "contribute":
        return cmd_contribute(args, extra)
    if args.command == "record" and not [e for e in extra if e.startswith("-")]:
        args.files, extra = args.files + extra, []  # FILE… after an option (argparse leaves them over)
    if extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    commands = {"status": cmd_status, "i18n": cmd_i18n, "init": cmd_init, "toolchain": cmd_toolchain,
                "record": cmd_record, "runner": cmd_runner, "facts": cmd_facts}
    return commands[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
