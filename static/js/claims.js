/* The claims page reads its two forms as they are typed (games/claims.html; no inline script,
   the pages' CSP allows none). The server decides in both cases; this only shows beforehand what
   it will decide, from what the page was given.

   - The card's grid (form[data-card-check]): its table carries the balls that count for the
     claim (data-card-counted) and each way the arrangement wins with its name
     (data-card-variants, [[name, [squares]], …]). A square whose number was drawn is shaded, the
     way the numbers cover is outlined and named; fewer than the 24 numbers are the
     arrangement's squares (a number typed and not drawn is marked), all 24 the whole card.
   - The claim's ball in hand (form[data-last-call]): the balls keyed in (data-calls) say what an
     unanswered "Had the caller started to call it out?" will be taken as, and a ball called
     earlier, which the rules refuse. */
(function () {
  "use strict";

  var WHOLE_CARD = 24;

  function label(n) {
    return "BINGO".charAt(Math.floor((n - 1) / 15)) + n;
  }

  function wholeNumber(value) {
    value = (value || "").trim();
    return /^[0-9]{1,2}$/.test(value) ? parseInt(value, 10) : null;
  }

  function scopeText(typed, found) {
    var text;
    if (typed === 0) {
      return "Type the arrangement's squares, each of which must have been drawn; or all 24 " +
        "numbers: checked as the whole card, where a number not drawn is simply not covered.";
    }
    if (typed >= WHOLE_CARD) {
      text = "All 24 numbers typed: checked as the whole card; a number not drawn is simply " +
        "not covered.";
    } else {
      text = typed + (typed === 1 ? " number" : " numbers") + " typed: checked as the " +
        "arrangement's squares, each of which must have been drawn. All 24: the whole card.";
    }
    return text + (found ? " Found: " + found[0] + "." : "");
  }

  function readCard(form) {
    var table = form.querySelector("[data-card-variants]");
    if (!table) return;
    var drawn = {};
    (table.getAttribute("data-card-counted") || "").split(" ").forEach(function (n) {
      if (n) drawn[n] = true;
    });
    var variants;
    try {
      variants = JSON.parse(table.getAttribute("data-card-variants") || "[]");
    } catch (error) {
      variants = [];
    }
    var cells = table.querySelectorAll("td[data-square]");
    var covered = { N3: true };
    var typed = 0;
    cells.forEach(function (td) {
      var input = td.querySelector("input");
      var number = input ? wholeNumber(input.value) : null;
      if (input && input.value.trim()) typed += 1;
      var isDrawn = number !== null && drawn[number] === true;
      if (isDrawn) covered[td.getAttribute("data-square")] = true;
      if (input) td.classList.toggle("is-covered", isDrawn);
    });
    var whole = typed >= WHOLE_CARD;
    var found = null;
    for (var i = 0; i < variants.length && !found; i += 1) {
      if (variants[i][1].every(function (square) { return covered[square]; })) {
        found = variants[i];
      }
    }
    cells.forEach(function (td) {
      var input = td.querySelector("input");
      var square = td.getAttribute("data-square");
      td.classList.toggle("is-found", !!found && found[1].indexOf(square) !== -1);
      if (input) {
        td.classList.toggle(
          "is-not-drawn", !whole && input.value.trim() !== "" && !covered[square]
        );
      }
    });
    var scope = form.querySelector("[data-card-scope]");
    if (scope) scope.textContent = scopeText(typed, found);
  }

  function hintBegun(form) {
    var hint = form.querySelector("[data-begun-hint]");
    var input = form.querySelector("input[name=ball_in_hand]");
    if (!hint || !input) return;
    var ball = wholeNumber(input.value);
    if (ball === null || ball < 1 || ball > 75) {
      hint.textContent = "";
      return;
    }
    var calls = (form.getAttribute("data-calls") || "").split(" ").filter(Boolean);
    var last = form.getAttribute("data-last-call");
    if (String(ball) === last) {
      hint.textContent = label(ball) + " is the last ball keyed in: unanswered, its calling " +
        "had begun and it counts.";
    } else if (calls.indexOf(String(ball)) !== -1) {
      hint.textContent = label(ball) + " was called earlier in this game: it cannot be in the " +
        "caller's hand.";
    } else {
      hint.textContent = label(ball) + " is not keyed in: unanswered, its calling had not " +
        "begun and it does not count.";
    }
  }

  document.addEventListener("input", function (event) {
    var target = event.target;
    if (!target.closest) return;
    var card = target.closest("form[data-card-check]");
    if (card) readCard(card);
    var claim = target.closest("form[data-last-call]");
    if (claim && target.name === "ball_in_hand") hintBegun(claim);
  });

  function readAll() {
    // A card found invalid comes back with its numbers: shown as read at once.
    document.querySelectorAll("form[data-card-check]").forEach(readCard);
    document.querySelectorAll("form[data-last-call]").forEach(hintBegun);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", readAll);
  } else {
    readAll();
  }
  // The claim form is swapped whole by htmx after a refusal: its hint is said again.
  document.addEventListener("htmx:afterSettle", readAll);
})();
