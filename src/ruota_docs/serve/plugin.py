"""The ``ruota_docs`` MkDocs plugin as mkdocs.yml names it: the site's plugin, and under
``mkdocs serve`` the preview's partial rebuild.

:class:`ruota_docs.site.plugin.RuotaDocsPlugin` does everything a build does; this class
adds MkDocs' ``on_serve`` event. MkDocs' own server rebuilds the whole site after every
change (static-i18n: every language); here the server is given the preview's builder
(:class:`ruota_docs.serve.server.Builder`), which rebuilds only the pages a change shows
on, watching the same paths. The class lives in ``serve`` because the site may not import
the preview (the preview imports the site); the entry point names it, and ``mkdocs build``
imports nothing of the preview beyond this module.
"""

from __future__ import annotations

from mkdocs.config import load_config

from ruota_docs.site.plugin import RuotaDocsPlugin

#: The options a ``mkdocs serve`` command line can set; a rebuild loads the configuration with them again.
_COMMAND_LINE_OPTIONS = ("dev_addr", "strict", "use_directory_urls", "watch")


class LivePreviewPlugin(RuotaDocsPlugin):
    """The ``ruota_docs`` MkDocs plugin: each block's verification under it, the site's
    generated pages, and under ``mkdocs serve`` the partial rebuild of what a change shows on."""

    def on_startup(self, command, dirty):
        """Whether this process serves the site: its first build records what a partial
        rebuild needs (each page's title). MkDocs keeps a plugin that has this event for
        every configuration it loads in the process."""
        self.serving = command == "serve" and not dirty

    def on_config(self, config):
        config = super().on_config(config)
        serving = getattr(self, "serving", False) and self.config.partial_rebuild
        if serving and "ruota_docs_titles" not in config.plugins:
            from ruota_docs.serve import caches, partial_build  # noqa: PLC0415 — the preview only

            caches.keep_highlighted_code()
            caches.compile_once(config.theme)
            partial_build.record_titles(config)
        return config

    def on_serve(self, server, config, builder):
        """Give MkDocs' server the preview's builder, which takes the build MkDocs has just made as its first
        (``mkdocs serve --dirty`` keeps MkDocs' own rebuilds, as ``partial_rebuild: false`` does)."""
        serving, self.serving = getattr(self, "serving", False), False  # the builder records titles itself
        if not (serving and self.config.partial_rebuild):
            return server
        from ruota_docs.serve.server import Builder  # noqa: PLC0415 — the preview only

        preview = Builder(_reloader(config), config.site_url)
        preview.adopt(config)
        for path in preview.watched(config):
            server.watch(str(path))
        server.builder = preview
        return server

    def on_shutdown(self):
        self.serving = False


def _reloader(config):
    """What loads the configuration again as ``mkdocs serve`` does before each rebuild: the
    same file, site directory and command-line options, served at the same address."""
    options = {"site_dir": config.site_dir} | {name: config[name] for name in _COMMAND_LINE_OPTIONS}
    options["dev_addr"] = f"{config.dev_addr.host}:{config.dev_addr.port}"
    options["watch"] = list(config.watch)
    serve_url = config.site_url

    def load():
        loaded = load_config(config_file=config.config_file_path, **options)
        loaded.site_url = serve_url
        return loaded

    return load
