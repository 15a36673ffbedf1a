"""The package's layers: one subpackage per stage of the data flow, and imports that go one way.

docs → blocks → runs → records → site; translations beside records; the live preview on top of
the site; the CLI over everything. Imports inside functions count as much as those at the top.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "ruota_docs"
STAGES = ("blocks", "run", "records", "site", "translations", "serve")
#: What each stage may import of the package besides itself.
ALLOWED = {
    "blocks": set(),
    "records": {"blocks"},
    "translations": {"blocks"},
    "run": {"blocks", "records"},
    "site": {"blocks", "records", "translations.staleness"},
    "serve": {"site", "blocks"},
}
#: Modules above every stage: they may import anything.
TOP = {"cli", "status", "__init__"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def imported(path: Path) -> list[tuple[int, str]]:
    """``(line, module)`` of every import of the package in a file, relative ones resolved."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".") if package else []
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            elif node.module and (node.module == "ruota_docs" or node.module.startswith("ruota_docs.")):
                target = node.module.removeprefix("ruota_docs").lstrip(".")
            else:
                continue
            for alias in node.names:  # `from ruota_docs.site import values` imports site.values
                found.append((node.lineno, f"{target}.{alias.name}".strip(".")))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name.removeprefix("ruota_docs.")) for a in node.names
                      if a.name.startswith("ruota_docs.")]
    return found


def allowed(stage: str, target: str) -> bool:
    if target.split(".")[0] == stage:
        return True
    return any(target == rule or target.startswith(rule + ".") for rule in ALLOWED[stage])


def violations() -> list[str]:
    problems = []
    for path in sorted(PACKAGE.rglob("*.py")):
        stage = module_name(path).split(".")[0]
        if stage in TOP:
            continue
        assert stage in STAGES, f"{path.relative_to(PACKAGE)} belongs to no stage: put it in one of {STAGES}"
        for line, target in imported(path):
            if target and target.split(".")[0] not in TOP | {"__version__"} and not allowed(stage, target):
                problems.append(f"{path.relative_to(PACKAGE)}:{line}: {stage} imports {target}")
            elif target.split(".")[0] in TOP - {"__init__"}:
                problems.append(f"{path.relative_to(PACKAGE)}:{line}: {stage} imports {target}, which is above it")
    return problems


def test_every_module_sits_in_a_stage():
    flat = [p.name for p in PACKAGE.glob("*.py") if p.stem not in TOP]
    assert not flat, f"modules outside the stages: {flat}"


def test_imports_follow_the_data_flow():
    assert violations() == []


@pytest.mark.parametrize(("stage", "target", "ok"), [
    ("blocks", "records.ledger", False), ("records", "blocks.block", True), ("records", "run.device", False),
    ("site", "translations.staleness", True), ("site", "translations.parity", False), ("site", "run.toolchain", False),
    ("serve", "site.plugin", True), ("serve", "run.pytest_plugin", False), ("run", "records.ledger", True),
])
def test_the_rule_itself(stage, target, ok):
    assert allowed(stage, target) is ok


def test_a_function_level_import_counts(tmp_path, monkeypatch):
    fake = tmp_path / "ruota_docs"
    (fake / "blocks").mkdir(parents=True)
    (fake / "blocks" / "x.py").write_text("def f():\n    from ruota_docs.site import values\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    assert imported(fake / "blocks" / "x.py") == [(2, "site.values")]
    assert violations() == ["blocks/x.py:2: blocks imports site.values"]
