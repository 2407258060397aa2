// Settlement forms: keep the player pickers' labels in step with the names typed above them.
(function () {
  "use strict";
  function sync(input) {
    var seat = input.name.slice(-1);
    var form = input.form;
    if (!form || !input.value.trim()) return;
    form.querySelectorAll("select option[value='" + seat + "']").forEach(function (option) {
      if (option.parentElement.name.indexOf("piao_") !== 0) option.textContent = input.value.trim();
    });
  }
  document.addEventListener("input", function (event) {
    var t = event.target;
    if (t && /^name_[012]$/.test(t.name || "")) sync(t);
  });
})();
