/* kwx analyzer, progressive enhancement only (the page works without it):
   keep the language switch's "next" on the URL htmx pushed, keep open <details> open across swaps,
   and keep keyboard focus where the player was (every control has a stable id; htmx refocuses it).
   When the focused control is gone or switched off by the swap (a tile's last copy used, the last
   tile of the hand removed), focus moves to the next control of the same kind, or to the answer.
   Before htmx keeps a page for Back, the controls' current values are written into the markup it
   keeps, so Back shows the hand that was typed (the URL's hand), not the one the page was drawn with.
   A change to an .auto control submits the form (an htmx trigger filter would need eval). */
(function () {
  "use strict";
  var open = [];
  var focused = null;
  function syncNext() {
    var here = location.pathname + location.search;
    document.querySelectorAll('form.lang input[name="next"]').forEach(function (input) { input.value = here; });
  }
  function usable(el) { return el && !el.disabled && el.offsetParent !== null; }
  function sameKind(id) {
    var m = /^(add|seen|hand|meld|visible|discard|tadd|tdel)-/.exec(id);
    if (!m) return [];
    var selector = { add: "#palette .az-pal", seen: "#visible-view .az-pal", hand: "#hand-view .tile-button",
      meld: "#hand-view .az-meld", visible: "#visible-view [name=remove_visible]", discard: ".discard-link",
      tadd: "#table-palette .az-pal", tdel: "#table-input [name=tdel]" }[m[1]];
    return Array.prototype.slice.call(document.querySelectorAll(selector));
  }
  function replacement(state) {
    var all = sameKind(state.id);
    var after = all.slice(state.index).concat(all.slice(0, state.index).reverse());
    var next = after.filter(usable)[0];
    if (next) return next;
    var full = document.getElementById("palette-full");
    if (full && state.id.indexOf("add-") === 0) return full;
    // an example or "open this hand" link is gone with the page it was on: go to the answer
    return all.length ? null : document.getElementById("results");
  }
  function freezeValues() {
    document.querySelectorAll("#app input, #app select, #app textarea").forEach(function (el) {
      if (el.type === "checkbox" || el.type === "radio") {
        el.toggleAttribute("checked", el.checked);
      } else if (el.tagName === "SELECT") {
        Array.prototype.forEach.call(el.options, function (o) { o.toggleAttribute("selected", o.selected); });
      } else if (el.tagName === "TEXTAREA") {
        el.textContent = el.value;
      } else if (el.type !== "file" && el.type !== "password") {
        el.setAttribute("value", el.value);
      }
    });
  }
  document.addEventListener("htmx:beforeHistorySave", freezeValues);
  // A change to an .auto control (rules, options, draws …) asks again at once. Done here, not with an
  // htmx trigger filter, because a filter is evaluated as a string, which the Content-Security-Policy forbids.
  document.addEventListener("change", function (event) {
    var t = event.target;
    if (t && t.classList && t.classList.contains("auto") && t.form && t.form.id === "app" && window.htmx) {
      window.htmx.trigger(t.form, "kwx:auto");
    }
  });
  document.addEventListener("htmx:pushedIntoHistory", syncNext);
  document.addEventListener("htmx:replacedInHistory", syncNext);
  window.addEventListener("popstate", syncNext);
  document.addEventListener("htmx:beforeSwap", function () {
    open = Array.prototype.map.call(document.querySelectorAll("#app details[open][id]"), function (d) { return d.id; });
    var active = document.activeElement;
    focused = null;
    if (active && active.id && active.closest("#app")) {
      focused = { id: active.id, index: Math.max(0, sameKind(active.id).indexOf(active)) };
    }
  });
  document.addEventListener("htmx:afterSwap", function () {
    open.forEach(function (id) { var d = document.getElementById(id); if (d) { d.open = true; } });
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!focused) return;
    var state = focused;
    focused = null;
    var el = document.getElementById(state.id);
    if (el === document.activeElement) return;
    var target = usable(el) ? el : replacement(state);
    if (target) target.focus();
  });
})();
