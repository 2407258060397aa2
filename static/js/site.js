/* Site-wide behaviour for htmx requests (no inline script: the CSP allows none).
 *
 * 1. The CSRF token is read from the csrftoken cookie when each request is sent, so a page
 *    opened before a log-in in another tab (which rotates the token) can still answer.
 * 2. A form marked data-retry (the drill and quiz answers) is sent again, with exactly the same
 *    fields — the same attempt id, so it never counts twice — when the request did not reach
 *    the app (no connection) or a proxy answered 502, 503 or 504 (a server being restarted).
 * 3. A moment the server wrote in its own time with its offset (<time datetime data-local>, the {% when %} tag) is
 *    written again in the visitor's time and zone ("2026-12-04 07:16 UTC−5", the zone's name on hover).
 * 4. A form marked data-swap-refusals (the report of a bad drill) shows a refusal it is answered with
 *    (400: a field's message; 429: too many, try later) in its target, as a success would be.
 */
(function () {
  "use strict";
  var RETRIES = 4;
  var RETRY_STATUS = [502, 503, 504];

  function cookie(name) {
    var match = document.cookie.match(new RegExp("(?:^|; )" + name + "=([^;]*)"));
    return match ? decodeURIComponent(match[1]) : null;
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var token = cookie("csrftoken");
    if (!token) return;
    event.detail.headers["X-CSRFToken"] = token;
    if (event.detail.parameters.csrfmiddlewaretoken) event.detail.parameters.csrfmiddlewaretoken = token;  // Django reads the form field first
  });

  function retry(event) {
    var config = event.detail.requestConfig;
    var elt = event.detail.elt;
    var form = elt && elt.closest ? elt.closest("form[data-retry]") : null;
    if (!form || !config) return;
    var tries = Number(form.dataset.tries || 0);
    if (tries >= RETRIES) return;
    form.dataset.tries = String(tries + 1);
    var values = {};
    config.formData.forEach(function (value, key) { values[key] = value; });
    window.setTimeout(function () {
      window.htmx.ajax(config.verb.toUpperCase(), config.path, {
        source: form, target: config.target, swap: form.getAttribute("hx-swap") || "outerHTML", values: values,
      });
    }, 300 * Math.pow(2, tries));
  }

  function two(n) { return (n < 10 ? "0" : "") + n; }

  function localTimes(root) {
    Array.prototype.forEach.call(root.querySelectorAll("time[data-local]"), function (el) {
      var at = new Date(el.getAttribute("datetime"));
      if (isNaN(at.getTime())) return;
      var minutes = -at.getTimezoneOffset();
      var zone = "UTC" + (minutes >= 0 ? "+" : "\u2212") + Math.floor(Math.abs(minutes) / 60) + (Math.abs(minutes) % 60 ? ":" + two(Math.abs(minutes) % 60) : "");
      el.textContent = at.getFullYear() + "-" + two(at.getMonth() + 1) + "-" + two(at.getDate()) + " " + two(at.getHours()) + ":" + two(at.getMinutes()) + " " + zone;
      var name = window.Intl && Intl.DateTimeFormat().resolvedOptions().timeZone;
      if (name) el.title = name;
      el.removeAttribute("data-local");
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { localTimes(document); });
  else localTimes(document);
  document.addEventListener("htmx:afterSwap", function (event) { localTimes(event.detail.target); });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    var config = event.detail.requestConfig;
    var elt = config ? config.elt : null;  // the element that sent the request (the event's own elt is its target)
    var form = elt && elt.closest ? elt.closest("form[data-swap-refusals]") : null;
    if (form && (status === 400 || status === 429)) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  document.addEventListener("htmx:sendError", retry);
  document.addEventListener("htmx:responseError", function (event) {
    if (RETRY_STATUS.indexOf(event.detail.xhr.status) >= 0) retry(event);
  });
})();
