// Every way an arrangement wins ("any single line": the five rows, the five columns and both
// diagonals) is drawn by templates/games/_pictures.html, one picture over the other; this shows
// them in turn, on the flashboard and on the caller's console alike, by moving the "is-shown"
// class (a class, not a style: the pages' CSP allows no inline style). The pictures are looked
// up at each turn, so a picture swapped in by htmx (the board, the console's live panel) cycles
// too. A pointer resting on a picture holds it still (to look at one way closely).
(function () {
  setInterval(function () {
    document.querySelectorAll(".arr-cycle").forEach(function (cycle) {
      var pictures = cycle.children;
      if (pictures.length < 2 || cycle.matches(":hover")) return;
      var shown = cycle.querySelector(".is-shown");
      var next = (shown && shown.nextElementSibling) || pictures[0];
      if (shown) shown.classList.remove("is-shown");
      next.classList.add("is-shown");
    });
  }, 1500);
})();
