"""The typography of built pages (ruota_docs.site.typography), French and English: prose changes, code never does."""

from __future__ import annotations

import pytest

from ruota_docs.site.typography import english, english_text, french, french_text

NB, NN = "\u00a0", "\u202f"  # no-break space (before ':' and inside « »), narrow one (before ; ? !)


# -- plain text ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("given", "expected"), [
    # an ordinary space is replaced by the right one
    ("Remarque : lisez ceci", f"Remarque{NB}: lisez ceci"),
    ("Vraiment ? Oui ! Bien ; ensuite", f"Vraiment{NN}? Oui{NN}! Bien{NN}; ensuite"),
    # a missing space is added
    ("Remarque: lisez ceci", f"Remarque{NB}: lisez ceci"),
    ("Vraiment? Oui! Bien; ensuite", f"Vraiment{NN}? Oui{NN}! Bien{NN}; ensuite"),
    # several spaces, a tab or a newline become one no-break space
    ("Remarque  \t:\nsuite", f"Remarque{NB}:\nsuite"),
    # the wrong no-break space is exchanged for the right one
    (f"Vraiment{NB}?", f"Vraiment{NN}?"),
    (f"Remarque{NN}: suite", f"Remarque{NB}: suite"),
    # a run of signs takes one space, before the first
    ("Quoi ?!", f"Quoi{NN}?!"),
    ("Non !!!", f"Non{NN}!!!"),
    # at the end of the text, before a closing bracket or quote, before a full stop
    ("Vraiment?", f"Vraiment{NN}?"),
    ("(vraiment?)", f"(vraiment{NN}?)"),
    ("« Vraiment? »", f"«{NB}Vraiment{NN}?{NB}»"),
    # a day keeps its month
    ("le 6 décembre 2026", f"le 6{NB}décembre 2026"),
    ("le 1er mars", f"le 1er{NB}mars"),
    ("les 12 mai", f"les 12{NB}mai"),
    ("3 mais pas 4", "3 mais pas 4"),
    # a colon typed with no space inside guillemets: a title in another language, or a name
    ("« ROCm para Stable Diffusion: límites y VRAM »", f"«{NB}ROCm para Stable Diffusion: límites y VRAM{NB}»"),
    ("la section « requires: » du guide", f"la section «{NB}requires:{NB}» du guide"),
    ("« Attention : fragile »", f"«{NB}Attention{NB}: fragile{NB}»"),
    ("ensuite;.", f"ensuite{NN};."),
    # guillemets: no-break space inside, added or replaced
    ("«texte»", f"«{NB}texte{NB}»"),
    ("« texte »", f"«{NB}texte{NB}»"),
    ("« peut fonctionner »,", f"«{NB}peut fonctionner{NB}»,"),
    ("des « » vides, «»", f"des «{NB}» vides, «{NB}»"),
    # a number keeps its unit, or its percent sign, on its line
    ("8 Go de VRAM, 28,6 s par époque, 80 % du jeu, 0,84 Gio, 2 944 images",
     f"8{NB}Go de VRAM, 28,6{NB}s par époque, 80{NN}% du jeu, 0,84{NB}Gio, 2 944 images"),
])
def test_french_spacing(given, expected):
    assert french_text(given) == expected
    assert french_text(expected) == expected  # idempotent


@pytest.mark.parametrize("untouched", [
    "à 12:30 précises",                      # a time
    "sur localhost:8000 ou 127.0.0.1:8080",  # ports
    "un rapport 16:9",                       # a ratio
    "https://example.org/a?b=1&c=d:e",       # a URL, with ? and : inside
    "voir https://example.org/a?",           # a URL ending in a sign
    "www.example.org/a?b",                   # a URL without a scheme
    "la règle red !important",               # "!important" is not a sentence ending
    "dans C:\\Users\\moi",                    # a Windows path
    "super :) et ;-) ou :D",                 # emoticons
    "(?)",                                   # a sign right after an opening bracket
    "? au début",                            # nothing before the sign
    "a::b et x:=1",                          # inside a token
    "la version 2 s’affiche, gfx1102 s’affiche",     # a number before a word that is no unit
    "",
])
def test_what_is_not_prose_is_left_alone(untouched):
    assert french_text(untouched) == untouched


def test_only_french_signs_change():
    text = "Pas de changement, ni. Ni - ni / ni (ni) [ni] {ni} « »"
    assert french_text(text).replace(NB, " ") == text


# -- HTML ------------------------------------------------------------------------------------------------------
def test_text_nodes_change_and_markup_does_not():
    page = '<p class="a:b" data-x="y ?">Voici : <a href="https://x.org/?q=1:2">un lien</a> !</p>'
    assert french(page) == f'<p class="a:b" data-x="y ?">Voici{NB}: <a href="https://x.org/?q=1:2">un lien</a>{NN}!</p>'


@pytest.mark.parametrize("tag", ["pre", "code", "kbd", "samp", "textarea"])
def test_code_is_byte_for_byte(tag):
    page = f"<p>Avant : <{tag}>x = a ? b : c; print('!') ; « a »</{tag}> après ?</p>"
    assert french(page) == f"<p>Avant{NB}: <{tag}>x = a ? b : c; print('!') ; « a »</{tag}> après{NN}?</p>"


def test_scripts_and_styles_are_left_alone():
    page = ('<script>if (a ? b : c) { alert("Non !"); }</script><style>a:hover { color: red !important; }</style>'
            '<script id="__config" type="application/json">{"a": "Copier : ok ?"}</script>')
    assert french(page) == page


def test_code_block_as_pygments_writes_it():
    page = ('<div class="highlight"><pre><span></span><code><span class="n">x</span> <span class="o">=</span> '
            '<span class="mi">1</span> <span class="k">if</span> <span class="n">a</span> <span class="k">else</span>'
            ' <span class="s2">&quot;Non : ?&quot;</span>\n</code></pre></div><p>Fin : oui</p>')
    assert french(page) == page.replace("Fin : oui", f"Fin{NB}: oui")


def test_a_sign_right_after_inline_code_gets_its_space():
    assert french("<p>La variable <code>KERAS_BACKEND</code>: à définir.</p>") == \
        f"<p>La variable <code>KERAS_BACKEND</code>{NB}: à définir.</p>"
    assert french("<p>Sur <em>Linux</em>?</p>") == f"<p>Sur <em>Linux</em>{NN}?</p>"
    # the space before the sign sits in another inline element
    assert french("<p><em>Note </em>: suite</p>") == f"<p><em>Note{NB}</em>: suite</p>"


def test_code_before_a_space_is_not_changed():
    page = "<p><code>x </code>: suite</p>"
    assert french(page) == page  # the space belongs to the code: nothing safe to do


def test_blocks_do_not_run_together():
    # a cell ending a word, then a cell starting with a sign: two blocks, nothing to join
    page = "<table><tr><td>Mot</td><td>: suite</td></tr></table><p>fin</p><p>? oui</p>"
    assert french(page) == page


def test_entities_count_as_what_they_are():
    already = "<p>Remarque&nbsp;: suite</p>"
    assert french(already) == already
    assert french("<p>Tom &amp; Jerry ; puis</p>") == f"<p>Tom &amp; Jerry{NN}; puis</p>"
    assert french("<p>&laquo;texte&raquo;</p>") == "<p>&laquo;texte&raquo;</p>"  # the signs are not editable text


def test_the_ordinal_first_is_a_superscript_in_text_only():
    page = ('<p title="depuis le 1er mars">Consulté le 1er décembre 2026 : voir <code>1er mars</code>.</p>'
            '<p>Déjà 1<sup>er</sup> mars ; les 1er et 6 mars, la 1re ligne, 1ers, le 11 mars</p>')
    expected = (f'<p title="depuis le 1er{NB}mars">Consulté le 1<sup>er</sup>{NB}décembre 2026{NB}: voir '
                f'<code>1er mars</code>.</p><p>Déjà 1<sup>er</sup>{NB}mars{NN}; les 1<sup>er</sup> et 6{NB}mars, '
                f'la 1<sup>re</sup> ligne, 1ers, le 11{NB}mars</p>')
    assert french(page) == expected
    assert french(expected) == expected


def test_readable_attributes_change_other_attributes_do_not():
    page = ('<a href="/a?b:c" title="Précédent: Guides" aria-label="Suivant: Stable Diffusion" data-x="a : b">x</a>'
            '<input placeholder="Rechercher ?" value="a : b"><img alt="Figure : un test" src="a:b.png">'
            '<meta name="description" content="Le site : ses pages"><meta name="generator" content="mkdocs : 1">')
    assert french(page) == (
        f'<a href="/a?b:c" title="Précédent{NB}: Guides" aria-label="Suivant{NB}: Stable Diffusion" data-x="a : b">x</a>'
        f'<input placeholder="Rechercher{NN}?" value="a : b"><img alt="Figure{NB}: un test" src="a:b.png">'
        f'<meta name="description" content="Le site{NB}: ses pages"><meta name="generator" content="mkdocs : 1">')


def test_escaped_attribute_values_stay_escaped():
    page = '<a title="L&#39;IA : &quot;tout&quot; &amp; rien">x</a>'
    changed = french(page)
    assert changed == f'<a title="L’IA{NB}: &quot;tout&quot; &amp; rien">x</a>'


@pytest.mark.parametrize("written, french_typography", [
    ("l'API, aujourd'hui, qu'il s'exécute", "l’API, aujourd’hui, qu’il s’exécute"),
    ("l’API déjà typographique", "l’API déjà typographique"),
    ("'cité' et https://x.org/l'a", "'cité' et https://x.org/l'a"),  # no elision: a quotation, an address
])
def test_french_elisions_get_the_typographic_apostrophe(written, french_typography):
    assert french_text(written) == french_typography
    assert french(f"<p>{written} <code>l'code</code></p>") == f"<p>{french_typography} <code>l'code</code></p>"


def test_an_escaped_apostrophe_is_prose_too():
    """Templates escape the apostrophe (« n&#x27;a été exécuté »): outside code it becomes typographic too."""
    assert french("<p>N&#x27;a été exécuté, <code>n&#x27;a</code></p>") == "<p>N’a été exécuté, <code>n&#x27;a</code></p>"
    assert french("<p>a &amp; b, l&#39;API</p>") == "<p>a &amp; b, l’API</p>"


def test_another_language_is_left_alone():
    page = '<div lang="en" class="doc"><p>Returns: the value; or None!</p><a title="Note: x">y</a></div><p>Fin : oui</p>'
    assert french(page) == page.replace("Fin : oui", f"Fin{NB}: oui")
    assert french('<p lang="fr-CA">Oui : non</p>') == f'<p lang="fr-CA">Oui{NB}: non</p>'
    # French again inside another language (a French banner over a page shown in Spanish); code stays code
    page = '<article lang="es"><div lang="fr"><p>Non traduite ; voir</p></div><p>Texto: así</p></article>'
    assert french(page) == page.replace("traduite ; voir", f"traduite{NN}; voir")
    page = '<pre><code lang="fr">a ; b</code></pre>'
    assert french(page) == page


def test_table_of_contents_entry_of_a_code_heading():
    """A heading that is all code is listed in the table of contents as plain text: still code."""
    page = ('<nav><a href="#err" class="md-nav__link"><span class="md-ellipsis">RuntimeError: oops</span></a>'
            '<a href="#why" class="md-nav__link"><span class="md-ellipsis">Pourquoi : oops</span></a></nav>'
            '<h3 id="err"><code>RuntimeError: oops</code><a class="headerlink" href="#err" title="Lien permanent">&para;</a></h3>'
            '<h3 id="why">Pourquoi : <code>oops</code><a class="headerlink" href="#why" title="Lien permanent">&para;</a></h3>')
    assert french(page) == page.replace("Pourquoi : ", f"Pourquoi{NB}: ")


@pytest.mark.parametrize("permalink", ["&para;", "¶", "#", "§"])
def test_a_heading_that_ends_in_a_sign_gets_its_space_before_the_permalink(permalink):
    """The toc extension appends the permalink right after the heading's last character: the
    sign stays the end of the heading's text, as readers see it."""
    page = (f'<h2 id="why">Pourquoi ?<a class="headerlink" href="#why" title="Lien permanent">{permalink}</a></h2>'
            f'<h3 id="a">Vraiment !<a class="headerlink" href="#a">{permalink}</a></h3>'
            f'<h3 id="b">Deux points :<a class="headerlink" href="#b">{permalink}</a></h3>')
    assert french(page) == (page.replace("Pourquoi ?", f"Pourquoi{NN}?").replace("Vraiment !", f"Vraiment{NN}!")
                            .replace("points :", f"points{NB}:"))
    # a link inside the sentence is part of it, as before
    assert french('<p>Voir <a href="#x">ici</a> ?</p>') == f'<p>Voir <a href="#x">ici</a>{NN}?</p>'


def test_svg_text_and_titles_are_prose():
    page = ('<svg role="img" aria-label="Pic : mémoire"><title>Pic : mémoire</title>'
            '<rect x="1" y="2"/><text x="3">CPU · réussis ?</text></svg>')
    assert french(page) == (f'<svg role="img" aria-label="Pic{NB}: mémoire"><title>Pic{NB}: mémoire</title>'
                            f'<rect x="1" y="2"/><text x="3">CPU · réussis{NN}?</text></svg>')


def test_a_whole_page_is_idempotent_and_keeps_its_markup():
    page = ("<!doctype html>\n<html lang=\"fr\"><head><title>Guide : Keras</title>"
            "<!-- un commentaire : ? --></head>\n<body><p>Un <br>test ; puis « fin ».</p>\n"
            "<p>Deux\nlignes : oui</p></body></html>\n")
    once = french(page)
    assert once == (f"<!doctype html>\n<html lang=\"fr\"><head><title>Guide{NB}: Keras</title>"
                    f"<!-- un commentaire : ? --></head>\n<body><p>Un <br>test{NN}; puis «{NB}fin{NB}».</p>\n"
                    f"<p>Deux\nlignes{NB}: oui</p></body></html>\n")
    assert french(once) == once


def test_unclosed_and_stray_tags_do_not_lose_the_text():
    page = "<p>Un : <b>deux ? </i>trois !</p><p>fin</p></div>"
    assert french(page) == f"<p>Un{NB}: <b>deux{NN}? </i>trois{NN}!</p><p>fin</p></div>"


@pytest.mark.parametrize(("page", "expected"), [
    # a script's text is not markup, even where it looks like a tag
    ('<script>var a = "<p>Non : oui</p>";</script><p>Fin : oui</p>',
     f'<script>var a = "<p>Non : oui</p>";</script><p>Fin{NB}: oui</p>'),
    # a code block inside a code block, and one never closed
    ("<p>Avant : <pre>a ? b : c <pre>x ; y</pre> z ! </pre> après ?</p>",
     f"<p>Avant{NB}: <pre>a ? b : c <pre>x ; y</pre> z ! </pre> après{NN}?</p>"),
    ("<pre>jamais fermé : ?", "<pre>jamais fermé : ?"),
    ("<textarea>a : b</textarea><p>c : d</p>", f"<textarea>a : b</textarea><p>c{NB}: d</p>"),
    # a < and an & that open nothing are text; a comment inside a paragraph does not end it
    ("<p>a < b : c & d ; e</p>", f"<p>a < b{NB}: c & d{NN}; e</p>"),
    ("<p>x<!-- c : d -->y : z</p>", f"<p>x<!-- c : d -->y{NB}: z</p>"),
    # a > inside a quoted attribute value; upper-case tags and attributes; a value-less attribute
    ('<a title="a > b : c" href="#x">lien : ici</a>', f'<a title="a &gt; b{NB}: c" href="#x">lien{NB}: ici</a>'),
    ('<P LANG="en">Note: x</P><p>Oui : non</p>', f'<P LANG="en">Note: x</P><p>Oui{NB}: non</p>'),
    ('<input disabled placeholder="Chercher ?">', f'<input disabled placeholder="Chercher{NN}?">'),
])
def test_markup_is_read_as_html_parsers_read_it(page, expected):
    assert french(page) == expected


# -- English quotation marks -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("given", "expected"), [
    ("the machine's record", "the machine’s record"),
    ("it's, don't, the guides' blocks.", "it’s, don’t, the guides’ blocks."),
    ('a "quoted" word, ("in brackets")', "a “quoted” word, (“in brackets”)"),
    ("'single' and ‘already curly’", "‘single’ and ‘already curly’"),
    ("“curly” stays", "“curly” stays"),
    ("a mark ' alone", "a mark ' alone"),  # between spaces: no quotation
    ("see https://example.org/it's", "see https://example.org/it's"),  # an address keeps its signs
])
def test_english_text_gets_curly_quotes(given, expected):
    assert english_text(given) == expected
    assert english_text(expected) == expected  # idempotent


def test_english_marks_only_english_prose_and_never_code():
    page = ('<html lang="es"><body><p>El "motor" de Ana</p>'
            '<div lang="en"><p>The <code>Block</code>\'s code "as shown": it\'s <code>"raw"</code></p>'
            '<pre><code>print("it\'s")</code></pre><p title="the block\'s title">x</p></div></body></html>')
    out = english(page, default=False)
    assert '<p>El "motor" de Ana</p>' in out  # Spanish prose: its own quotes
    assert "<code>Block</code>’s code “as shown”: it’s <code>\"raw\"</code>" in out
    assert '<pre><code>print("it\'s")</code></pre>' in out  # code byte for byte
    assert 'title="the block’s title"' in out  # what people read in an attribute
    assert english("<p>Ana's</p>") == "<p>Ana’s</p>"  # an English page: all of it
