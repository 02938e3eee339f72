/* The door-sales screen: the amount due as boxes are typed, the two kinds of sale, and the
   boxes readied for the next player after each sale. The server decides everything; without
   this script the form still works (boxes and a receipt number).

   The boxes are never replaced by the server's answer (it brings the receipt, the counts and the
   recent sales out of band): a box typed in while a sale was saving is marked by floor.js
   (data-floor-touched) and belongs to the next player, so only the other boxes are readied
   (one admission, the rest blank). Enter pressed during the save, after typing the next sale,
   sends it as soon as the one before is recorded. The attendance typed by the member in charge
   stays in its box through the sales' answers until it is announced.

   Enter pressed again with nothing new typed, within a moment of a receipt (a bounce, a habit
   of pressing twice), sells nothing and says so. "Nothing new typed": since the receipt was
   shown, no key typed in any box of the sale (a box typed while the sale saved is the next
   player's, so it counts), no kind of sale chosen, no "+ extras" pressed; moving between boxes
   is not typing. Two admissions alone in a row: Enter once the moment has passed (a player
   paying takes longer), or at once after "New admission" (Alt+N) or typing in a box. The
   press is not sent; if it were, it carries the receipt it repeats (repeat_of) and the server
   sells nothing either.

   The boxes are text boxes for digits: what was typed stays as typed ("e5" is not emptied by
   the browser), a box that is not a whole number is marked as it is typed, and the server
   refuses it in place. */
(function () {
  "use strict";

  var TOUCHED = "data-floor-touched";
  var WHOLE = /^\s*[0-9]*\s*$/;
  var focusAtSend = null;
  var sendNext = false;
  var pressedWhileSaving = false;
  var repeatTimer = null;

  function form() { return document.getElementById("sale-form"); }
  function receiptBox() { return document.getElementById("id_admission_receipt"); }
  function admissionBoxes() { return document.querySelectorAll(".door-qty[data-category='admission']"); }
  function extraBoxes() { return document.querySelectorAll(".door-qty:not([data-category='admission'])"); }
  function saving() { var f = form(); return !!f && f.hasAttribute("data-floor-sending"); }
  function isSaleForm(elt) { return !!elt && elt.id === "sale-form"; }
  function repeatBox() { var f = form(); return f ? f.querySelector("input[name=repeat_of]") : null; }

  // For a moment after receipt N is shown, with nothing new typed, a sale sent would be N again.
  function armRepeat(receipt) {
    var f = form();
    var box = repeatBox();
    if (!box || !receipt) return;
    box.value = String(receipt);
    window.clearTimeout(repeatTimer);
    repeatTimer = window.setTimeout(disarmRepeat, parseInt(f.dataset.doorMoment, 10) || 0);
  }

  function disarmRepeat() {
    window.clearTimeout(repeatTimer);
    var box = repeatBox();
    if (box) box.value = "";
  }

  // Something new typed or chosen: the sale it makes is no repeat, and the note is done with.
  function somethingNew() {
    disarmRepeat();
    var note = document.querySelector("#sale-result [data-door-repeat]");
    if (note) note.remove();
  }

  function alreadySold(receipt) {
    var f = form();
    var result = document.getElementById("sale-result");
    if (!f || !result || !receipt) return;
    var note = result.querySelector("[data-door-repeat]");
    if (!note) {
      note = document.createElement("div");
      note.className = "alert alert-warning py-2 mb-2";
      note.setAttribute("role", "alert");
      note.setAttribute("data-door-repeat", "");
      result.appendChild(note);
    }
    note.textContent = f.dataset.doorAlreadySold.replace("{receipt}", receipt);
  }

  function markBox(box, wrong) {
    box.classList.toggle("is-invalid", wrong);
    if (wrong) box.setAttribute("aria-invalid", "true"); else box.removeAttribute("aria-invalid");
  }

  // A value set here while a sale is saving was asked for by a key or a click meant for the next
  // player, like a value typed: it is marked so.
  function put(box, value) {
    box.value = value;
    if (saving()) box.setAttribute(TOUCHED, "");
  }

  function cents(text) {
    var parts = String(text).split(".");
    return parseInt(parts[0], 10) * 100 + parseInt((parts[1] || "0").padEnd(2, "0").slice(0, 2), 10);
  }

  // An amount in whole cents as people read it, as beano.rules.money.usd writes it: $1,234.56,
  // a negative one in parentheses, ($12.00). Whole cents, so no binary fraction creeps in.
  function usd(cents) {
    var abs = Math.abs(cents);
    var dollars = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    var text = "$" + dollars + "." + String(abs % 100).padStart(2, "0");
    return cents < 0 ? "(" + text + ")" : text;
  }

  function refresh() {
    var f = form();
    if (!f) return;
    var due = 0;
    var known = true;
    f.querySelectorAll(".door-qty").forEach(function (box) {
      if (!WHOLE.test(box.value)) { known = false; return; }
      var n = parseInt(box.value, 10);
      if (n > 0) due += n * cents(box.dataset.price);
    });
    var out = document.getElementById("door-due");
    // A box that is not a whole number has no amount: none is shown until it is put right.
    if (out) out.textContent = known ? usd(due) : "—";
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
    somethingNew(); // a kind of sale chosen
    admissionBoxes().forEach(function (box) { put(box, mode === "new" ? "1" : ""); });
    if (receipt) put(receipt, mode === "new" ? "" : (receiptNumber || receipt.value));
    refresh();
    if (mode === "receipt" && receipt && !receipt.value) { receipt.focus(); } else { focusFirstExtra(); }
  }

  function say(text) {
    var out = document.getElementById("door-next");
    if (out) out.textContent = text;
  }

  // Where the cursor goes after an answer: where the seller asked for it (the first extra box,
  // or the first box refused), unless they moved on or typed meanwhile, in the form or in a box
  // outside it (the attendance): then it stays put.
  function mayMoveFocus() {
    var f = form();
    var active = document.activeElement;
    if (active && !f.contains(active) && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName)) {
      return false;
    }
    if (!active || !f.contains(active) || active.tagName === "BUTTON") return true;
    return active === focusAtSend && !active.hasAttribute(TOUCHED);
  }

  // The sale is recorded: the boxes it used are readied for the next player; the boxes typed in
  // meanwhile are the next player's already.
  function readyForNext(event) {
    var f = form();
    if (!f) return;
    var typedMeanwhile = !!f.querySelector("[" + TOUCHED + "]");
    var recorded = event && event.detail ? event.detail.receipt : null;
    var receipt = receiptBox();
    var receiptKept = receipt && receipt.hasAttribute(TOUCHED) && receipt.value.trim() !== "";
    f.querySelectorAll(".door-qty").forEach(function (box) {
      if (box.hasAttribute(TOUCHED)) return;
      box.value = box.dataset.category === "admission" && !receiptKept ? "1" : "";
    });
    if (receipt && !receipt.hasAttribute(TOUCHED)) receipt.value = "";
    refresh();
    if (mayMoveFocus()) focusFirstExtra();
    panelInView();
    if (typedMeanwhile || sendNext) {
      disarmRepeat();
    } else {
      armRepeat(recorded);
      if (pressedWhileSaving) alreadySold(recorded);
    }
    pressedWhileSaving = false;
    if (sendNext) {
      sendNext = false;
      say("");
      window.setTimeout(function () { f.requestSubmit(); }, 0);
    }
  }

  // A refusal names the boxes in error (data-invalid on #sale-result): they are marked, and the
  // cursor goes to the first, unless the seller is typing elsewhere.
  function markInvalid() {
    var f = form();
    var result = document.getElementById("sale-result");
    if (!f || !result) return;
    var names = (result.getAttribute("data-invalid") || "").split(" ").filter(Boolean);
    var first = null;
    f.querySelectorAll("input[name]").forEach(function (box) {
      var wrong = names.indexOf(box.name) >= 0;
      markBox(box, wrong);
      if (wrong && !first && box.type !== "hidden") first = box;
    });
    if (first && mayMoveFocus()) { first.focus(); first.select(); }
  }

  document.addEventListener("input", function (event) {
    var target = event.target;
    if (!target.closest || !target.closest("#sale-form")) return;
    somethingNew();
    if (target === receiptBox()) {
      // Extras against a paid admission carry no admission of their own (961 CMR 3.04(5)(b)).
      admissionBoxes().forEach(function (box) { put(box, target.value.trim() ? "" : "1"); });
    }
    if (target === receiptBox() || target.classList.contains("door-qty")) {
      markBox(target, !WHOLE.test(target.value));
    }
    refresh();
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

  // Enter while a sale saves: once the next sale is typed, it goes when this one is recorded.
  document.addEventListener("keydown", function (event) {
    var f = form();
    if (event.key !== "Enter" || !f || !saving() || !f.contains(event.target)) return;
    if (event.target.tagName === "BUTTON") return;
    event.preventDefault();
    if (f.querySelector("[" + TOUCHED + "]")) {
      sendNext = true;
      say("The next sale goes as soon as this one is recorded.");
    } else {
      pressedWhileSaving = true; // the same press again: said once this sale is recorded
    }
  });

  // A sale sent within the moment after a receipt, nothing new typed: not sent (before htmx,
  // which listens on the form, and before the browser's own post).
  document.addEventListener(
    "submit",
    function (event) {
      var box = repeatBox();
      if (!isSaleForm(event.target) || !box || !box.value) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      alreadySold(box.value);
    },
    true
  );

  document.body.addEventListener("htmx:beforeRequest", function (event) {
    if (isSaleForm(event.detail.elt)) focusAtSend = document.activeElement;
  });

  document.body.addEventListener("doorSaleRecorded", readyForNext);

  // Offline, a sale is kept on the laptop (offline.js says so in #sale-result): its boxes are
  // readied for the next player as for a receipt, with no receipt to repeat.
  document.addEventListener("beano:kept", function (event) {
    var act = event.detail && event.detail.act;
    if (!act || act.action !== "sale") return;
    pressedWhileSaving = false; // nothing to say it repeats: no receipt was given
    readyForNext(null); // a next sale typed and Enter pressed meanwhile goes (is kept) now
  });

  document.body.addEventListener("htmx:afterRequest", function (event) {
    if (!isSaleForm(event.detail.elt)) return;
    pressedWhileSaving = false; // not recorded (refused, or no answer): nothing to say it repeats
    if (sendNext) {
      // Not recorded (refused, or no answer): the next sale waits in its boxes for Enter.
      sendNext = false;
      say("");
    }
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (status >= 200 && status < 300) markInvalid();
  });

  // After a sale, the panel (and the receipt just recorded) is brought out from under the sticky
  // occasion header if the page was scrolled, e.g. by pressing "+ extras" low in the list.
  function panelInView() {
    var panel = document.getElementById("sale-panel");
    var header = document.querySelector("[data-sticky-header]");
    if (!panel || !header) return;
    var hidden = header.getBoundingClientRect().bottom - panel.getBoundingClientRect().top;
    if (hidden > 0) window.scrollBy(0, -(hidden + 8));
  }

  // The card of the halves comes again with every sale's answer, its attendance box holding the
  // admissions sold so far. A number the member in charge typed there (the players counted in
  // the hall) is theirs until announced: it is carried into the new card, marked typed so the
  // next answer carries it too, and the cursor stays in the box if it was there.
  var PLAYERS = "id_players";
  var TYPED = "data-door-typed";
  var playersFocus = null;

  document.addEventListener("input", function (event) {
    if (event.target.id === PLAYERS) event.target.setAttribute(TYPED, "");
  });

  document.body.addEventListener("htmx:oobBeforeSwap", function (event) {
    var detail = event.detail;
    if (!detail.target || detail.target.id !== "door-halves" || !detail.fragment) return;
    var box = document.getElementById(PLAYERS);
    var incoming = detail.fragment.querySelector("#" + PLAYERS);
    playersFocus = null;
    if (!box || !incoming || !box.hasAttribute(TYPED)) return;
    incoming.setAttribute("value", box.value);
    incoming.setAttribute(TYPED, "");
    if (document.activeElement === box) {
      playersFocus = [box.selectionStart, box.selectionEnd];
    }
  });

  document.body.addEventListener("htmx:oobAfterSwap", function () {
    var box = document.getElementById(PLAYERS);
    if (!playersFocus || !box) return;
    var caret = playersFocus;
    playersFocus = null;
    box.focus();
    box.setSelectionRange(caret[0], caret[1]);
  });

  document.body.addEventListener("htmx:afterSwap", refresh);
  refresh();
})();
