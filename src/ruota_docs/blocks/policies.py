"""Site-wide run policies per fence language, from the ``ruota_docs`` plugin's options.

A site adopting the engine has hundreds of blocks in languages with no run policy of their
own (``html``, ``console``, ``diff``…). Instead of a directive before each, mkdocs.yml says
once what every block of a language is::

    plugins:
      - ruota_docs:
          policies:
            console: show            # shown to readers, never run (like an output)
            html: show
            bash: run                # run with bash, as if each were marked <!-- run: safe -->
            powershell: skip "Windows only"   # not run, with the reason readers see

The language is matched as written after the fence, case aside; ``''`` is the policy of the
blocks written with no language (``'': show``). A directive before a block (``run: safe``,
``run: skip reason="…"``) still wins for that block.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from ruota_docs.blocks import site_config


@dataclass(frozen=True)
class Policy:
    action: str  #: show, run or skip
    reason: str = ""  #: for skip: what readers see


_SKIP = re.compile(r"""^skip\s+(?P<q>["'])(?P<reason>.+)(?P=q)\s*$""")


def parse(mapping, where: str) -> dict[str, Policy]:
    """The policies of a ``policies:`` mapping; ``ConfigError`` naming ``where`` for a bad one."""
    try:
        return policies_of(mapping)
    except ValueError as error:
        raise site_config.ConfigError(f"{where}: ruota_docs: policies: {error}") from None


def policies_of(mapping) -> dict[str, Policy]:
    """The policies of a ``policies:`` mapping; ``ValueError`` saying what is wrong with a bad one (the
    plugin's option checks it so: `ruota_docs.blocks.plugin_config`)."""
    if mapping in (None, {}):
        return {}
    if not isinstance(mapping, dict):
        raise ValueError(f"must map fence languages to show, run or skip \"reason\", not {mapping!r}")
    found = {}
    for language, value in mapping.items():
        text = str(value).strip()
        skip = _SKIP.match(text)
        if text in ("show", "run"):
            found[str(language).lower()] = Policy(text)
        elif skip:
            found[str(language).lower()] = Policy("skip", skip["reason"].strip())
        else:
            raise ValueError(f"{language}: {value!r} is not a policy; write show, run or skip \"reason readers see\"")
    return found


def read(root: Path) -> dict[str, Policy]:
    """The site's policies (cached per mkdocs.yml and change); raises ``ConfigError``."""
    path = site_config.config_path(Path(root)).resolve()
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return {}
    return _read(str(path), stamp)


@functools.lru_cache(maxsize=8)
def _read(path: str, _stamp: int) -> dict[str, Policy]:
    return parse(site_config.read(Path(path)).options["policies"], path)
