"""The versions of the rendering stack the block capture works with, checked at start-up.

The capture (:mod:`ruota_docs.blocks.capture`) overrides private hooks of
pymdownx.snippets and pymdownx.superfences and reads Python-Markdown's internals; MkDocs
renders the pages it captures. A release outside the ranges below was never tried: its
hooks may be gone or changed, and the capture would then miss blocks or includes
silently, and the build would fail far from the cause (a guide "no longer includes" a
file that it does include). So the MkDocs plugin and the pytest plugin call :func:`check`
before anything renders, and a version outside a range stops them with the package, the
version installed and the range supported.

pyproject.toml declares the same ranges (``tests/blocks/test_compat.py`` keeps them equal); each
upper bound is the next release not yet tried, since minor releases have changed these
hooks (pymdownx.snippets 13.1 moved file reading into ``read_lines``).
"""

from __future__ import annotations

import re
from importlib import metadata

#: Distribution name → the versions the capture is known to work with.
SUPPORTED = {
    "pymdown-extensions": ">=11.0.1,<13.2",
    "Markdown": ">=3.8.1,<3.12",
    "mkdocs": "==1.6.1",
}


class UnsupportedDependency(RuntimeError):
    """An installed package the capture cannot work with (its message says which and what to install)."""


def problems(supported: dict[str, str] | None = None, user: str = "ruota-docs' block capture") -> list[str]:
    """One sentence per package of ``supported`` (default `SUPPORTED`) that is missing or out of range
    (``user``: what supports the range)."""
    found = []
    for name, spec in (SUPPORTED if supported is None else supported).items():
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            found.append(f"{name} is not installed; ruota-docs needs {name}{spec}")
            continue
        if not fits(installed, spec):
            found.append(f"{name} {installed} is installed; {user} supports {name}{spec} "
                         f"(pip install '{name}{spec}')")
    return found


#: A final release (``13.1``, ``1.6.1``) and a clause of a range of them (``>=11.0.1``).
_RELEASE = re.compile(r"\d+(?:\.\d+)*")
_CLAUSE = re.compile(r"\s*(>=|<|==)\s*(\d+(?:\.\d+)*)\s*")
_COMPARE = {">=": lambda a, b: a >= b, "<": lambda a, b: a < b, "==": lambda a, b: a == b}


def fits(installed: str, spec: str) -> bool:
    """Whether version ``installed`` is in the range ``spec``, as `packaging` decides (pre-releases
    included). A final release against a range of final releases (every case but a development
    build) is compared here, release number to release number: importing `packaging` and
    compiling its patterns costs each run more than the rest of the check."""
    clauses = [_CLAUSE.fullmatch(part) for part in spec.split(",")]
    if _RELEASE.fullmatch(installed) and all(clauses):
        ours = _padded(installed, *(c[2] for c in clauses))
        return all(_COMPARE[c[1]](ours, _padded(c[2], installed)) for c in clauses)
    from packaging.specifiers import SpecifierSet  # noqa: PLC0415
    from packaging.version import InvalidVersion, Version  # noqa: PLC0415

    try:
        return Version(installed) in SpecifierSet(spec, prereleases=True)
    except InvalidVersion:
        return False


def _padded(version: str, *others: str) -> tuple[int, ...]:
    """The release numbers of ``version``, zeros added to the length of the longest of ``others`` (1.6 == 1.6.0)."""
    numbers = [int(n) for n in version.split(".")]
    width = max(len(o.split(".")) for o in (version, *others))
    return tuple(numbers + [0] * (width - len(numbers)))


def check(supported: dict[str, str] | None = None) -> None:
    """Raise `UnsupportedDependency` naming every package outside its supported range."""
    found = problems(supported)
    if found:
        raise UnsupportedDependency("; ".join(found))
