"""The MkDocs plugin ``ruota_docs_site``: what surrounds the pages, in each language.

mkdocs-static-i18n builds the site once per language into one folder; two things of the
theme come out of that build once for all languages, and here once per language: the
404 page (notfound.py) and the search index (search.py).
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.plugins import BasePlugin, event_priority

from ruota_docs.site import notfound, search
from ruota_docs.site.site_languages import site_languages


class SitePlugin(BasePlugin):
    """The ``ruota_docs_site`` MkDocs plugin: the 404 page and the search index of each language."""

    def __init__(self) -> None:
        super().__init__()
        self.not_found = notfound.NotFoundPages()  # kept across the builds of the languages

    def on_config(self, config):
        self.languages = site_languages(config)
        return config

    def on_pre_template(self, template, template_name, config):
        if template_name == notfound.TEMPLATE:
            return self.not_found.prepare(template, config, self.languages)
        return template

    def on_post_template(self, output_content, template_name, config):
        if template_name == notfound.TEMPLATE:
            return self.not_found.place(output_content, config, self.languages)
        return output_content

    @event_priority(-150)  # after mkdocs-static-i18n (-100), whose last build merges every language's index
    def on_post_build(self, config):
        search.write_language_indexes(Path(config.site_dir), self.languages)
