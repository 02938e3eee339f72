// The caller's console: the letter of the number typed is shown before Enter (42 → N42), and
// the number box takes the focus back after every call, correction or refusal. By keyboard, a
// wrong ball is corrected in a few keys: Alt+C opens the last ball's correction (Esc puts it
// away), and the 75 balls of the board are one stop of the Tab key, the arrow keys going from
// ball to ball (a "roving" tab stop), so the calls after the board are a few Tabs away.
(function () {
  var LETTERS = "BINGO";
  var ROW = 15;
  var MOVES = {ArrowRight: 1, ArrowLeft: -1, ArrowDown: ROW, ArrowUp: -ROW};
  var stop = 1; // the ball the board's Tab stop is on: the first, or the one last reached

  function balls() {
    return document.querySelectorAll("form.draw-board button.draw-ball");
  }
  // Every ball out of the Tab order but one; again after each swap, which brings balls anew.
  function rove() {
    balls().forEach(function (ball) {
      ball.tabIndex = parseInt(ball.value, 10) === stop ? 0 : -1;
    });
  }
  function isBall(element) {
    return element && element.tagName === "BUTTON" && element.classList.contains("draw-ball");
  }
  function onBoard(evt) {
    var ball = evt.target;
    if (!isBall(ball)) return;
    var n = parseInt(ball.value, 10);
    var first = n - ((n - 1) % ROW);
    var to;
    if (Object.prototype.hasOwnProperty.call(MOVES, evt.key)) to = n + MOVES[evt.key];
    else if (evt.key === "Home") to = first;
    else if (evt.key === "End") to = first + ROW - 1;
    else return;
    evt.preventDefault(); // the arrows move on the board, never scroll the page
    var along = evt.key === "ArrowLeft" || evt.key === "ArrowRight";
    if (along && (to < first || to >= first + ROW)) return; // a row's end: no wrapping
    var next = document.getElementById("draw-ball-" + to);
    if (isBall(next)) next.focus();
  }
  // The newest call still standing is the first "Correct" of the list (newest first).
  function correctLast(evt) {
    var last = document.querySelector("#draw-calls-body .draw-correct");
    if (!last) return;
    evt.preventDefault();
    last.scrollIntoView({block: "nearest"});
    if (last.open) last.querySelector("input[name=reason]").focus();
    else last.open = true; // its toggle puts the cursor in the reason
  }
  document.addEventListener("keydown", function (evt) {
    if (evt.altKey && evt.code === "KeyC" && !evt.ctrlKey && !evt.metaKey && !evt.shiftKey) {
      correctLast(evt);
      return;
    }
    var open = evt.key === "Escape" && evt.target.closest && evt.target.closest(".draw-correct");
    if (open) {
      evt.preventDefault();
      open.open = false;
      var input = document.getElementById("id_ball");
      if (input) input.focus();
      return;
    }
    onBoard(evt);
  });
  document.addEventListener("focusin", function (evt) {
    if (!isBall(evt.target)) return;
    stop = parseInt(evt.target.value, 10);
    rove();
  });
  document.body.addEventListener("htmx:oobAfterSwap", rove);
  rove();
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
    rove();
    var input = document.getElementById("id_ball");
    var open = document.querySelector(".draw-correct[open] input");
    if (open) open.focus();
    else if (input) input.focus();
  });
})();
