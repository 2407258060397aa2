/* kwx analyzer, progressive enhancement only (the page works without it):
   keep the language switch's "next" on the URL htmx pushed, and keep open <details> open across swaps. */
(function () {
  var open = [];
  function syncNext() {
    var here = location.pathname + location.search;
    document.querySelectorAll('form.lang input[name="next"]').forEach(function (input) { input.value = here; });
  }
  document.addEventListener("htmx:pushedIntoHistory", syncNext);
  document.addEventListener("htmx:replacedInHistory", syncNext);
  window.addEventListener("popstate", syncNext);
  document.addEventListener("htmx:beforeSwap", function () {
    open = Array.prototype.map.call(document.querySelectorAll("#app details[open][id]"), function (d) { return d.id; });
  });
  document.addEventListener("htmx:afterSwap", function () {
    open.forEach(function (id) { var d = document.getElementById(id); if (d) { d.open = true; } });
  });
})();
