"""What the preview server keeps from one rebuild to the next, where MkDocs and its
extensions would work it out again: highlighted code, and the list of the theme's files.

- Pygments' highlighting is a function of the code, the lexer and the formatter's options
  alone; the three languages show the same snippets, and a rebuild highlights again every
  block of the pages it renders. :func:`keep_highlighted_code` makes pymdownx.highlight
  call a memo of it (the serve process only: ``mkdocs build`` never installs it).
- Every MkDocs build lists the theme's folders (Material's holds some 14,000 files, its
  icons) to find its static files, in every language (its cost: benchmarks/RESULTS.md). In a partial rebuild nothing
  in them changed (a change of the theme rebuilds everything), so
  :func:`keep_theme_listing` lets the listing of the first partial rebuild serve the next.

Both are a speed trick (`ruota_docs.blocks.speedups`, ``serve_caches``):
``RUOTA_DOCS_NO_SPEEDUPS=serve_caches`` leaves pymdownx and the theme as they are.
"""

from __future__ import annotations

from collections import OrderedDict

from ruota_docs.blocks import speedups

_HIGHLIGHTED: OrderedDict[tuple, str] = OrderedDict()
_HIGHLIGHTED_MAX = 8192  #: about every block of the site, three times over
_LISTINGS: dict[tuple, list[str]] = {}


def _options(options: dict) -> str:
    return repr(sorted(options.items(), key=lambda item: item[0]))


def keep_highlighted_code() -> None:
    """Make pymdownx.highlight highlight each distinct block once per process."""
    from pymdownx import highlight as pymdownx_highlight  # noqa: PLC0415 — patched in the serve process only

    highlight = pymdownx_highlight.highlight
    if getattr(highlight, "ruota_docs_memo", False) or not speedups.on("serve_caches"):
        return

    def remembered(code, lexer, formatter, outfile=None):
        if outfile is not None or getattr(lexer, "filters", None):  # a filter's options are its own
            return highlight(code, lexer, formatter, outfile)
        key = (code, type(lexer), _options(lexer.options), type(formatter), _options(formatter.options))
        found = _HIGHLIGHTED.get(key)
        if found is None:
            found = _HIGHLIGHTED[key] = highlight(code, lexer, formatter)
            if len(_HIGHLIGHTED) > _HIGHLIGHTED_MAX:
                _HIGHLIGHTED.popitem(last=False)
        else:
            _HIGHLIGHTED.move_to_end(key)
        return found

    remembered.ruota_docs_memo = True
    pymdownx_highlight.highlight = remembered


def keep_theme_listing(theme) -> None:
    """Make the Jinja environments of ``theme`` (a loaded config's) list its folders' files
    once per process and per set of folders and static templates."""
    get_env = theme.get_env
    if getattr(get_env, "ruota_docs_memo", False) or not speedups.on("serve_caches"):
        return

    def environment():
        env = get_env()
        key = (tuple(dict.fromkeys(theme.dirs)), tuple(sorted(theme.static_templates)))
        list_templates = env.list_templates

        def listed(extensions=None, filter_func=None):
            if extensions is not None:
                return list_templates(extensions, filter_func)
            # MkDocs' filter is a function of the static templates (in the key) and its own code
            asked = (*key, getattr(filter_func, "__code__", filter_func))
            if asked not in _LISTINGS:
                _LISTINGS[asked] = list_templates(filter_func=filter_func)
            return list(_LISTINGS[asked])

        env.list_templates = listed
        return env

    environment.ruota_docs_memo = True
    theme.get_env = environment
