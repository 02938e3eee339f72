// A button marked data-print prints the page (the policy allows no inline onclick).
document.addEventListener("click", function (event) {
  if (event.target.closest("[data-print]")) {
    window.print();
  }
});
