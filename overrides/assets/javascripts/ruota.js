/* ruota-docs: the language selector keeps the reader's place, and asks nothing of anyone.
 *
 * mkdocs-static-i18n already points each language link (and each <link rel="alternate">)
 * at the same page in the other language. Two things are left to the browser:
 *
 * 1. The section. Headings carry the same pinned ids in every language, so the current
 *    #fragment is carried over to the other language's page.
 * 2. Material's alternate integration fetches a sitemap.xml beside every
 *    <link rel="alternate"> to map pages between language *sites*. Here those links are
 *    pages, not site roots, so every page view asked for three sitemaps that do not exist
 *    (404) and one on the absolute x-default host, another origin. Those lookups end as
 *    aborted, without a request; Material then follows the plain link, which is already
 *    the right page. (Material's only other sitemap reader is navigation.instant, which
 *    this site does not use: mkdocs-static-i18n's language links do not work with it.)
 */
(function () {
  "use strict";

  var open = XMLHttpRequest.prototype.open;
  var send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url) {
    try {
      this.__ruotaSitemap = /\/sitemap\.xml$/.test(new URL(String(url), location.href).pathname);
    } catch (error) {
      this.__ruotaSitemap = false;
    }
    return open.apply(this, arguments);
  };
  XMLHttpRequest.prototype.send = function () {
    if (this.__ruotaSitemap) {
      this.dispatchEvent(new ProgressEvent("abort"));
      return undefined;
    }
    return send.apply(this, arguments);
  };

  function carrySection() {
    var links = document.querySelectorAll(".md-select__link[hreflang]");
    for (var i = 0; i < links.length; i++) {
      var url = new URL(links[i].href);
      url.hash = location.hash;
      links[i].href = url.href;
    }
  }
  document.addEventListener("DOMContentLoaded", carrySection);
  window.addEventListener("hashchange", carrySection);
  document.addEventListener("click", function (event) {
    if (event.target instanceof Element && event.target.closest(".md-select__link[hreflang]")) carrySection();
  }, true);
})();

/* The card matrix's filter (src/ruota_docs/site/matrix.py): rows whose targets, cards and
   machines do not hold every word typed are hidden, with their list of machines, and the
   count of rows left is written to a live region that screen readers announce. The field
   and the count are hidden in the HTML, so that a page read without scripts offers no
   filter that does nothing. */
(function () {
  "use strict";
  function filter(field) {
    var matrix = field.closest(".ruota-card-matrix");
    var words = field.value.toLowerCase().split(/\s+/).filter(Boolean);
    var rows = matrix.querySelectorAll("tr[data-filter]");
    var left = 0;
    for (var i = 0; i < rows.length; i++) {
      var text = rows[i].getAttribute("data-filter");
      var shown = words.every(function (word) { return text.indexOf(word) >= 0; });
      rows[i].hidden = !shown;
      if (shown) left++;
      var next = rows[i].nextElementSibling;
      if (next && next.classList.contains("ruota-matrix-machines")) next.hidden = !shown;
    }
    var count = matrix.querySelector(".ruota-matrix-count");
    if (count) {
      count.hidden = false;
      count.textContent = count.getAttribute("data-words")
        .replace("{shown}", String(left)).replace("{total}", String(rows.length));
    }
  }
  document.addEventListener("DOMContentLoaded", function () {
    var fields = document.querySelectorAll(".ruota-matrix-filter");
    for (var i = 0; i < fields.length; i++) {
      fields[i].hidden = false;
      fields[i].addEventListener("input", function (event) { filter(event.target); });
      filter(fields[i]);
    }
  });
})();
