"""What a code block's language means to the engine, resolved as the site highlights it.

A fence's language is resolved as ``pymdownx.highlight`` resolves it: first through the
site's ``extend_pygments_lang`` (``pycon3`` → ``pycon``), then by Pygments' aliases. The
lexer Pygments picks decides the policy:

| Pygments lexer | kind | what the engine does |
| --- | --- | --- |
| Python (``python``, ``py``, ``py3``, ``python3``, ``pyi``) | python | run in the page's process (``>>>``: a doctest) |
| Python console (``pycon``, ``python-console``) | doctest | run as a doctest; output checked |
| Bash, Bash session (``bash``, ``sh``, ``shell``, ``zsh``, ``console``…) | shell | run with bash if ``run: safe`` |
| PowerShell, Batch, DOS session | windows | Windows only |
| YAML, JSON, TOML | data | parsed; must be valid (MkDocs' YAML tags accepted) |
| Text, Output, Markdown; ``txt``, ``plaintext``, ``log``, ``mermaid`` | text | shown, not code: not run |
| anything else, or no language | invalid | fails unless ``run: skip reason="…"`` explains it |

``sage``, ``bazel`` and ``starlark`` borrow Pygments' Python highlighter but are other
languages: they are not run as Python.
"""

from __future__ import annotations

import functools

_KINDS = {
    "PythonLexer": "python",
    "PythonConsoleLexer": "doctest",
    "BashLexer": "shell",
    "BashSessionLexer": "shell",
    "PowerShellLexer": "windows",
    "PowerShellSessionLexer": "windows",
    "BatchLexer": "windows",
    "MSDOSSessionLexer": "windows",
    "YamlLexer": "data",
    "JsonLexer": "data",
    "TOMLLexer": "data",
    "TextLexer": "text",
    "OutputLexer": "text",
    "MarkdownLexer": "text",
}
#: Names Pygments does not know that are plainly not code, or Windows shells.
_NAMES = {"txt": "text", "plaintext": "text", "plain": "text", "log": "text", "mermaid": "text", "cmd": "windows"}
#: Other languages that Pygments highlights with its Python lexer.
_NOT_PYTHON = frozenset({"sage", "bazel", "starlark"})
#: The data format each data lexer parses as.
_DATA_FORMATS = {"YamlLexer": "yaml", "JsonLexer": "json", "TOMLLexer": "toml"}


@functools.lru_cache(maxsize=512)
def _lexer_name(name: str) -> str | None:
    """The class name of the lexer Pygments picks for ``name``, as ``get_lexer_by_name`` picks
    it: its built-in table first (read without importing any lexer), then plugin lexers."""
    from pygments.lexers import find_plugin_lexers  # noqa: PLC0415 — imported by the highlighter anyway
    from pygments.lexers._mapping import LEXERS  # noqa: PLC0415 — as above

    for class_name, (_module, _title, aliases, _files, _mimes) in LEXERS.items():
        if name in aliases:
            return class_name
    return next((cls.__name__ for cls in find_plugin_lexers() if name in cls.aliases), None)


def resolve(language: str | None, extended: dict | None = None) -> tuple[str, str | None]:
    """``(kind, data format)`` for a fence's language as written (see the module's table).

    ``extended`` is the site's ``extend_pygments_lang`` as pymdownx.highlight keeps it
    (``{name: [lang, options]}``).
    """
    name = (language or "").strip().lower()
    if not name:
        return "invalid", None
    if extended and name in extended:
        name = str(extended[name][0] or "").lower() or name
    if name in _NAMES:
        return _NAMES[name], None
    lexer = _lexer_name(name)
    if lexer is None or (lexer == "PythonLexer" and name in _NOT_PYTHON):
        return "invalid", None
    kind = _KINDS.get(lexer, "invalid")
    return kind, _DATA_FORMATS.get(lexer)
