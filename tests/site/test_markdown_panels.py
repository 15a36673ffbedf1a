"""site.markdown_panels: the block panels from a plain Python-Markdown conversion, no MkDocs build."""

from __future__ import annotations


import markdown

from _support import RX7600, panels, record_of, synthetic_record, words, write_tree
from ruota_docs.site import markdown_panels

PAGE = "# Inicio { #inicio }\n\n```python\nprint('hola')\n```\n\n```python\nprint('otro')\n```\n"


def convert(root, page: str = "es/index.md", **options) -> str:
    text = (root / "docs" / page).read_text(encoding="utf-8")
    md = markdown.Markdown(extensions=["pymdownx.superfences", "ruota_docs.site.markdown_panels"],
                           extension_configs={"ruota_docs.site.markdown_panels": {"root": str(root), "page": page,
                                                                                  **options}})
    return md.convert(text)


def test_each_block_gets_the_panel_its_record_gives(tmp_path):
    root = write_tree(tmp_path / "site", {"docs/es/index.md": PAGE})
    data = synthetic_record(root, RX7600)
    del data["blocks"]["es/index.md#1"]  # the second block has no run yet
    (root / "verification").mkdir()
    (root / "verification" / "rocm-gfx1102.json").write_text(record_of(data).to_json(), encoding="utf-8")
    html = convert(root)
    found = [words(p) for p in panels(html)]
    assert len(found) == 2 and "data-ruota" not in html
    assert "AMD Radeon RX 7600" in found[0] and "ran on AMD Radeon RX 7600" in found[0]
    assert "AMD Radeon RX 7600" not in found[1]
    assert html.index("print") < html.index("ruota-verify")  # under the code
    english = [words(p) for p in panels(convert(root, lang="en"))]
    assert "Verified" in english[0] or "verified" in english[0]


def test_a_record_the_site_would_refuse_leaves_the_block_unmarked(tmp_path):
    root = write_tree(tmp_path / "site", {"docs/es/index.md": PAGE})
    data = synthetic_record(root, RX7600)
    data["blocks"]["es/index.md#0"]["output"] = "logged in as alice@workstation-42\n"
    (root / "verification").mkdir()
    (root / "verification" / "rocm-gfx1102.json").write_text(record_of(data).to_json(), encoding="utf-8")
    html = convert(root)
    assert "alice@workstation-42" not in html and len(panels(html)) == 2
    assert markdown_panels.STYLESHEET.is_file()


def test_under_zensical_the_page_and_root_come_from_its_rendering_context(tmp_path):
    """Zensical names the extension with no options and registers, before it, a preprocessor
    ``rendering_context`` holding the page (its path under the docs directory) and the site's settings."""
    from markdown.extensions import Extension
    from markdown.preprocessors import Preprocessor

    root = write_tree(tmp_path / "site", {"docs/es/index.md": PAGE})
    data = synthetic_record(root, RX7600)
    (root / "verification").mkdir()
    (root / "verification" / "rocm-gfx1102.json").write_text(record_of(data).to_json(), encoding="utf-8")

    class Context(Preprocessor):
        def __init__(self, md):
            super().__init__(md)
            self.page = type("Page", (), {"path": "es/index.md"})()
            self.config = {"root_dir": str(root)}

        def run(self, lines):
            return lines

    class ContextExtension(Extension):
        def extendMarkdown(self, md):  # noqa: N802 — Python-Markdown's name
            md.preprocessors.register(Context(md), "rendering_context", 0)

    md = markdown.Markdown(extensions=[ContextExtension(), "pymdownx.superfences", "ruota_docs.site.markdown_panels"])
    found = [words(p) for p in panels(md.convert(PAGE))]
    assert len(found) == 2 and all("AMD Radeon RX 7600" in text for text in found)
