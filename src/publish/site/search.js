// The site's search: filters window.COGITATOR_INDEX (search-index.js) by the words typed in
// #q, or given as ?q= in the page's address, and lists the matches in #results. Names that
// match rank before text that matches. Works from file://: no fetch, no external script.
(function () {
  "use strict";
  var index = window.COGITATOR_INDEX || [];
  var box = document.getElementById("q");
  var out = document.getElementById("results");
  if (!box || !out) return;
  function fold(s) { return s.toLowerCase().replace(/[\u2018\u2019]/g, "'"); }
  function search(q) {
    var words = fold(q).split(/\s+/).filter(function (w) { return w; });
    if (!words.length) return [];
    var hits = [];
    index.forEach(function (e) {
      var name = fold(e[0]), all = name + " " + fold(e[4]);
      if (!words.every(function (w) { return all.indexOf(w) >= 0; })) return;
      var rank = name === words.join(" ") ? 0 : words.every(function (w) { return name.indexOf(w) >= 0; }) ? 1 : 2;
      hits.push([rank, e]);
    });
    hits.sort(function (a, b) { return a[0] - b[0] || (a[1][0] < b[1][0] ? -1 : a[1][0] > b[1][0] ? 1 : 0); });
    return hits.slice(0, 50).map(function (h) { return h[1]; });
  }
  function render(q) {
    out.textContent = "";
    search(q).forEach(function (e) {
      var li = document.createElement("li"), a = document.createElement("a"), m = document.createElement("span");
      a.href = e[2];
      a.className = "result";
      a.textContent = e[0];
      m.className = "meta";
      m.textContent = " " + e[1] + " · " + e[3];
      li.appendChild(a);
      li.appendChild(m);
      out.appendChild(li);
    });
  }
  var q = new URLSearchParams(window.location.search).get("q") || "";
  box.value = q;
  render(q);
  box.addEventListener("input", function () { render(box.value); });
})();
