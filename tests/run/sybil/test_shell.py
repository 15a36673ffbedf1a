"""run.sybil.shell: shell blocks run with bash (console blocks: their commands only); Windows blocks
are skipped elsewhere, naming this machine's system."""

from __future__ import annotations

import platform

from _support import evaluate_page, write_tree
from ruota_docs.blocks.block import Block
from ruota_docs.run.sybil.shell import shell_script

PAGE = """\
# P

<!-- run: safe -->
```console
$ echo one
one
$ echo two
```

<!-- run: safe -->
```bash
false
echo never
```

<!-- run: safe -->
```powershell
Write-Output 1
```
"""


def test_a_console_block_runs_the_lines_after_its_prompts():
    block = Block(page="es/p.md", lang="es", line=1, fence_language="console", kind="shell", code="$ ls\nout\n$ pwd")
    assert shell_script(block) == "ls\npwd"
    block.fence_language = "bash"
    assert shell_script(block) == block.code


def test_shell_blocks_run_and_stop_at_the_first_failing_command(reader_tmp):
    root = write_tree(reader_tmp, {"docs/es/p.md": PAGE}, conftest=False)
    (console, ok), (bash, failed), (windows, skipped) = evaluate_page(root, "es/p.md")
    assert ok is None and console.outcome.output == "one\ntwo\n"
    assert failed.startswith("SybilFailure") and "never" not in bash.outcome.output
    if platform.system() != "Windows":
        assert skipped.startswith("SkipTest") and windows.outcome.reason.startswith("requires Windows; this machine: ")
