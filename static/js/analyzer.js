/* kwx analyzer: keep the language switch's "next" on the URL htmx pushed, so switching language keeps the hand. */
(function () {
  function syncNext() {
    var here = location.pathname + location.search;
    document.querySelectorAll('form.lang input[name="next"]').forEach(function (input) { input.value = here; });
  }
  document.addEventListener("htmx:pushedIntoHistory", syncNext);
  document.addEventListener("htmx:replacedInHistory", syncNext);
  window.addEventListener("popstate", syncNext);
})();
