/* The floor's entries (a door sale, a ball called, a claim): forms marked
   data-floor-entry="NAME", sent by htmx. The hall's Wi-Fi drops requests and answers alike, so:

   - each submission carries a key made here, once (request_key); the server records a key once
     and answers the same key again with what it recorded the first time;
   - a submission that got no answer (the connection dropped, no answer in time, a server
     error) is kept, said so in [data-floor-unsent="NAME"], and "Send again" (or Enter in the
     form) sends exactly that submission again, with its key, before anything newer;
   - a box typed in while an entry is on its way is marked data-floor-touched: it belongs to the
     next entry. Such boxes keep their value when the answer replaces the form (the caller's
     console, the claims page); the door, which keeps its boxes, readies only the others.

   Forms sharing a NAME are one line of entries (the console's typed box and its board): while
   one of their entries is unsent, the next waits for it, so the balls stay in their order. */
(function () {
  "use strict";

  var TIMEOUT_MS = 15000;
  var sending = {}; // entry name -> the submission on its way: {path, pairs}
  var unsent = {}; // entry name -> the submission that got no answer: {path, pairs}
  var carried = null; // {id: value} of touched boxes, across a swap of their form

  var SAID = {
    dropped: "Not sent: the connection dropped. Your entry is kept.",
    timeout: "Not sent: no answer came back in time. Your entry is kept.",
    server: "Not recorded: the server had a problem. Your entry is kept.",
    refused: "Not recorded: the server refused it. Reload the page, then enter it again."
  };

  function entryOf(elt) {
    var form = elt && elt.closest ? elt.closest("form[data-floor-entry]") : null;
    return form ? form.getAttribute("data-floor-entry") : null;
  }

  // A version 4 UUID from crypto.getRandomValues, which (unlike crypto.randomUUID) a hall
  // laptop has over plain http on the hall's network too.
  function newKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) {
      return (b + 0x100).toString(16).slice(1);
    }).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  function formsOf(entry) {
    return document.querySelectorAll("form[data-floor-entry='" + entry + "']");
  }

  // data-floor-sending on the forms of an entry on its way (not aria-busy: the answer's message
  // is inside the form, and a busy region's changes may go unannounced).
  function busy(entry, on) {
    formsOf(entry).forEach(function (form) {
      if (on) form.setAttribute("data-floor-sending", ""); else form.removeAttribute("data-floor-sending");
    });
  }

  function notice(entry) {
    return document.querySelector("[data-floor-unsent='" + entry + "']");
  }

  function say(entry, text, canResend) {
    var box = notice(entry);
    if (!box) return;
    box.querySelector("[data-floor-unsent-text]").textContent = text || "";
    var resend = box.querySelector("[data-floor-resend]");
    if (resend) resend.hidden = !canResend;
    box.hidden = !text;
  }

  function pairsOf(formData) {
    var pairs = [];
    formData.forEach(function (value, name) { pairs.push([name, value]); });
    return pairs;
  }

  function formDataOf(pairs) {
    var data = new FormData();
    pairs.forEach(function (pair) { data.append(pair[0], pair[1]); });
    return data;
  }

  document.body.addEventListener("htmx:configRequest", function (event) {
    var entry = entryOf(event.detail.elt);
    if (!entry) return;
    var detail = event.detail;
    if (!detail.timeout) detail.timeout = TIMEOUT_MS;
    if (unsent[entry]) {
      // The entry that got no answer goes first, exactly as it was sent, with its key; what was
      // typed since stays in the boxes (still marked) for the next one.
      detail.path = unsent[entry].path;
      detail.parameters = formDataOf(unsent[entry].pairs);
      sending[entry] = unsent[entry];
    } else {
      var key = newKey();
      detail.parameters.set("request_key", key);
      var hidden = detail.elt.querySelector("input[name=request_key]");
      if (hidden) hidden.value = key;
      detail.elt.querySelectorAll("[data-floor-touched]").forEach(function (box) {
        box.removeAttribute("data-floor-touched");
      });
      sending[entry] = {path: detail.path, pairs: pairsOf(detail.parameters)};
    }
    busy(entry, true);
  });

  // The form that sent the request: when the answer replaced it (the console), htmx tells the
  // page through the form's nearest ancestor still there, with the form in requestConfig.
  function senderOf(event) {
    var config = event.detail.requestConfig;
    return (config && config.elt) || event.detail.elt;
  }

  function lost(event, text) {
    var entry = entryOf(senderOf(event));
    if (!entry || !sending[entry]) return;
    unsent[entry] = sending[entry];
    delete sending[entry];
    busy(entry, false);
    say(entry, text, true);
  }

  // offline.js takes over an entry it keeps on the laptop (no answer came, or the laptop is
  // offline): it is no longer on its way here, and no "Send again" is offered for it.
  window.beanoFloor = {
    newKey: newKey, // the laptop's queue keys what it keeps the same way
    settle: function (entry) {
      delete sending[entry];
      delete unsent[entry];
      busy(entry, false);
      say(entry, "", false);
    }
  };

  document.body.addEventListener("htmx:sendError", function (event) { lost(event, SAID.dropped); });
  document.body.addEventListener("htmx:sendAbort", function (event) { lost(event, SAID.dropped); });
  document.body.addEventListener("htmx:timeout", function (event) { lost(event, SAID.timeout); });

  document.body.addEventListener("htmx:afterRequest", function (event) {
    var entry = entryOf(senderOf(event));
    if (!entry || !sending[entry]) return;
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (status === 0) return; // no answer: htmx:sendError or htmx:timeout says which
    if (status >= 500) { lost(event, SAID.server); return; }
    delete sending[entry];
    delete unsent[entry];
    busy(entry, false);
    say(entry, status >= 400 ? SAID.refused : "", false);
  });

  // A form the answer just put in place is live for htmx only once htmx has processed it; an
  // Enter pressed in between (a fast caller, a slow laptop) would post the page the old way and
  // leave the console. Such a submission is handed to htmx instead.
  document.addEventListener(
    "submit",
    function (event) {
      var form = event.target;
      if (!form.matches || !form.matches("form[data-floor-entry]")) return;
      var data = form["htmx-internal-data"];
      if (data && data.initHash) return;
      event.preventDefault();
      window.htmx.process(form);
      form.requestSubmit(event.submitter || undefined);
    },
    true
  );

  document.addEventListener("input", function (event) {
    var entry = entryOf(event.target);
    if (entry && (sending[entry] || unsent[entry])) event.target.setAttribute("data-floor-touched", "");
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-floor-resend]") : null;
    if (!button) return;
    var entry = button.getAttribute("data-floor-resend");
    if (!unsent[entry] || sending[entry]) return;
    var form = formsOf(entry)[0];
    if (form) form.requestSubmit();
  });

  // The caller's console and the claims page answer with the form itself: a box typed in while
  // the entry was on its way keeps what was typed.
  document.body.addEventListener("htmx:beforeSwap", function (event) {
    carried = null;
    var target = event.detail.target;
    if (!target || !target.querySelectorAll) return;
    target.querySelectorAll("form[data-floor-entry] [data-floor-touched][id]").forEach(function (box) {
      carried = carried || {};
      carried[box.id] = box.value;
    });
  });

  document.body.addEventListener("htmx:afterSwap", function () {
    if (!carried) return;
    Object.keys(carried).forEach(function (id) {
      var box = document.getElementById(id);
      if (box) box.value = carried[id];
    });
    carried = null;
  });
})();
