// Every way an arrangement wins ("any single line": the five rows, the five columns and both
// diagonals) is drawn by templates/games/_pictures.html, one picture over the other; this shows
// them in turn, on the flashboard and on the caller's console alike, by moving the "is-shown"
// class (a class, not a style: the pages' CSP allows no inline style). The pictures are looked
// up at each turn, so a picture swapped in by htmx (the board, the console's live panel) cycles
// too. A picture holds still while a pointer rests on it or it has the keyboard's focus, and a
// click, Enter or Space holds it until the next (WCAG 2.2.2: moving content can be paused).
(function () {
  function held(cycle) {
    return cycle.matches(":hover, :focus") || cycle.getAttribute("aria-pressed") === "true";
  }
  setInterval(function () {
    document.querySelectorAll(".arr-cycle").forEach(function (cycle) {
      var pictures = cycle.children;
      if (pictures.length < 2 || held(cycle)) return;
      var shown = cycle.querySelector(".is-shown");
      var next = (shown && shown.nextElementSibling) || pictures[0];
      if (shown) shown.classList.remove("is-shown");
      next.classList.add("is-shown");
    });
  }, 1500);
  function toggle(cycle) {
    var pressed = cycle.getAttribute("aria-pressed") === "true";
    cycle.setAttribute("aria-pressed", pressed ? "false" : "true");
  }
  document.addEventListener("click", function (event) {
    var cycle = event.target.closest && event.target.closest(".arr-cycle[aria-pressed]");
    if (cycle) toggle(cycle);
  });
  document.addEventListener("keydown", function (event) {
    var cycle = event.target.closest && event.target.closest(".arr-cycle[aria-pressed]");
    if (cycle && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      toggle(cycle);
    }
  });
})();
