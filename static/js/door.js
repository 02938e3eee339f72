/* The door-sales screen: the amount due as boxes are typed, the two kinds of sale, and the
   cursor back in the first box after each sale. The server decides everything; without this
   script the form still works (boxes and a receipt number). */
(function () {
  "use strict";

  function form() { return document.getElementById("sale-form"); }
  function receiptBox() { return document.getElementById("id_admission_receipt"); }
  function admissionBoxes() { return document.querySelectorAll(".door-qty[data-category='admission']"); }
  function extraBoxes() { return document.querySelectorAll(".door-qty:not([data-category='admission'])"); }

  function cents(text) {
    var parts = String(text).split(".");
    return parseInt(parts[0], 10) * 100 + parseInt((parts[1] || "0").padEnd(2, "0").slice(0, 2), 10);
  }

  function refresh() {
    var f = form();
    if (!f) return;
    var due = 0;
    f.querySelectorAll(".door-qty").forEach(function (box) {
      var n = parseInt(box.value, 10);
      if (n > 0) due += n * cents(box.dataset.price);
    });
    var out = document.getElementById("door-due");
    if (out) out.textContent = "$" + (due / 100).toFixed(2);
    var receipt = receiptBox();
    var againstReceipt = receipt && receipt.value.trim() !== "";
    f.querySelectorAll(".door-mode").forEach(function (b) {
      b.classList.toggle("active", (b.dataset.doorMode === "receipt") === againstReceipt);
    });
  }

  function focusFirstExtra() {
    var first = extraBoxes()[0];
    if (first) { first.focus(); first.select(); }
  }

  function setMode(mode, receiptNumber) {
    var receipt = receiptBox();
    admissionBoxes().forEach(function (box) { box.value = mode === "new" ? "1" : ""; });
    if (receipt) receipt.value = mode === "new" ? "" : (receiptNumber || receipt.value);
    refresh();
    if (mode === "receipt" && receipt && !receipt.value) { receipt.focus(); } else { focusFirstExtra(); }
  }

  document.addEventListener("input", function (event) {
    var target = event.target;
    if (target === receiptBox()) {
      // Extras against a paid admission carry no admission of their own (961 CMR 3.04(5)(b)).
      admissionBoxes().forEach(function (box) { box.value = target.value.trim() ? "" : "1"; });
    }
    if (target.closest && target.closest("#sale-form")) refresh();
  });

  document.addEventListener("focusin", function (event) {
    if (event.target.classList && event.target.classList.contains("door-qty")) event.target.select();
  });

  document.addEventListener("click", function (event) {
    var mode = event.target.closest("[data-door-mode]");
    if (mode) { setMode(mode.dataset.doorMode); return; }
    var extras = event.target.closest("[data-extras-for]");
    if (extras) { setMode("receipt", extras.dataset.extrasFor); }
  });

  // After a sale, the panel (and the receipt just recorded) is brought out from under the sticky
  // occasion header if the page was scrolled, e.g. by pressing "+ extras" low in the list.
  function panelInView() {
    var panel = document.getElementById("sale-panel");
    var header = document.querySelector(".occasion-header");
    if (!panel || !header) return;
    var hidden = header.getBoundingClientRect().bottom - panel.getBoundingClientRect().top;
    if (hidden > 0) window.scrollBy(0, -(hidden + 8));
  }

  document.body.addEventListener("htmx:afterSwap", refresh);
  document.body.addEventListener("htmx:afterSettle", function (event) {
    if (event.target.id === "sale-panel") panelInView();
  });
  refresh();
})();
