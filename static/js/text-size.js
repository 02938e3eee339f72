// The larger-text setting of the account page, remembered by this browser (the hall laptop),
// not by the login: whoever sits at it next sees the same size. Loaded in <head> without defer
// so a page never flashes at the small size first.
//   data-text-size-choice="normal|large|largest"   on a button: chooses the size
(function () {
  "use strict";
  var KEY = "beano-text-size";
  var SIZES = ["normal", "large", "largest"];

  function stored() {
    try {
      var value = window.localStorage.getItem(KEY);
      return SIZES.indexOf(value) >= 0 ? value : "normal";
    } catch (e) {
      return "normal";  // storage refused (a private window): the normal size
    }
  }

  function apply(size) {
    document.documentElement.setAttribute("data-text-size", size);
    document.querySelectorAll("[data-text-size-choice]").forEach(function (button) {
      button.setAttribute("aria-pressed", String(button.getAttribute("data-text-size-choice") === size));
    });
  }

  apply(stored());
  document.addEventListener("DOMContentLoaded", function () { apply(stored()); });
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-text-size-choice]");
    if (!button) return;
    var size = button.getAttribute("data-text-size-choice");
    try { window.localStorage.setItem(KEY, size); } catch (e) { /* kept for this page only */ }
    apply(size);
  });
})();
