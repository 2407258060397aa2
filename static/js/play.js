// The play table by keyboard (progressive enhancement; every button works without it).
//
// Focus stays on the hand: after the page loads and after every htmx swap of #table the
// default choice is focused — the drawn tile on your turn (Enter discards it), else the first
// tile you may discard, else 胡 or 过 on another seat's tile, and "Next hand" once the hand is
// over. ← → (and Home / End) move along the hand, one tab stop for the whole hand. One key per
// choice: H 胡, K 杠, P 碰, G 过, L 亮倒 (the focused tile's declare button; else the first one).
// A key that names several buttons (two kongs) focuses the next of them; Enter presses it.
// A refused move's answer (409, 400) is swapped in like any other, so its message shows.
(function () {
  "use strict";
  var KEYS = { h: ".pl-win", k: ".pl-kong", p: ".pl-pong", g: ".pl-pass", l: ".pl-declare" };

  function table() { return document.getElementById("table"); }

  function handButtons() {
    var t = table();
    return t ? Array.prototype.slice.call(t.querySelectorAll(".pl-hand button.tile-button")) : [];
  }

  function rove(target) {
    handButtons().forEach(function (b) { b.tabIndex = b === target ? 0 : -1; });
  }

  function focus(el) {
    if (!el) return;
    if (el.classList.contains("tile-button")) rove(el);
    el.focus();
  }

  function defaultChoice() {
    var t = table();
    if (!t) return null;
    var buttons = handButtons();
    return t.querySelector(".pl-hand button.pl-drawn") || buttons[0] || t.querySelector(".pl-win") ||
      t.querySelector(".pl-pass") || t.querySelector(".pl-act") || document.getElementById("next-hand");
  }

  function settle() {
    var active = document.activeElement;
    var t = table();
    if (!t) return;
    var buttons = handButtons();
    if (buttons.length) rove(buttons.indexOf(active) >= 0 ? active : (t.querySelector(".pl-hand button.pl-drawn") || buttons[0]));
    if (active && active !== document.body && document.documentElement.contains(active)) return;  // the player is elsewhere (a select, a link): leave them there
    focus(defaultChoice());
  }

  function typing(el) {
    return el && (el.tagName === "INPUT" || el.tagName === "SELECT" || el.tagName === "TEXTAREA" || el.isContentEditable);
  }

  document.addEventListener("keydown", function (event) {
    var t = table();
    if (!t || event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) return;
    var buttons = handButtons();
    var at = buttons.indexOf(document.activeElement);
    var key = event.key;
    if (at >= 0 && (key === "ArrowRight" || key === "ArrowLeft" || key === "ArrowDown" || key === "ArrowUp" || key === "Home" || key === "End")) {
      var next = key === "Home" ? 0 : key === "End" ? buttons.length - 1 :
        (at + (key === "ArrowRight" || key === "ArrowDown" ? 1 : -1) + buttons.length) % buttons.length;
      focus(buttons[next]);
      event.preventDefault();
      return;
    }
    var selector = KEYS[key.toLowerCase()];
    if (!selector) return;
    var choices = Array.prototype.slice.call(t.querySelectorAll(".pl-actions " + selector));
    if (!choices.length) return;
    event.preventDefault();
    if (key.toLowerCase() === "l" && at >= 0) {  // 亮倒 with the focused tile, when it may be declared with
      var tile = buttons[at].value.split(" ")[1];
      var mine = choices.filter(function (b) { return b.value === "discard " + tile + " ld"; })[0];
      if (mine) { mine.click(); return; }
    }
    if (choices.length === 1) { choices[0].click(); return; }
    var index = choices.indexOf(document.activeElement);
    focus(choices[(index + 1) % choices.length]);
  });

  // A refused move (409: a stale tab or a repeat; 400: not a choice now) answers with the table and the reason: show it.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    if ((status === 409 || status === 400) && event.detail.target && event.detail.target.id === "table") {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  // The message of a move that changed nothing is said once: a reload does not say it again.
  if (window.location.search.indexOf("stale=1") >= 0 && window.history.replaceState) {
    window.history.replaceState(null, "", window.location.pathname + window.location.search.replace(/[?&]stale=1/, "").replace(/^&/, "?"));
  }

  document.addEventListener("htmx:afterSettle", settle);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", settle);
  else settle();
})();
