"""The theme's Jinja templates, compiled once per process.

MkDocs makes a new Jinja environment for every build, Material's search plugin three more
to read its translations, and mkdocs-static-i18n builds the site once per language: each
of the theme's templates was parsed and compiled three times per ``mkdocs build`` (about
70 templates, 212 compilations), and again on every rebuild of ``mkdocs serve``. A
template's compiled code depends only on its source and on how the environment parses
(extensions, delimiters, whitespace and escaping options), so it is kept here, in memory,
under exactly those: a changed template compiles again, and an environment set up
differently never shares code with another. Rendering is untouched: the same code runs
with each build's own globals, filters and translations.
"""

from __future__ import annotations

import jinja2
from jinja2.bccache import Bucket

from ruota_docs.blocks import speedups


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
    (a speed trick, `ruota_docs.blocks.speedups`: ``RUOTA_DOCS_NO_SPEEDUPS=template_cache`` leaves
    MkDocs' environments as they are)."""
    get_env = theme.get_env
    if getattr(get_env, "ruota_docs_compiled_once", False) or not speedups.on("template_cache"):
        return

    def environment():
        env = get_env()
        env.bytecode_cache = CACHE
        return env

    environment.ruota_docs_compiled_once = True
    theme.get_env = environment
