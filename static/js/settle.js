// Settlement forms, progressive enhancement only (every form works without it):
// keep the player pickers' labels in step with the names typed above them, and keep a filled
// form across the language switch (which reloads the page).
(function () {
  "use strict";
  var KEY = "kwx-settle-form:";
  var FORMS = "form.st-form, form.st-sheet-form";
  var touched = false;

  function sync(input) {
    var seat = input.name.slice(-1);
    var form = input.form;
    var name = input.value.trim() || input.defaultValue.trim();
    if (!form || !name) return;
    form.querySelectorAll("select option[value='" + seat + "']").forEach(function (option) {
      if (option.parentElement.name.indexOf("piao_") !== 0) option.textContent = name;
    });
  }

  function save() {
    var form = document.querySelector(FORMS);
    if (!form || !touched) return;
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken" && typeof value === "string") fields.push([name, value]);
    });
    try { sessionStorage.setItem(KEY + location.pathname, JSON.stringify(fields)); } catch (e) { /* storage off: nothing kept */ }
  }

  function apply(form, values) {
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.name === "csrfmiddlewaretoken" || el.type === "submit" || el.type === "button") return;
      var given = values[el.name] || [];
      if (el.type === "checkbox" || el.type === "radio") {
        el.checked = given.indexOf(el.value) >= 0;
      } else if (el.name in values) {
        el.value = given[0];
      }
    });
    form.querySelectorAll("input[name^='name_']").forEach(sync);
  }

  function restore() {
    var form = document.querySelector(FORMS);
    var stored;
    try { stored = sessionStorage.getItem(KEY + location.pathname); sessionStorage.removeItem(KEY + location.pathname); } catch (e) { return; }
    if (!form || !stored) return;
    var values = {};
    JSON.parse(stored).forEach(function (pair) { (values[pair[0]] = values[pair[0]] || []).push(pair[1]); });
    var rules = form.querySelector("#st-rules");
    var shown = form.elements.rules_shown ? form.elements.rules_shown.value : "";
    apply(form, values);
    touched = true;
    if (!window.htmx || !form.getAttribute("hx-post")) return;
    if (rules && (values.rules || [shown])[0] !== shown) {
      // other rules than the page was drawn with: draw the fields they ask for, then fill those in too
      document.body.addEventListener("htmx:afterSettle", function again() {
        document.body.removeEventListener("htmx:afterSettle", again);
        var fresh = document.querySelector(FORMS);
        if (!fresh) return;
        apply(fresh, values);
        window.htmx.trigger(fresh, "change");
      });
      setTimeout(function () { window.htmx.trigger(rules, "change"); }, 0);
      return;
    }
    setTimeout(function () { window.htmx.trigger(form, "change"); }, 0);  // the result again, in the new language
  }

  function edited(event) {
    var t = event.target;
    if (!t || !t.form || !t.form.matches(FORMS)) return;
    touched = true;
    if (/^name_[012]$/.test(t.name || "")) sync(t);
  }
  document.addEventListener("input", edited);
  document.addEventListener("change", edited);
  document.addEventListener("submit", function (event) {
    if (event.target.matches && event.target.matches("form.lang")) save();
  }, true);
  if (document.readyState === "complete") restore(); else document.addEventListener("DOMContentLoaded", restore);
})();
