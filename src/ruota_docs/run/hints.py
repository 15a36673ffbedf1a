"""What to write when a block failed for something the machine lacks, not for its code.

A block that imports a module this machine does not have, or reaches for the network the
run does not allow, fails as any error would; the failure then names the requirement
directive that says so, under which the block is skipped, with its reason, where the
module or the network is missing (:mod:`ruota_docs.blocks.terms`).
"""

from __future__ import annotations

import re

_MODULE = re.compile(r"ModuleNotFoundError: No module named '(?P<name>[\w.]+)'")
#: What a failed name lookup or an unreachable network says, in Python and in common clients.
_NETWORK = re.compile(r"Temporary failure in name resolution|Name or service not known|Network is unreachable"
                      r"|nodename nor servname|getaddrinfo failed|ConnectError|ConnectionError|URLError")


def requirement_hint(error: str | None) -> str | None:
    """One line naming the ``requires:`` directive for this failure, or None."""
    if not error:
        return None
    found = _MODULE.search(error)
    if found:
        top = found["name"].split(".", 1)[0]
        return (f"hint: this machine has no module {top!r}; if the page needs it, say so before the block: "
                f"<!-- requires: import={top} --> (skipped, with that reason, where it is missing)")
    if _NETWORK.search(error):
        return ("hint: the block reached for the network, which this run does not allow; if it needs it, say so: "
                "<!-- requires: network --> (runs with pytest --network)")
    return None
