// The caller's console: the letter of the number typed is shown before Enter (42 → N42), and
// the number box takes the focus back after every call, correction or refusal.
(function () {
  var LETTERS = "BINGO";
  function preview() {
    var input = document.getElementById("id_ball");
    var out = document.getElementById("draw-preview");
    if (!input || !out) return;
    var m = /^\s*([bingoBINGO])?\s*(\d{1,3})\s*$/.exec(input.value);
    var n = m ? parseInt(m[2], 10) : 0;
    out.textContent = n >= 1 && n <= 75 ? LETTERS[Math.floor((n - 1) / 15)] + n : "";
  }
  document.addEventListener("input", function (evt) {
    if (evt.target && evt.target.id === "id_ball") preview();
  });
  // Opening a call's "Correct" puts the cursor in its reason box.
  document.addEventListener(
    "toggle",
    function (evt) {
      var details = evt.target;
      if (details.classList && details.classList.contains("draw-correct") && details.open) {
        var reason = details.querySelector("input[name=reason]");
        if (reason) reason.focus();
      }
    },
    true
  );
  // A ball recorded is answered with the board's delta alone (the form stays in place): the
  // box is readied for the next ball, unless the caller typed in it while this one was on its
  // way (floor.js marks it data-floor-touched; that is the next ball).
  document.body.addEventListener("ballCalled", function () {
    var input = document.getElementById("id_ball");
    if (input && !input.hasAttribute("data-floor-touched")) {
      input.value = "";
      preview();
    }
  });
  document.body.addEventListener("htmx:afterSettle", function () {
    var input = document.getElementById("id_ball");
    var open = document.querySelector(".draw-correct[open] input");
    if (open) open.focus();
    else if (input) input.focus();
  });
})();
