"""The snippet engine: Sybil parsers and evaluators over the blocks the site renders.

The pytest plugin builds the Sybil of each site a run names with :func:`make_sybil` (a project's
``conftest.py`` may too: ``pytest_collect_file = make_sybil(".").pytest()``). This
package's own import stays empty: every page's process starts as
``python -m ruota_docs.run.process.worker`` and should load nothing it does not need.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["make_sybil"]


def make_sybil(root: str | Path, docs_dir: str | Path | None = None, patterns=("*.md",)):
    """The Sybil that collects every page under the docs directory, each block with the evaluator of its kind."""
    from ruota_docs.run.sybil.compat import PageSybil, check_sybil  # noqa: PLC0415 — see the module docstring
    from ruota_docs.run.sybil.data import DataEvaluator  # noqa: PLC0415
    from ruota_docs.run.sybil.evaluators import RUN_FIXTURE, BlockEvaluator, teardown_page  # noqa: PLC0415
    from ruota_docs.run.sybil.parsers import BlockParser, PageDocument, PageLayout, identify  # noqa: PLC0415
    from ruota_docs.run.sybil.python import DoctestEvaluator, PythonEvaluator  # noqa: PLC0415
    from ruota_docs.run.sybil.shell import ShellEvaluator, WindowsEvaluator  # noqa: PLC0415

    check_sybil()  # a Sybil release the engine's test names were not tried with stops here, naming the range
    layout = PageLayout(Path(root), Path(docs_dir) if docs_dir else None)
    evaluators = {
        "python": PythonEvaluator(layout.root),
        "doctest": DoctestEvaluator(layout.root),
        "shell": ShellEvaluator(layout.root),
        "windows": WindowsEvaluator(layout.root),
        "data": DataEvaluator(layout.root),
    }
    # text, indented and invalid blocks never run: the checks every kind shares decide for them
    return PageSybil(
        parsers=[BlockParser(layout, evaluators, default=BlockEvaluator(layout.root))],
        path=str(layout.docs_dir.absolute()),  # absolute: Sybil resolves a relative one from its caller's file
        patterns=list(patterns),
        document_types={".md": PageDocument},
        encoding=PageDocument.ENCODING,
        teardown=teardown_page,
        fixtures=[RUN_FIXTURE],  # the run's settings and state, from the pytest plugin
        name="ruota",
        identify=identify,
        root=layout.root,
    )
