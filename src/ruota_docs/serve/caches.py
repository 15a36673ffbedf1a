"""What the preview server keeps from one rebuild to the next, where MkDocs and its
extensions would work it out again: highlighted code, the list of the theme's files, and the
theme's compiled templates.

- Pygments' highlighting is a function of the code, the lexer and the formatter's options
  alone; the three languages show the same snippets, and a rebuild highlights again every
  block of the pages it renders. :func:`keep_highlighted_code` makes pymdownx.highlight
  call a memo of it (the serve process only: ``mkdocs build`` never installs it).
- Every MkDocs build lists the theme's folders (Material's holds some 14,000 files, its
  icons) to find its static files, in every language (its cost: benchmarks/RESULTS.md). In a partial rebuild nothing
  in them changed (a change of the theme rebuilds everything), so
  :func:`keep_theme_listing` lets the listing of the first partial rebuild serve the next.
- MkDocs makes a new Jinja environment for every build, Material's search plugin three more to
  read its translations, and mkdocs-static-i18n builds once per language: each of the theme's
  templates was parsed and compiled again in every rebuild. A template's compiled code depends
  only on its source and on how the environment parses (extensions, delimiters, whitespace and
  escaping options), so :func:`compile_once` keeps it in memory under exactly those: a changed
  template compiles again, and an environment set up differently never shares code with another.
  Rendering is untouched: the same code runs with each build's own globals, filters and
  translations. (A whole ``mkdocs build`` gains nothing from it, and does without it.)

These are speed tricks (`ruota_docs.blocks.speedups`): ``RUOTA_DOCS_NO_SPEEDUPS=serve_caches``
leaves pymdownx and the theme's listing as they are, ``template_cache`` the theme's environments;
benchmarks/RESULTS.md says what each buys.
"""

from __future__ import annotations

from collections import OrderedDict

import jinja2
from jinja2.bccache import Bucket

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


# -- the theme's templates, compiled once per process ---------------------------------------
def _parsing(environment: jinja2.Environment) -> tuple:
    """What, in an environment, the compiled code of a template depends on."""
    autoescape = environment.autoescape
    return (
        tuple(sorted(environment.extensions)),
        environment.block_start_string, environment.block_end_string,
        environment.variable_start_string, environment.variable_end_string,
        environment.comment_start_string, environment.comment_end_string,
        environment.line_statement_prefix, environment.line_comment_prefix,
        environment.trim_blocks, environment.lstrip_blocks,
        environment.newline_sequence, environment.keep_trailing_newline,
        getattr(autoescape, "__qualname__", autoescape), getattr(environment.finalize, "__qualname__", None),
        environment.optimized, environment.is_async,
    )


class MemoryBytecodeCache(jinja2.BytecodeCache):
    """Compiled templates in memory, per environment setup, template and source checksum."""

    def __init__(self) -> None:
        self._code: dict[str, tuple[str, object]] = {}

    def get_bucket(self, environment, name, filename, source) -> Bucket:
        key = f"{_parsing(environment)!r}:{self.get_cache_key(name, filename)}"
        bucket = Bucket(environment, key, self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket: Bucket) -> None:
        checksum, code = self._code.get(bucket.key, (None, None))
        if checksum == bucket.checksum:
            bucket.code = code

    def dump_bytecode(self, bucket: Bucket) -> None:
        if bucket.code is not None:
            self._code[bucket.key] = (bucket.checksum, bucket.code)

    def clear(self) -> None:
        self._code.clear()


#: One per process: it outlives the builds (and the plugin instances) of ``mkdocs serve``.
CACHE = MemoryBytecodeCache()


def compile_once(theme) -> None:
    """Give every Jinja environment ``theme`` (a loaded config's) makes from now on the cache
    (``RUOTA_DOCS_NO_SPEEDUPS=template_cache`` leaves MkDocs' environments as they are)."""
    get_env = theme.get_env
    if getattr(get_env, "ruota_docs_compiled_once", False) or not speedups.on("template_cache"):
        return

    def environment():
        env = get_env()
        env.bytecode_cache = CACHE
        return env

    environment.ruota_docs_compiled_once = True
    theme.get_env = environment
