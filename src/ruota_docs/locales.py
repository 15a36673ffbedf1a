"""Strings the plugin writes into pages, in each language of the site.

A string is a ``str.format`` template, or, where it counts something, a table of
CLDR plural forms (``one``, ``other``, and ``many`` where a language has it) chosen
by Babel's plural rule for the number named by ``by`` (default ``count``): French
treats 0 and 1 as singular, Spanish and English only 1. Numbers passed to
:func:`text` are written in the reader's locale; strings are inserted as given.

French strings keep ordinary spaces before ``: ; ? !``: the build applies French
typography to every French page (:mod:`ruota_docs.typography`).
"""

from __future__ import annotations

from collections.abc import Iterator

from . import formatting

STRINGS: dict[str, dict[str, str | dict[str, str]]] = {
    "en": {
        "value_on": "{value} on {machine}",
        "value_missing": "not measured yet",
        "value_missing_tip": "No record holds {metric} of block {block} for its current code yet",
        "requires": "Requires",
        "verified_on": {"one": "Verified on {machines} on {date}",
                        "other": "Verified on {machines}, most recently on {date}"},
        "failed_on": {"one": "Failed on {machines} on {date}",
                      "other": "Failed on {machines}, most recently on {date}"},
        "failed_because": "{failed}: {reason}",
        "skipped_on": "Not run on {machines}: {reason}",
        "not_run": "Not run: {reason}",
        "needs": "needs {what}",
        "stale": "Not yet verified: this code has changed since it last ran",
        "never": "Not yet verified: no run has recorded this block",
        "output_on": "Output on each machine",
        "no_output": "(printed nothing)",
        "credited": "same code as the {language} page: run once",
        "summary": {"by": "total",
                    "one": "{passed} of {total} code block verified on {machines}; last run {date}.",
                    "other": "{passed} of {total} code blocks verified on {machines}; last run {date}."},
        "machines_count": {"one": "{count} machine", "other": "{count} machines"},
        "summary_pending": {"one": "{count} block not yet verified in its current form.",
                            "other": "{count} blocks not yet verified in their current form."},
        "summary_failed": {"one": "{count} block failed on its last run.",
                           "other": "{count} blocks failed on their last run."},
        "summary_skipped": {"one": "{count} block needs hardware or access that no machine had: see below it.",
                            "other": "{count} blocks need hardware or access that no machine had: see below each."},
        "summary_notrun": {"one": "{count} block is never run: the reason is given below it.",
                           "other": "{count} blocks are never run: the reason is given below each."},
        "summary_none": "No code block on this page has been verified yet.",
        "machine": "Machine",
        "page": "Page",
        "passed": "passed",
        "failed": "failed",
        "skipped": "skipped",
        "blocks_header": "Blocks",
        "blocks_count": {"one": "{count} block", "other": "{count} blocks"},
        "count_passed": {"one": "{count} block passed", "other": "{count} blocks passed"},
        "count_failed": {"one": "{count} block failed", "other": "{count} blocks failed"},
        "count_skipped": {"one": "{count} block skipped", "other": "{count} blocks skipped"},
        "count_stale": {"one": "{count} block not verified", "other": "{count} blocks not verified"},
        "backend": "Backend",
        "gpu": "GPU",
        "versions": "Versions",
        "updated": "Last run",
        "chart_source": "Source",
        "chart_measured": "measured",
        "chart_reported": "reported by others",
        "chart_none": "No machine has recorded {metrics} yet.",
        "value": "Value",
        "stale_translation": "This translation may be out of date: the Spanish original changed on {date}.",
        "untranslated": "This page has not been translated yet; you are reading the Spanish original.",
        "outcomes_chart": "Outcomes per machine",
        # the site's frame (templates and Markdown settings)
        "permalink": "Permanent link",
        "made_with": "Made with",
        "not_found": "404: page not found",
        # requirement terms: the badge above a block, and what a skip says the block needs
        "term.gpu": "GPU", "needs.gpu": "a GPU",
        "term.rocm": "ROCm", "needs.rocm": "ROCm",
        "term.cuda": "CUDA", "needs.cuda": "CUDA",
        "term.cpu": "CPU only", "needs.cpu": "a machine without a GPU",
        "term.network": "network access", "needs.network": "network access",
        "term.arch": "{slash}", "needs.arch": "a {or} GPU",
        "term.os": "{slash}", "needs.os": "{or}",
        "term.import": "{plus}", "needs.import": {"one": "the {and} module", "other": "the {and} modules"},
        "term.vram": "VRAM ≥\u00a0{size}", "needs.vram": "at least {size} of VRAM",
        "term.python": "Python ≥\u00a0{value}", "needs.python": "Python {value} or later",
        "term.torch": "torch ≥\u00a0{value}", "needs.torch": "torch {value} or later",
        "term.hipcc": "HIP compiler (hipcc)", "needs.hipcc": "a HIP compiler (hipcc)",
        "term.hipcc_arch": "HIP compiler (hipcc) for {or}", "needs.hipcc_arch": "a HIP compiler (hipcc) that can build for {or}",
        # the engine's English messages, said again at display time (see ruota_docs.reasons)
        "engine.dead": "an earlier block, at line {line}, ended the page's process ({why})",
        "engine.timeout": "timed out after {duration}",
        "engine.died": "the page's process died ({signal})",
        "engine.cannot_start": "the page's process could not start ({detail})",
        "engine.shell": "the shell block ended with {signal}",
        "engine.wrote": "wrote into the repository instead of its working directory: {files}",
        "engine.exit_status": "exit status {code}",
        "engine.signal": "signal {name}",
    },
    "es": {
        "value_on": "{value} en {machine}",
        "value_missing": "sin medir todavía",
        "value_missing_tip": "Ningún registro tiene aún {metric} del bloque {block} con su código actual",
        "requires": "Requiere",
        "verified_on": {"one": "Verificado en {machines} el {date}",
                        "other": "Verificado en {machines}; la última vez, el {date}"},
        "failed_on": {"one": "Falló en {machines} el {date}",
                      "other": "Falló en {machines}; la última vez, el {date}"},
        "failed_because": "{failed}: {reason}",
        "skipped_on": "Sin ejecutar en {machines}: {reason}",
        "not_run": "No se ejecuta: {reason}",
        "needs": "requiere {what}",
        "stale": "Sin verificar: el código cambió desde la última ejecución",
        "never": "Sin verificar: ninguna ejecución ha registrado este bloque",
        "output_on": "Salida en cada máquina",
        "no_output": "(no imprimió nada)",
        "credited": "mismo código que la página en {language}: se ejecutó una sola vez",
        "summary": {"by": "total",
                    "one": "{passed} de {total} bloque de código verificado en {machines}; última ejecución: {date}.",
                    "other": "{passed} de {total} bloques de código verificados en {machines}; última ejecución: {date}."},
        "machines_count": {"one": "{count} máquina", "other": "{count} máquinas"},
        "summary_pending": {"one": "{count} bloque aún no se ha verificado en su forma actual.",
                            "other": "{count} bloques aún no se han verificado en su forma actual."},
        "summary_failed": {"one": "{count} bloque falló en su última ejecución.",
                           "other": "{count} bloques fallaron en su última ejecución."},
        "summary_skipped": {"one": "{count} bloque requiere hardware o un acceso que ninguna máquina tenía: debajo se indica qué.",
                            "other": "{count} bloques requieren hardware o un acceso que ninguna máquina tenía: debajo de cada uno se indica qué."},
        "summary_notrun": {"one": "{count} bloque no se ejecuta nunca: debajo se explica por qué.",
                           "other": "{count} bloques no se ejecutan nunca: debajo de cada uno se explica por qué."},
        "summary_none": "Ningún bloque de código de esta página se ha verificado todavía.",
        "machine": "Máquina",
        "page": "Página",
        "passed": "correctos",
        "failed": "fallidos",
        "skipped": "omitidos",
        "blocks_header": "Bloques",
        "blocks_count": {"one": "{count} bloque", "other": "{count} bloques"},
        "count_passed": {"one": "{count} bloque correcto", "other": "{count} bloques correctos"},
        "count_failed": {"one": "{count} bloque fallido", "other": "{count} bloques fallidos"},
        "count_skipped": {"one": "{count} bloque omitido", "other": "{count} bloques omitidos"},
        "count_stale": {"one": "{count} bloque sin verificar", "other": "{count} bloques sin verificar"},
        "backend": "Backend",
        "gpu": "GPU",
        "versions": "Versiones",
        "updated": "Última ejecución",
        "chart_source": "Procedencia",
        "chart_measured": "medido",
        "chart_reported": "según otras fuentes",
        "chart_none": "Ninguna máquina ha registrado todavía {metrics}.",
        "value": "Valor",
        "stale_translation": "",
        "untranslated": "",
        "outcomes_chart": "Resultados por máquina",
        "permalink": "Enlace permanente",
        "made_with": "Hecho con",
        "not_found": "404: página no encontrada",
        "term.gpu": "GPU", "needs.gpu": "una GPU",
        "term.rocm": "ROCm", "needs.rocm": "ROCm",
        "term.cuda": "CUDA", "needs.cuda": "CUDA",
        "term.cpu": "solo CPU", "needs.cpu": "una máquina sin GPU",
        "term.network": "acceso a la red", "needs.network": "acceso a la red",
        "term.arch": "{slash}", "needs.arch": "una GPU {or}",
        "term.os": "{slash}", "needs.os": "{or}",
        "term.import": "{plus}", "needs.import": {"one": "el módulo {and}", "other": "los módulos {and}"},
        "term.vram": "VRAM ≥\u00a0{size}", "needs.vram": "al menos {size} de VRAM",
        "term.python": "Python ≥\u00a0{value}", "needs.python": "Python {value} o posterior",
        "term.torch": "torch ≥\u00a0{value}", "needs.torch": "torch {value} o posterior",
        "term.hipcc": "compilador HIP (hipcc)", "needs.hipcc": "un compilador HIP (hipcc)",
        "term.hipcc_arch": "compilador HIP (hipcc) para {or}", "needs.hipcc_arch": "un compilador HIP (hipcc) capaz de compilar para {or}",
        "engine.dead": "un bloque anterior, en la línea {line}, acabó con el proceso de la página ({why})",
        "engine.timeout": "superó el tiempo límite de {duration}",
        "engine.died": "el proceso de la página terminó de forma inesperada ({signal})",
        "engine.cannot_start": "no se pudo iniciar el proceso de la página ({detail})",
        "engine.shell": "el bloque de shell terminó con error ({signal})",
        "engine.wrote": "escribió en el repositorio en vez de en su directorio de trabajo: {files}",
        "engine.exit_status": "código de salida {code}",
        "engine.signal": "señal {name}",
    },
    "fr": {
        "value_on": "{value} sur {machine}",
        "value_missing": "pas encore mesuré",
        "value_missing_tip": "Aucun enregistrement ne contient encore {metric} du bloc {block} pour son code actuel",
        "requires": "Nécessite",
        "verified_on": {"one": "Vérifié sur {machines} le {date}",
                        "other": "Vérifié sur {machines}, la dernière fois le {date}"},
        "failed_on": {"one": "Échec sur {machines} le {date}",
                      "other": "Échec sur {machines}, la dernière fois le {date}"},
        "failed_because": "{failed} : {reason}",
        "skipped_on": "Non exécuté sur {machines} : {reason}",
        "not_run": "Non exécuté : {reason}",
        "needs": "nécessite {what}",
        "stale": "Pas encore vérifié : ce code a changé depuis sa dernière exécution",
        "never": "Pas encore vérifié : aucune exécution n'a enregistré ce bloc",
        "output_on": "Sortie sur chaque machine",
        "no_output": "(n'a rien affiché)",
        "credited": "même code que la page en {language} : exécuté une seule fois",
        "summary": {"by": "passed",
                    "one": "{passed} bloc de code sur {total} vérifié sur {machines} ; dernière exécution : {date}.",
                    "other": "{passed} blocs de code sur {total} vérifiés sur {machines} ; dernière exécution : {date}."},
        "machines_count": {"one": "{count} machine", "other": "{count} machines"},
        "summary_pending": {"one": "{count} bloc n'a pas encore été vérifié sous sa forme actuelle.",
                            "other": "{count} blocs n'ont pas encore été vérifiés sous leur forme actuelle."},
        "summary_failed": {"one": "{count} bloc a échoué lors de sa dernière exécution.",
                           "other": "{count} blocs ont échoué lors de leur dernière exécution."},
        "summary_skipped": {"one": "{count} bloc demande un matériel ou un accès qu'aucune machine n'avait : le détail figure sous le bloc.",
                            "other": "{count} blocs demandent un matériel ou un accès qu'aucune machine n'avait : le détail figure sous chacun."},
        "summary_notrun": {"one": "{count} bloc n'est jamais exécuté : la raison figure sous le bloc.",
                           "other": "{count} blocs ne sont jamais exécutés : la raison figure sous chacun."},
        "summary_none": "Aucun bloc de code de cette page n'a encore été vérifié.",
        "machine": "Machine",
        "page": "Page",
        "passed": "réussis",
        "failed": "en échec",
        "skipped": "non exécutés",
        "blocks_header": "Blocs",
        "blocks_count": {"one": "{count} bloc", "other": "{count} blocs"},
        "count_passed": {"one": "{count} bloc réussi", "other": "{count} blocs réussis"},
        "count_failed": {"one": "{count} bloc en échec", "other": "{count} blocs en échec"},
        "count_skipped": {"one": "{count} bloc non exécuté", "other": "{count} blocs non exécutés"},
        "count_stale": {"one": "{count} bloc non vérifié", "other": "{count} blocs non vérifiés"},
        "backend": "Backend",
        "gpu": "GPU",
        "versions": "Versions",
        "updated": "Dernière exécution",
        "chart_source": "Provenance",
        "chart_measured": "mesuré",
        "chart_reported": "selon d'autres sources",
        "chart_none": "Aucune machine n'a encore enregistré {metrics}.",
        "value": "Valeur",
        "stale_translation": "Cette traduction n'est peut-être plus à jour : l'original espagnol a changé le {date}.",
        "untranslated": "Cette page n'est pas encore traduite ; vous lisez l'original espagnol.",
        "outcomes_chart": "Résultats par machine",
        "permalink": "Lien permanent",
        "made_with": "Réalisé avec",
        "not_found": "404 : page introuvable",
        "term.gpu": "GPU", "needs.gpu": "un GPU",
        "term.rocm": "ROCm", "needs.rocm": "ROCm",
        "term.cuda": "CUDA", "needs.cuda": "CUDA",
        "term.cpu": "CPU seul", "needs.cpu": "une machine sans GPU",
        "term.network": "accès au réseau", "needs.network": "un accès au réseau",
        "term.arch": "{slash}", "needs.arch": "un GPU {or}",
        "term.os": "{slash}", "needs.os": "{or}",
        "term.import": "{plus}", "needs.import": {"one": "le module {and}", "other": "les modules {and}"},
        "term.vram": "VRAM ≥\u00a0{size}", "needs.vram": "au moins {size} de VRAM",
        "term.python": "Python ≥\u00a0{value}", "needs.python": "Python {value} ou une version ultérieure",
        "term.torch": "torch ≥\u00a0{value}", "needs.torch": "torch {value} ou une version ultérieure",
        "term.hipcc": "compilateur HIP (hipcc)", "needs.hipcc": "un compilateur HIP (hipcc)",
        "term.hipcc_arch": "compilateur HIP (hipcc) pour {or}", "needs.hipcc_arch": "un compilateur HIP (hipcc) capable de compiler pour {or}",
        "engine.dead": "un bloc précédent, à la ligne {line}, a mis fin au processus de la page ({why})",
        "engine.timeout": "délai de {duration} dépassé",
        "engine.died": "le processus de la page s'est arrêté brutalement ({signal})",
        "engine.cannot_start": "le processus de la page n'a pas pu démarrer ({detail})",
        "engine.shell": "le bloc shell s'est terminé en erreur ({signal})",
        "engine.wrote": "a écrit dans le dépôt au lieu de son répertoire de travail : {files}",
        "engine.exit_status": "code de sortie {code}",
        "engine.signal": "signal {name}",
    },
}

LANGUAGE_NAMES = {
    "en": {"es": "Spanish", "en": "English", "fr": "French"},
    "es": {"es": "español", "en": "inglés", "fr": "francés"},
    "fr": {"es": "espagnol", "en": "anglais", "fr": "français"},
}


def _shown(value, lang: str) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    return formatting.number(value, lang, 0 if isinstance(value, int) else 2)


def text(lang: str, key: str, **values) -> str:
    """A string in ``lang`` (English where the language or the string is missing).

    Counted strings pick their plural form from the number named by their ``by``
    entry (``count`` by default), which must then be given.
    """
    table = STRINGS.get(lang) or STRINGS["en"]
    entry = table.get(key) or STRINGS["en"][key]
    if isinstance(entry, dict):
        by = entry.get("by", "count")
        if by not in values:
            raise KeyError(f"string {key!r} counts {by!r}: pass {by}=<number>")
        entry = entry.get(formatting.plural_form(values[by], lang)) or entry["other"]
    return entry.format(**{k: _shown(v, lang) for k, v in values.items()}) if values else entry


def templates(lang: str) -> Iterator[str]:
    """Every template of ``lang``, plural forms included (for checks over all strings)."""
    for entry in STRINGS.get(lang, {}).values():
        if isinstance(entry, dict):
            yield from (v for k, v in entry.items() if k != "by")
        else:
            yield entry
