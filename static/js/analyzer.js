/* kwx analyzer, progressive enhancement only (the page works without it):
   keep the language switch's "next" on the URL htmx pushed, keep open <details> open across swaps,
   and keep keyboard focus where the player was (every control has a stable id; htmx refocuses it).
   When the focused control is gone or switched off by the swap (a tile's last copy used, the last
   tile of the hand removed), focus moves to the next control of the same kind, or to the answer.
   Before htmx keeps a page for Back, the controls' current values are written into the markup it
   keeps, so Back shows the hand that was typed (the URL's hand), not the one the page was drawn with.
   A change to an .auto control submits the form (an htmx trigger filter would need eval).
   Every tap counts, in order, however fast: while a request for the form is in flight, a tap, a
   change or a link is queued instead of dropped, and each waits for the answer before it, then
   goes to the server with the form that answer drew (so a later answer cannot lose an earlier tap).
   Controls changed or typed into meanwhile keep their new value across the swap. #az-busy says
   that the page is working and how many taps wait. */
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

  var busy = false;     // a request whose answer redraws the form (#app) is in flight
  var queue = [];       // what came meanwhile: {set: id, value, checked} | {param: [name, value] or null} | {link: id, href}
  var extra = null;     // the tap's own field, added to the request that replays it
  function form() { return document.getElementById("app"); }
  function forApp(detail) { return !!(detail && detail.target && detail.target.id === "app"); }
  function status(failed) {
    var el = document.getElementById("az-busy");
    if (!el) return;
    var waiting = queue.filter(function (e) { return !e.set; }).length;
    var text = failed ? el.dataset.failed : !busy ? "" : waiting === 1 ? el.dataset.one
      : waiting ? el.dataset.many.replace("{n}", String(waiting)) : el.dataset.working;
    el.textContent = text;
    el.hidden = !text;
    var app = form();
    if (app) app.setAttribute("aria-busy", busy ? "true" : "false");
  }
  function remember(el) {
    // a control changed while the form is about to be redrawn: keep what the player set
    if (!el.id) return;
    var last = queue[queue.length - 1];
    var entry = { set: el.id, value: el.value, checked: el.checked };
    if (last && last.set === el.id) queue[queue.length - 1] = entry; else queue.push(entry);
  }
  function replay(entry) {
    // true when the entry sent a request (the next one waits for its answer)
    if (entry.set) {
      var el = document.getElementById(entry.set);
      if (!el) return false;
      if (el.type === "checkbox" || el.type === "radio") el.checked = entry.checked; else el.value = entry.value;
      return false;
    }
    if (entry.link) {
      var link = document.getElementById(entry.link);
      if (link && link.closest("#app")) link.click();
      else window.htmx.ajax("GET", entry.href, { target: "#app", swap: "outerHTML" });
      return true;
    }
    extra = entry.param;
    window.htmx.trigger(form(), "kwx:auto");
    return true;
  }
  function next() {
    // the new form gets its htmx triggers when htmx settles it, a moment after the swap: now at once
    if (queue.length && form()) window.htmx.process(form());
    while (!busy && queue.length && form()) {
      var entry = queue.shift();
      if (!replay(entry) && entry.set && !queue.length) {
        var typed = document.getElementById(entry.set);
        if (typed && typed.hasAttribute("hx-get")) typed.dispatchEvent(new Event("input", { bubbles: true }));  // typed meanwhile: analyse it
      }
    }
    status(false);
  }
  document.addEventListener("htmx:confirm", function (event) {
    var d = event.detail;
    if (!busy || !forApp(d)) return;
    event.preventDefault();
    var elt = d.elt, trigger = d.triggeringEvent;
    if (elt.tagName === "A") {
      queue.push({ link: elt.id, href: d.path });
    } else if (elt === form()) {
      var button = trigger && trigger.submitter;
      queue.push({ param: button && button.name ? [button.name, button.value] : null });
    } else {
      remember(elt);
      queue.push({ param: null });
    }
    status(false);
  });
  document.addEventListener("htmx:configRequest", function (event) {
    if (extra && forApp(event.detail)) event.detail.parameters.append(extra[0], extra[1]);
    extra = null;
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (!forApp(event.detail)) return;
    busy = true;
    status(false);
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!forApp(event.detail)) return;
    busy = false;
    if (!event.detail.successful) { queue = []; status(true); return; }  // nothing changed: the player taps again
    queueMicrotask(next);  // after htmx has released the request
  });
  document.addEventListener("input", function (event) {
    if (busy && event.target.type !== "radio" && event.target.closest && event.target.closest("#app")) remember(event.target);
  });
  // A radio tapped while the page is stale (碰, 5p, 碰, 中 before the first answer) may already look
  // checked, so no change comes: the tap itself is what counts.
  document.addEventListener("click", function (event) {
    var t = event.target;
    if (!busy || !t || t.type !== "radio" || !t.closest || !t.closest("#app")) return;
    remember(t);
    if (t.classList.contains("auto")) queue.push({ param: null });
    status(false);
  }, true);
  // A change to an .auto control (rules, options, draws …) asks again at once. Done here, not with an
  // htmx trigger filter, because a filter is evaluated as a string, which the Content-Security-Policy forbids.
  document.addEventListener("change", function (event) {
    var t = event.target;
    if (busy && t && t.type === "radio") return;  // counted by its click
    if (busy && t && t.closest && t.closest("#app")) remember(t);
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
