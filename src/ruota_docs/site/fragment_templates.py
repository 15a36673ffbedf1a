"""The Jinja templates of the HTML fragments the plugin puts into pages.

They ship in the package (``site/templates/ruota/*.html``); a site overrides any of them
by putting a file of the same name in its theme's ``custom_dir`` (``overrides/ruota/badges.html``),
as Material's own templates are overridden. The plugin points this module at the theme's
folders when a build starts (``use_theme``); without a theme (tests, the live preview's
rebuild plan) the package's templates are used.

Two rules make the templates readable and the pages unchanged:

- a line break and the indentation after it are dropped from a template's source, so a
  template may be written on many lines while the page gets the fragment on one line
  (a space that the page needs is written inside a line);
- every ``{{ value }}`` is escaped as ``html.escape`` escapes it, unless the value is
  already HTML (``Markup``: icons, charts, other fragments, or ``|safe``).
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import jinja2
from jinja2.ext import Extension
from markupsafe import Markup

#: The package's templates: the names below it (``ruota/…``) are the names a site overrides.
PACKAGE_TEMPLATES = Path(__file__).resolve().parent / "templates"


class OneLine(Extension):
    """Drops each line break of a template's source with the indentation that follows it."""

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        return re.sub(r"\n[ \t]*", "", source)


def _escaped(value) -> Markup:
    # html.escape, not markupsafe's escape: the two spell quotes differently (&#x27; and
    # &#39;), and the pages keep the bytes they had when the fragments were written in Python
    return value if isinstance(value, Markup) else Markup(html.escape(str(value)))


def _environment(folders: list[Path]) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(f) for f in folders]),
        autoescape=True,
        finalize=_escaped,
        extensions=[OneLine],
        undefined=jinja2.StrictUndefined,
        auto_reload=False,
    )


_env = _environment([PACKAGE_TEMPLATES])
_globals: dict = {}
#: What `render_kept` rendered with the templates and globals in use: ``(name, context) → HTML``.
_kept: dict[tuple, str] = {}


def use_theme(theme) -> None:
    """Look for ``ruota/<name>.html`` in ``theme``'s folders (its ``custom_dir`` first) before
    the package's own; called by the plugin at the start of every build."""
    global _env
    folders = [Path(d) for d in getattr(theme, "dirs", [])]
    _env = _environment([*folders, PACKAGE_TEMPLATES])
    _env.globals.update(_globals)
    _kept.clear()


def add_globals(**functions) -> None:
    """Functions every template may call (the reader's strings, icons)."""
    _globals.update(functions)
    _env.globals.update(functions)
    _kept.clear()


def render(name: str, **context) -> str:
    """The fragment ``ruota/<name>.html`` for ``context``: HTML, as a plain string (a fragment
    put into another one is passed to it as ``Markup``)."""
    try:
        template = _env.get_template(f"ruota/{name}.html")
    except jinja2.TemplateNotFound:
        raise LookupError(f"no template ruota/{name}.html in {', '.join(map(str, _env.loader.searchpath))}") from None
    return template.render(**context)


def render_kept(name: str, **context) -> str:
    """`render`, kept for the next call with the same context (its values hashable): a fragment a
    page shows many times over (an icon, a count in a table) is rendered once per build."""
    key = (name, *sorted(context.items()))
    found = _kept.get(key)
    if found is None:
        found = _kept[key] = render(name, **context)
    return found
