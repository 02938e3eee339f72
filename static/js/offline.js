/* The floor with no connection (issue 42; the contract: docs of the offline app, part CLIENT).

   The laptop keeps, in IndexedDB (database "beano-floor", through the vendored idb):
   - "meta": this browser's device id, the clock offset measured for each occasion (server minus
     laptop, ms), the night pack of each occasion (prices, games and their balls, who acts);
   - "acts": each act done while the connection was down, in order (seq), with its idempotency
     key (the one floor.js made: the server records a key once), who did it and its moment
     (the laptop's clock corrected by the offset).

   A floor entry (form[data-floor-entry], sent by htmx) that gets no answer is kept here instead
   of waiting for "Send again"; from then on, while offline, an entry is not sent at all but kept
   at once, and the page updates itself ("beano:kept"). What the laptop can check from what it
   holds (a ball already called, a box not on the price list, a quantity over its box's limit, a
   claim on a finished game) is refused at once, nothing kept. A void or a payout is kept "to be
   confirmed" without its PIN: the second person types it once the connection is back.

   Every 5 seconds offline, the night pack is asked for; once it answers, the acts are sent in
   order, in batches of 100, to the acts endpoint, each marked recorded or refused from the
   answer; a refused act stays listed (#offline-refused) until the member in charge dismisses it.
   The queue empty, the page is read again from the server. */
(function () {
  "use strict";

  var banner = document.getElementById("offline-banner");
  if (!banner || !window.idb) return;

  var OCCASION = parseInt(banner.getAttribute("data-occasion"), 10);
  var PACK_URL = banner.getAttribute("data-pack-url");
  var ACTS_URL = banner.getAttribute("data-acts-url");
  var LOGIN_URL = banner.getAttribute("data-login-url") || "/accounts/login/";
  var PROBE_MS = 5000;
  var BATCH = 100;
  var SENDING_STATES = ["waiting", "sending"];
  var SECRETS = ["witness_secret", "verifier_secret", "secret", "pin", "password"];

  var ACTIONS = [
    [/\/sales\/record\/$/, "sale"],
    [/\/draw\/call\/$/, "ball"],
    [/\/claims\/record\/$/, "claim"],
    [/\/sales\/attendance\/$/, "attendance"],
    [/\/workers\/\d+\/sign-out\/$/, "sign_out"],
    [/\/workers\/$/, "sign_in"],
    [/\/sales\/void\/$/, "void"],
    [/\/payout\/$/, "payout"]
  ];
  var TO_CONFIRM = {void: true, payout: true};

  var state = {
    typedAt: 0, // when a key was last pressed in a form of the page
    offline: !navigator.onLine,
    signedOut: false,
    pack: null,
    offset: 0,
    offsetSource: "",
    acts: [], // this occasion's acts, in seq order (a mirror of the store)
    flushing: false,
    probe: null,
    pending: [], // acts being stored, not yet in the mirror
    current: {}, // entry name -> the submission on its way: {path, pairs, key}
    firstTry: {}, // request key -> the laptop's ms at the first try of that entry
    sentAt: new WeakMap(),
    pins: {} // act key -> the PIN typed for it, in memory only until sent
  };

  var dbPromise = window.idb.openDB("beano-floor", 1, {
    upgrade: function (db) {
      db.createObjectStore("meta");
      var acts = db.createObjectStore("acts", {keyPath: "key"});
      acts.createIndex("by_occasion", ["occasion", "seq"]);
    }
  });

  // ---- small helpers --------------------------------------------------------------------

  // A key as floor.js makes one (loaded before this script on every floor page).
  function newKey() { return window.beanoFloor.newKey(); }

  function pathOf(url) {
    try { return new URL(url, location.href).pathname; } catch (e) { return url; }
  }

  function actionOf(path) {
    for (var i = 0; i < ACTIONS.length; i += 1) if (ACTIONS[i][0].test(path)) return ACTIONS[i][1];
    return null;
  }

  function gameOf(path) {
    var m = /\/games\/(\d+)\//.exec(path);
    return m ? parseInt(m[1], 10) : null;
  }

  function field(pairs, name) {
    for (var i = 0; i < pairs.length; i += 1) if (pairs[i][0] === name) return String(pairs[i][1]);
    return null;
  }

  function pairsOf(formData) {
    var pairs = [];
    formData.forEach(function (value, name) {
      if (typeof value === "string") pairs.push([name, value]);
    });
    return pairs;
  }

  function ballLabel(n) { return "BINGO".charAt(Math.floor((n - 1) / 15)) + n; }

  function ballOf(text) {
    var m = /^\s*([bingoBINGO])?\s*(\d{1,3})\s*$/.exec(text || "");
    if (!m) return null;
    var n = parseInt(m[2], 10);
    return n >= 1 && n <= 75 ? n : null;
  }

  function plural(n, one, many) { return n === 1 ? one : many; }

  function csrfToken() {
    var m = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie);
    if (m) return decodeURIComponent(m[1]);
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    if (input) return input.value;
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) { return ""; }
  }

  function emit(name, detail) {
    document.dispatchEvent(new CustomEvent(name, {detail: detail}));
  }

  function timeOf(iso) {
    var d = new Date(iso);
    return isNaN(d) ? "" : d.toLocaleTimeString([], {hour: "numeric", minute: "2-digit", second: "2-digit"});
  }

  function make(tag, className, text) {
    var el = document.createElement(tag);
    if (className) el.className = className;
    if (text !== undefined) el.textContent = text;
    return el;
  }

  // ---- the store ------------------------------------------------------------------------

  function meta(key, value) {
    return dbPromise.then(function (db) {
      return value === undefined ? db.get("meta", key) : db.put("meta", value, key);
    });
  }

  var devicePromise = dbPromise.then(function (db) {
    return db.get("meta", "device").then(function (device) {
      if (device) return device;
      device = newKey();
      return db.put("meta", device, "device").then(function () { return device; });
    });
  });

  function reload() {
    return dbPromise.then(function (db) {
      var range = IDBKeyRange.bound([OCCASION, 0], [OCCASION, Infinity]);
      return db.getAllFromIndex("acts", "by_occasion", range);
    }).then(function (acts) {
      state.acts = acts;
      render();
      return acts;
    });
  }

  var queueChannel = "BroadcastChannel" in window ? new BroadcastChannel("beano-floor-queue") : null;
  if (queueChannel) queueChannel.onmessage = function () { reload(); };

  // The store changed here: this page reads it again, and the laptop's other tabs are told.
  function changed() {
    if (queueChannel) queueChannel.postMessage({occasion: OCCASION});
    return reload();
  }

  function waitingActs() {
    return state.acts.filter(function (a) {
      return SENDING_STATES.indexOf(a.state) >= 0 || a.state === "to_confirm";
    });
  }

  // An act kept: its seq is the next of this device (over every occasion), given in the same
  // transaction that stores it.
  function store(act) {
    return Promise.all([dbPromise, devicePromise]).then(function (both) {
      var db = both[0];
      var tx = db.transaction(["meta", "acts"], "readwrite");
      var metaStore = tx.objectStore("meta");
      // The seq and the moment claimed go together: each act's moment is at or after the one
      // before it on this laptop, whatever a new measure of the offset (a page opened, the
      // network's jitter) moved it by, so the server never sees the laptop's clock go back.
      var last = "done:" + act.occasion;
      return Promise.all([metaStore.get("seq"), metaStore.get(last)]).then(function (held) {
        act.seq = (held[0] || 0) + 1;
        if (held[1] && held[1] > act.done_at) act.done_at = held[1];
        metaStore.put(act.seq, "seq");
        metaStore.put(act.done_at, last);
        tx.objectStore("acts").put(act);
        return tx.done;
      });
    }).then(changed).then(function () { return act; });
  }

  function update(acts) {
    return dbPromise.then(function (db) {
      var tx = db.transaction("acts", "readwrite");
      acts.forEach(function (act) { tx.store.put(act); });
      return tx.done;
    }).then(changed);
  }

  // ---- the clock ------------------------------------------------------------------------

  function setOffset(ms, source) {
    if (source === "date" && state.offsetSource === "pack") return; // a better one is held
    state.offset = Math.round(ms);
    state.offsetSource = source;
    meta("offset:" + OCCASION, state.offset);
    meta("offset-source:" + OCCASION, source);
  }

  Promise.all([meta("offset:" + OCCASION), meta("offset-source:" + OCCASION)]).then(function (v) {
    if (typeof v[0] === "number" && !state.offsetSource) {
      state.offset = v[0];
      state.offsetSource = v[1] || "date";
    }
  });

  function moment(laptopMs) {
    return {
      done_at: new Date(laptopMs + state.offset).toISOString(),
      laptop_at: new Date(laptopMs).toISOString(),
      offset_ms: state.offset
    };
  }

  // The Date header of an htmx answer (1 s resolution: the midpoint of its second), used only
  // while the pack has given no better measure.
  document.body.addEventListener("htmx:beforeSend", function (event) {
    if (event.detail.xhr) state.sentAt.set(event.detail.xhr, Date.now());
  });

  document.body.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr || !xhr.status) return;
    var answered = entryForm((event.detail.requestConfig && event.detail.requestConfig.elt) || event.detail.elt);
    if (answered) delete state.current[answered.getAttribute("data-floor-entry")];
    if (state.offline) goOnline();
    var sent = state.sentAt.get(xhr);
    var date = xhr.getResponseHeader("Date");
    if (!sent || !date || isNaN(Date.parse(date))) return;
    setOffset(Date.parse(date) + 500 - (sent + Date.now()) / 2, "date");
  });

  // ---- the night pack -------------------------------------------------------------------

  meta("pack:" + OCCASION).then(function (pack) { if (pack && !state.pack) state.pack = pack; });

  // The pack asked for: an answer (any) means the connection is back; a pack answered is kept.
  function askPack() {
    var start = Date.now();
    return fetch(PACK_URL, {
      cache: "no-store",
      credentials: "same-origin",
      headers: {Accept: "application/json"}
    }).then(function (response) {
      var end = Date.now();
      var json = (response.headers.get("Content-Type") || "").indexOf("application/json") === 0;
      if (response.redirected && /login/.test(response.url)) {
        state.signedOut = true;
        return response;
      }
      if (response.ok && json) {
        state.signedOut = false;
        return response.json().then(function (pack) {
          if (pack && pack.server_time) setOffset(Date.parse(pack.server_time) - (start + end) / 2, "pack");
          state.pack = pack;
          meta("pack:" + OCCASION, pack);
          return response;
        });
      }
      return response;
    });
  }

  // ---- offline and back -----------------------------------------------------------------

  function goOffline() {
    if (!state.offline) {
      state.offline = true;
      emit("beano:offline", {});
    }
    render();
    if (!state.probe) {
      state.probe = window.setInterval(probe, PROBE_MS);
      window.setTimeout(function () { if (state.offline) probe(); }, 1000); // a blip, often
    }
  }

  function goOnline() {
    if (state.probe) { window.clearInterval(state.probe); state.probe = null; }
    var was = state.offline;
    state.offline = false;
    if (was) emit("beano:online", {});
    render();
    flush();
  }

  function probe() {
    return askPack().then(goOnline, function () { goOffline(); });
  }

  window.addEventListener("offline", goOffline);
  window.addEventListener("online", function () { probe(); });

  // ---- sending the queue ----------------------------------------------------------------

  function wire(act) {
    var fields = act.fields;
    var pin = state.pins[act.key];
    if (pin) {
      fields = fields.filter(function (p) { return SECRETS.indexOf(p[0]) < 0; });
      fields = fields.concat([[pin.name, pin.value]]);
    }
    return {seq: act.seq, key: act.key, path: act.path, fields: fields,
            done_at: act.done_at, laptop_at: act.laptop_at, offset_ms: act.offset_ms};
  }

  function post(device, batch) {
    return fetch(ACTS_URL, {
      method: "POST",
      credentials: "same-origin",
      redirect: "manual",
      headers: {"Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrfToken()},
      body: JSON.stringify({device: device, acts: batch.map(wire)})
    });
  }

  var problem = "";

  // One tab of the laptop sends at a time (the door and the console share the queue); the
  // others hear of it and read the store again.
  function flush() {
    if (state.flushing || state.offline) return Promise.resolve();
    if (navigator.locks && navigator.locks.request) {
      return navigator.locks.request("beano-floor-send-" + OCCASION, {ifAvailable: true}, function (lock) {
        return lock ? reload().then(sendAll) : null;
      });
    }
    return sendAll();
  }

  // Who the laptop acts as now (the login, or the worker it is handed to): the pack says, as
  // read last online; the page, before any pack.
  function currentUser() {
    var id = state.pack && state.pack.user && state.pack.user.id;
    return id || parseInt(banner.getAttribute("data-user-id"), 10) || null;
  }

  // An act is sent by the one who did it: the server records it as the login that sends it, so
  // an act kept by another login waits on the laptop until that person signs in again.
  function mine(act) {
    var now = currentUser();
    return !act.user_id || !now || act.user_id === now;
  }

  function sendAll() {
    if (state.flushing || state.offline) return Promise.resolve();
    var ready = state.acts.filter(function (a) {
      return mine(a) && (SENDING_STATES.indexOf(a.state) >= 0 || (a.state === "to_confirm" && state.pins[a.key]));
    });
    if (!ready.length) return Promise.resolve();
    state.flushing = true;
    var began = Date.now();
    problem = "";
    var answeredAny = false;
    return devicePromise.then(function (device) {
      function next() {
        var batch = state.acts.filter(function (a) {
          return mine(a) && (SENDING_STATES.indexOf(a.state) >= 0 || (a.state === "to_confirm" && state.pins[a.key]));
        }).slice(0, BATCH);
        if (!batch.length) return null;
        var before = batch.map(function (a) { return a.state; });
        batch.forEach(function (a) { if (a.state === "waiting") a.state = "sending"; });
        return update(batch).then(function () {
          return post(device, batch);
        }).then(function (response) {
          var json = (response.headers.get("Content-Type") || "").indexOf("application/json") === 0;
          if (response.type === "opaqueredirect" || response.status === 302 || response.status === 403 ||
              (response.redirected && /login/.test(response.url))) {
            state.signedOut = true;
            return restore(batch, before).then(function () { return null; });
          }
          if (!response.ok || !json) {
            problem = "The server did not take the acts (" + response.status + "): they stay on this laptop and are sent again shortly.";
            if (response.status === 400 && json) {
              return response.json().then(function (body) {
                problem = "The server did not take the acts: " + (body.error || response.status) + " They stay on this laptop.";
                return restore(batch, before);
              }).then(function () { return null; });
            }
            return restore(batch, before).then(function () { return null; });
          }
          state.signedOut = false;
          return response.json().then(function (body) {
            if (body.server_time) setOffset(Date.parse(body.server_time) - Date.now(), "date");
            var byKey = {};
            (body.results || []).forEach(function (r) { byKey[r.key] = r; });
            batch.forEach(function (act, i) {
              var result = byKey[act.key];
              if (!result) { act.state = before[i]; return; }
              delete state.pins[act.key];
              act.state = result.state === "recorded" ? "recorded" : "refused";
              act.said = result.said || "";
              act.refusal = result.refusal || null;
              act.result = result;
              answeredAny = true; // recorded or refused: what the page showed locally is stale
            });
            return update(batch).then(function () {
              batch.forEach(function (act) {
                if (byKey[act.key]) emit("beano:answered", {act: act, result: byKey[act.key]});
              });
              var progressed = batch.some(function (a) { return !!byKey[a.key]; });
              return progressed ? next() : null;
            });
          });
        }, function () {
          // No answer: still offline; the acts wait as they were.
          return restore(batch, before).then(function () { goOffline(); return null; });
        });
      }
      return next();
    }).then(function () {
      state.flushing = false;
      render();
      // A PIN typed, or an act kept, while this sending was under way: sent now, not left.
      var more = state.acts.some(function (a) {
        return mine(a) && (SENDING_STATES.indexOf(a.state) >= 0 || (a.state === "to_confirm" && state.pins[a.key]));
      });
      if (more && !state.offline && !state.signedOut && !problem) return flush();
      var left = state.acts.filter(function (a) {
        return SENDING_STATES.indexOf(a.state) >= 0 || a.state === "to_confirm";
      });
      if (!left.length && answeredAny && !state.signedOut && !problem) {
        // The page shows the server's truth again (the refused stay listed, from the store),
        // unless someone has typed on it since the acts went: what they type is not wiped.
        emit("beano:flushed", {});
        if (banner.getAttribute("data-reload") !== "no") {
          window.setTimeout(function () { if (state.typedAt < began) location.reload(); }, 300);
        }
      } else if ((problem || state.signedOut) && !state.probe) {
        window.setTimeout(probe, PROBE_MS); // tried again: signed in elsewhere, or the server mended
      }
    }, function () {
      state.flushing = false;
      render();
    });
  }

  function restore(batch, before) {
    batch.forEach(function (a, i) { a.state = before[i]; });
    return update(batch);
  }

  document.addEventListener("input", function () { state.typedAt = Date.now(); }, true);

  // ---- keeping an act -------------------------------------------------------------------

  function describe(act) {
    if (act.action === "sale") {
      var parts = [];
      act.fields.forEach(function (p) {
        var box = document.querySelector(".door-qty[name='" + p[0] + "']");
        var n = parseInt(p[1], 10);
        var label = box ? (box.getAttribute("data-category-label") || box.getAttribute("data-category")) : priceLabel(p[0]);
        if (label && n > 0) parts.push(n + " × " + label);
      });
      var receipt = field(act.fields, "admission_receipt");
      return (parts.join(", ") || "a sale") + (receipt ? " against receipt " + receipt : "");
    }
    if (act.action === "ball") {
      var ball = ballOf(field(act.fields, "ball"));
      return "Ball " + (ball ? ballLabel(ball) : field(act.fields, "ball"));
    }
    if (act.action === "claim") return "Claim" + (field(act.fields, "player_name") ? " by " + field(act.fields, "player_name") : "");
    if (act.action === "void") return "Void of receipt " + (field(act.fields, "receipt") || "");
    if (act.action === "payout") return "Payout" + (field(act.fields, "amount") ? " (amount typed: " + field(act.fields, "amount") + ")" : "");
    if (act.action === "attendance") return "Attendance " + (field(act.fields, "players") || "");
    if (act.action === "sign_in") return "A worker's sign-in";
    if (act.action === "sign_out") return act.name ? act.name + "'s sign-out" : "A worker's sign-out";
    return "An act";
  }

  function priceLabel(name) {
    var prices = (state.pack && state.pack.prices) || [];
    for (var i = 0; i < prices.length; i += 1) if (prices[i].field === name) return prices[i].label;
    return null;
  }

  // entry: the floor entry whose form stays "on its way" (floor.js) until the act is kept, so
  // that Enter pressed again meanwhile does not keep the same boxes twice.
  function keep(path, pairs, laptopMs, key, name, entry) {
    path = pathOf(path);
    var action = actionOf(path);
    pairs = pairs.filter(function (p) { return p[0] !== "csrfmiddlewaretoken"; });
    key = key || field(pairs, "request_key") || newKey();
    if (!field(pairs, "request_key")) pairs.push(["request_key", key]);
    var confirm = TO_CONFIRM[action];
    if (confirm) pairs = pairs.filter(function (p) { return SECRETS.indexOf(p[0]) < 0; });
    var when = moment(laptopMs || Date.now());
    var act = {
      occasion: OCCASION,
      seq: 0,
      key: key,
      path: path,
      fields: pairs,
      done_at: when.done_at,
      laptop_at: when.laptop_at,
      offset_ms: when.offset_ms,
      action: action,
      who: (state.pack && state.pack.user && state.pack.user.name) || banner.getAttribute("data-user") || "",
      user_id: currentUser(),
      state: confirm ? "to_confirm" : "waiting",
      said: "",
      refusal: null
    };
    if (name) act.name = name;
    act.what = describe(act);
    state.pending.push(act);
    function done() {
      state.pending = state.pending.filter(function (a) { return a !== act; });
      if (entry) settle(entry);
    }
    return store(act).then(function (kept) {
      done();
      emit("beano:kept", {act: kept});
      return kept;
    }, function (error) {
      done();
      throw error;
    });
  }

  // ---- what the laptop refuses at once ------------------------------------------------------

  function packGame(id) {
    var games = (state.pack && state.pack.games) || [];
    for (var i = 0; i < games.length; i += 1) if (games[i].id === id) return games[i];
    return null;
  }

  function calledHere(game, number) {
    var g = packGame(game);
    if (g && (g.called || []).some(function (b) { return ballOf(String(b)) === number; })) return true;
    if (document.querySelector("#draw-board .draw-ball.is-called[value='" + number + "'], #draw-board #draw-ball-" + number + ".is-called")) return true;
    return state.acts.concat(state.pending).some(function (a) {
      return a.action === "ball" && gameOf(a.path) === game && a.state !== "refused" &&
        ballOf(field(a.fields, "ball")) === number;
    });
  }

  // The sentence refusing an act the laptop can judge, or "" when it may be kept.
  function refusalOf(action, path, pairs) {
    var game = gameOf(path);
    var g = game ? packGame(game) : null;
    if (action === "ball") {
      var typed = field(pairs, "ball");
      var n = ballOf(typed);
      if (!n) return "“" + (typed || "") + "” is no ball: type a number from 1 to 75 (42 or N42).";
      var m = /^\s*([bingoBINGO])\s*\d/.exec(typed);
      if (m && m[1].toUpperCase() !== ballLabel(n).charAt(0)) {
        return "961 CMR 3.04(6)(a): " + m[1].toUpperCase() + n + " is no ball: " + n + " is " + ballLabel(n) + ".";
      }
      if (g && g.state === "finished") return "961 CMR 3.04(6)(a): Game " + g.number + " is over: its calls stand as recorded.";
      if (calledHere(game, n)) {
        return "961 CMR 3.04(6)(a): " + ballLabel(n) + " was already called in this game; once removed, " +
          "a ball is not returned to the receptacle until the game ends.";
      }
    }
    if (action === "claim" && g && g.state === "finished") {
      return "961 CMR 3.04(6)(a): Game " + g.number + " is over: a claim is recorded while the game is in play.";
    }
    if (action === "sale") {
      var prices = state.pack && state.pack.prices;
      var byField = {};
      (prices || []).forEach(function (p) { byField[p.field] = p; });
      var boxes = document.querySelectorAll(".door-qty");
      var names = {};
      boxes.forEach(function (b) { names[b.name] = b; });
      for (var i = 0; i < pairs.length; i += 1) {
        var name = pairs[i][0];
        var value = String(pairs[i][1]).trim();
        var isBox = !!names[name] || !!byField[name] || /^qty_/.test(name);
        if (!isBox || value === "") continue;
        var label = names[name] ? (names[name].getAttribute("data-category-label") || name) : (byField[name] ? byField[name].label : name);
        if (!/^[0-9]+$/.test(value)) return label + ": “" + value + "” is not a whole number of cards.";
        var qty = parseInt(value, 10);
        if (qty === 0) continue;
        if (prices && !byField[name]) return label + " is not on tonight's price list: it cannot be sold.";
        var item = byField[name];
        if (item && item.max !== null && item.max !== undefined && qty > item.max) {
          return "At most " + item.max + " × " + (item.label || label) + " in one sale: " + qty + " were typed.";
        }
      }
    }
    return "";
  }

  // ---- the floor's entries (htmx) ---------------------------------------------------------

  function entryForm(elt) {
    return elt && elt.closest ? elt.closest("form[data-floor-entry]") : null;
  }

  // Where an entry's answer goes: the door's receipt, the console's message, else just before
  // the entry's "not sent" notice. A refusal's citation ("961 CMR …: ") is shown as one.
  function sayHere(entry, text, kind) {
    var box;
    if (entry === "sale") box = document.getElementById("sale-result");
    else if (entry === "draw") box = document.getElementById("draw-msg");
    if (!box) {
      var unsent = document.querySelector("[data-floor-unsent='" + entry + "']");
      if (!unsent) return;
      box = document.querySelector("[data-offline-said='" + entry + "']");
      if (!box) {
        box = make("div");
        box.setAttribute("data-offline-said", entry);
        unsent.parentNode.insertBefore(box, unsent);
      }
    }
    box.textContent = "";
    box.removeAttribute("data-invalid");
    var refused = kind === "refused";
    var alert = make("div", "alert py-1 px-2 mb-2 " + (refused ? "alert-danger" : "alert-info offline-kept"));
    alert.setAttribute("role", refused ? "alert" : "status");
    alert.setAttribute("data-offline-" + kind, "");
    if (refused) {
      alert.appendChild(make("strong", "", "Refused on this laptop."));
      alert.appendChild(document.createTextNode(" "));
      var cited = /^(\d+ CMR [0-9.()a-z]+): (.*)$/.exec(text);
      if (cited) {
        alert.appendChild(make("span", "citation", cited[1]));
        alert.appendChild(document.createTextNode(" "));
        text = cited[2];
      }
      text += " Nothing was kept.";
    }
    alert.appendChild(document.createTextNode(text));
    box.appendChild(alert);
  }

  function settle(entry) {
    if (window.beanoFloor) window.beanoFloor.settle(entry);
  }

  // Registered after floor.js's: the key is made, the entry's "on its way" set; cancelled here
  // while offline (kept instead, or refused).
  document.body.addEventListener("htmx:configRequest", function (event) {
    var detail = event.detail;
    var form = entryForm(detail.elt);
    if (!form) return;
    var entry = form.getAttribute("data-floor-entry");
    var pairs = pairsOf(detail.parameters);
    var key = field(pairs, "request_key");
    if (key && !state.firstTry[key]) state.firstTry[key] = Date.now();
    state.current[entry] = {path: detail.path, pairs: pairs, key: key};
    if (!state.offline) return;
    event.preventDefault();
    var path = pathOf(detail.path);
    var action = actionOf(path);
    var refused = refusalOf(action, path, pairs);
    if (refused) {
      settle(entry);
      sayHere(entry, refused, "refused");
      return;
    }
    keep(path, pairs, state.firstTry[key], key, null, entry);
  });

  function dropped(event) {
    var config = event.detail.requestConfig;
    var elt = (config && config.elt) || event.detail.elt;
    var form = entryForm(elt);
    if (!form) {
      goOffline();
      // Another act of the floor (a void, a payout, the attendance, a worker) that got no
      // answer: kept too (a void or a payout to be confirmed, its PIN left out).
      var other = elt && elt.closest ? elt.closest("form") : null;
      var path = config && pathOf(config.path);
      if (other && path && actionOf(path) && (config.verb || "post").toLowerCase() === "post") {
        keep(path, pairsOf(config.parameters || new FormData(other))).then(function (act) { noteKept(other, act); });
      }
      return;
    }
    var entry = form.getAttribute("data-floor-entry");
    var lost = state.current[entry];
    delete state.current[entry];
    goOffline();
    if (!lost) { settle(entry); return; }
    document.querySelectorAll("form[data-floor-entry='" + entry + "']").forEach(function (f) {
      f.setAttribute("data-floor-sending", "");
    });
    // Kept with its key: if the first try did arrive, the server records nothing twice.
    keep(lost.path, lost.pairs, state.firstTry[lost.key] || Date.now(), lost.key, null, entry);
  }

  function noteKept(form, act) {
    var note = form.querySelector("[data-offline-said]") || make("div", "alert alert-info py-1 px-2 mt-2 mb-0 offline-kept");
    note.setAttribute("data-offline-said", "");
    note.setAttribute("role", "status");
    note.textContent = act.state === "to_confirm"
      ? "Kept on this laptop to be confirmed: once the connection returns, the second person types their PIN in the banner above."
      : "Kept on this laptop: " + act.what + " — sent when the connection returns.";
    form.appendChild(note);
    SECRETS.forEach(function (name) {
      var box = form.querySelector("[name='" + name + "']");
      if (box) box.value = "";
    });
  }

  document.body.addEventListener("htmx:sendError", dropped);
  document.body.addEventListener("htmx:timeout", dropped);

  // A form that is not an htmx floor entry (attendance, workers, a void, a payout), submitted
  // while offline: kept (a void or a payout "to be confirmed", without its PIN), not posted.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!state.offline || !form.matches || form.matches("form[data-floor-entry]")) return;
    var path = pathOf(form.getAttribute("action") || location.pathname);
    var action = actionOf(path);
    if (form.hasAttribute("data-offline-close")) return; // judged below
    if (!action) {
      // An act the laptop does not keep (verifying a card, splitting a prize, starting or
      // finishing a game): not posted into no connection and the browser's error page, but
      // said here, the form as it was.
      if ((form.getAttribute("method") || "get").toLowerCase() !== "post") return;
      // Only the night's own acts (not "Log out", not the account's pages): those go their way.
      var night = "/org/" + banner.getAttribute("data-org") + "/occasions/" + OCCASION + "/";
      if (path.indexOf(night) !== 0) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      var note = form.querySelector("[data-offline-needs]") || make("div", "alert alert-warning py-1 px-2 mt-2 mb-0");
      note.setAttribute("data-offline-needs", "");
      note.setAttribute("role", "alert");
      note.textContent = "Offline: this is not kept on the laptop. Do it once the connection returns, or write it on the paper sheet.";
      form.appendChild(note);
      return;
    }
    event.preventDefault();
    event.stopImmediatePropagation();
    var button = event.submitter || form.querySelector("button[type=submit]");
    var label = button ? button.getAttribute("aria-label") || "" : "";
    keep(path, pairsOf(new FormData(form, event.submitter || undefined)), null, null,
         /^Sign out /.test(label) ? label.replace(/^Sign out /, "") : "").then(function (act) {
      noteKept(form, act);
    });
  }, true);

  // Closing the night with acts waiting here: they are sent first.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.hasAttribute || !form.hasAttribute("data-offline-close")) return;
    var n = waitingActs().length;
    var text = n ? plural(n, "1 act waits on this laptop: it is sent first.", n + " acts wait on this laptop: they are sent first.") : "";
    if (!n && !state.offline) return;
    if (!n) text = "Offline: the night can be closed once the connection returns.";
    event.preventDefault();
    event.stopImmediatePropagation();
    var note = form.querySelector("[data-offline-close-said]") || make("div", "alert alert-warning py-2 mt-2 mb-0");
    note.setAttribute("data-offline-close-said", "");
    note.setAttribute("role", "alert");
    note.textContent = text;
    form.appendChild(note);
  }, true);

  // ---- the flashboard on this laptop --------------------------------------------------------

  var channel = "BroadcastChannel" in window ? new BroadcastChannel("beano-board-" + OCCASION) : null;

  function boardCalled() {
    var balls = Array.prototype.slice.call(document.querySelectorAll("#draw-board .draw-ball.is-called"));
    var last = document.querySelector("#draw-board .draw-ball.is-last");
    var numbers = balls.map(function (b) { return parseInt(b.textContent, 10); }).filter(function (n) { return n > 0; });
    if (last) {
      var n = parseInt(last.textContent, 10);
      numbers = numbers.filter(function (x) { return x !== n; }).concat([n]);
    }
    return numbers.map(ballLabel);
  }

  function tellBoard() {
    var board = document.getElementById("draw-board");
    if (!channel || !board) return;
    var game = parseInt(board.getAttribute("data-game"), 10) || gameOf(location.pathname);
    channel.postMessage({game: game, called: boardCalled()});
  }

  document.body.addEventListener("ballCalled", function () { window.setTimeout(tellBoard, 0); });

  // ---- the console, the door and the claims, offline ------------------------------------------

  function markBall(number) {
    var ball = document.getElementById("draw-ball-" + number);
    if (!ball) return;
    document.querySelectorAll("#draw-board .draw-ball.is-last").forEach(function (b) { b.classList.remove("is-last"); });
    ball.classList.add("is-called", "is-last", "offline-kept-ball");
    ball.setAttribute("aria-pressed", "true");
    var last = document.getElementById("draw-last");
    if (last) {
      var big = last.querySelector(".draw-last-ball");
      if (big) big.textContent = ballLabel(number);
      var count = last.querySelectorAll(".small")[1];
      if (count) count.textContent = document.querySelectorAll("#draw-board .draw-ball.is-called").length + " called";
    }
    var pick = document.getElementById("draw-pick-" + gameOf(location.pathname));
    if (pick) pick.textContent = "in play · " + document.querySelectorAll("#draw-board .draw-ball.is-called").length;
    var body = document.getElementById("draw-calls-body");
    if (body) {
      var none = document.getElementById("draw-no-calls");
      if (none) none.remove();
      var row = make("tr", "offline-kept-call");
      var td = make("td", "text-nowrap");
      td.appendChild(make("span", "fw-bold fs-5", ballLabel(number)));
      td.appendChild(make("div", "small text-nowrap", "kept on this laptop"));
      row.appendChild(td);
      row.appendChild(make("td", "text-end w-100 small text-secondary", "sent when the connection returns"));
      body.insertBefore(row, body.firstChild);
    }
  }

  document.addEventListener("beano:kept", function (event) {
    var act = event.detail.act;
    if (act.action === "ball") {
      var n = ballOf(field(act.fields, "ball"));
      if (n && gameOf(act.path) === gameOf(location.pathname)) {
        markBall(n);
        var input = document.getElementById("id_ball");
        if (input && !input.hasAttribute("data-floor-touched")) input.value = "";
        var preview = document.getElementById("draw-preview");
        if (preview) preview.textContent = "";
        tellBoard();
      }
      sayHere("draw", ballLabel(n) + " kept on this laptop — sent when the connection returns.", "kept");
    } else if (act.action === "sale") {
      sayHere("sale", "Kept on this laptop: " + act.what + " — sent when the connection returns.", "kept");
    } else if (act.action === "claim") {
      sayHere("claim", "Claim kept on this laptop" + (field(act.fields, "player_name") ? " (" + field(act.fields, "player_name") + ")" : "") +
        " — sent when the connection returns.", "kept");
      var claimForm = document.querySelector("form[data-floor-entry=claim]");
      if (claimForm) claimForm.reset();
    }
  });

  // ---- the banner -------------------------------------------------------------------------

  var text = banner.querySelector("[data-offline-text]");
  var confirmList = banner.querySelector("[data-offline-confirm]");
  var refusedBox = document.getElementById("offline-refused");

  function bannerText(n) {
    if (state.signedOut) {
      return "Sign in again to send the " + plural(n, "act", n + " acts") + " waiting on this laptop.";
    }
    if (state.offline) {
      if (n === 0) return "Offline — no act waits on this laptop. What you enter is kept here and sent when the connection returns.";
      return "Offline — " + plural(n, "1 act waits", n + " acts wait") + " on this laptop. " +
        plural(n, "It is", "They are") + " sent when the connection returns.";
    }
    if (problem) return problem;
    if (state.flushing) return "Sending the " + plural(n, "act", n + " acts") + " kept on this laptop…";
    if (n === 0) return "Sending what was kept on this laptop…";
    return plural(n, "1 act waits", n + " acts wait") + " on this laptop: " + plural(n, "it is", "they are") + " being sent.";
  }

  function render() {
    var sendable = state.acts.filter(function (a) { return SENDING_STATES.indexOf(a.state) >= 0; });
    var confirming = state.acts.filter(function (a) { return a.state === "to_confirm"; });
    var n = sendable.length + confirming.length;
    banner.hidden = !state.offline && n === 0 && !state.signedOut;
    banner.classList.toggle("is-offline", state.offline);
    banner.setAttribute("data-waiting", String(n));
    var words = bannerText(state.signedOut ? n : (state.offline ? n : sendable.length || n));
    if (!state.offline && !sendable.length && confirming.length && !state.signedOut) {
      words = plural(confirming.length, "1 act waits", confirming.length + " acts wait") + " on this laptop for a second person's PIN.";
    }
    var others = state.offline ? [] : state.acts.filter(function (a) {
      return !mine(a) && (SENDING_STATES.indexOf(a.state) >= 0 || a.state === "to_confirm");
    });
    if (others.length && others.length === n) {
      var by = others[0].who || "another login";
      words = plural(n, "1 act was", n + " acts were") + " kept on this laptop by " + by +
        ": " + plural(n, "it is", "they are") + " sent once " + by + " signs in on this laptop.";
    }
    if (text.textContent !== words) text.textContent = words;
    var login = banner.querySelector("[data-offline-login]");
    if (login) login.hidden = !state.signedOut;
    renderConfirm(confirming);
    renderRefused();
  }

  function renderConfirm(acts) {
    if (!confirmList) return;
    var shown = {};
    confirmList.querySelectorAll("[data-offline-act]").forEach(function (li) { shown[li.getAttribute("data-offline-act")] = li; });
    acts.forEach(function (act) {
      var li = shown[act.key];
      delete shown[act.key];
      if (!li) {
        li = make("li", "offline-confirm-item");
        li.setAttribute("data-offline-act", act.key);
        var words = make("span", "offline-confirm-what", act.what + " (" + timeOf(act.done_at) + ") — to be confirmed by a second person.");
        li.appendChild(words);
        var form = make("form", "offline-confirm-form");
        var id = "offline-pin-" + act.key;
        var label = make("label", "form-label small mb-0", act.action === "void" ? "The witness types their PIN" : "The verifier types their PIN");
        label.setAttribute("for", id);
        var input = make("input", "form-control form-control-sm offline-pin");
        input.type = "password";
        input.id = id;
        input.autocomplete = "off";
        var button = make("button", "btn btn-sm btn-dark", "Send with the PIN");
        button.type = "submit";
        form.appendChild(label);
        form.appendChild(input);
        form.appendChild(button);
        form.addEventListener("submit", function (event) {
          event.preventDefault();
          if (!input.value) { input.focus(); return; }
          state.pins[act.key] = {name: act.action === "void" ? "witness_secret" : "verifier_secret", value: input.value};
          input.value = "";
          flush();
        });
        li.appendChild(form);
        confirmList.appendChild(li);
      }
      var pinForm = li.querySelector("form");
      if (pinForm) pinForm.hidden = state.offline;
    });
    Object.keys(shown).forEach(function (key) { shown[key].remove(); });
    confirmList.hidden = !acts.length;
  }

  function renderRefused() {
    if (!refusedBox) return;
    var refused = state.acts.filter(function (a) { return a.state === "refused" && !a.dismissed; });
    var list = refusedBox.querySelector("ul");
    if (!list) {
      refusedBox.appendChild(make("h2", "h6 mb-1", "Refused when sent from this laptop"));
      list = make("ul", "list-unstyled mb-0");
      refusedBox.appendChild(list);
    }
    var shown = {};
    list.querySelectorAll("[data-offline-act]").forEach(function (li) { shown[li.getAttribute("data-offline-act")] = li; });
    refused.forEach(function (act) {
      if (shown[act.key]) { delete shown[act.key]; return; }
      var r = act.refusal || {};
      var li = make("li", "offline-refused-item");
      li.setAttribute("data-offline-act", act.key);
      li.appendChild(make("div", "fw-semibold", act.what + " — kept at " + timeOf(act.done_at) + (act.who ? " by " + act.who : "") + ": refused."));
      var said = make("div", "offline-refused-message");
      // As the pages show a refusal (beano.refusals): its plain words first, its citation after.
      var parts = (r.parts || []).filter(function (part) { return part.words; });
      if (!parts.length) parts = [{words: r.message || act.said || "Refused.", citation: ""}];
      parts.forEach(function (part, i) {
        if (i) said.appendChild(document.createTextNode(" "));
        said.appendChild(document.createTextNode(part.words));
        if (part.citation) {
          said.appendChild(document.createTextNode(" "));
          said.appendChild(make("span", "citation", part.citation));
        }
      });
      li.appendChild(said);
      if (r.todo) li.appendChild(make("div", "offline-refused-todo", "What to do: " + r.todo));
      var dismiss = make("button", "btn btn-sm btn-outline-dark", "Dismiss");
      dismiss.type = "button";
      dismiss.addEventListener("click", function () {
        act.dismissed = true;
        update([act]);
      });
      li.appendChild(dismiss);
      list.appendChild(li);
    });
    Object.keys(shown).forEach(function (key) { shown[key].remove(); });
    refusedBox.hidden = !refused.length;
  }

  // ---- the page's API and its start ------------------------------------------------------------

  window.beanoOffline = {
    offline: function () { return state.offline; },
    waiting: function () { return reload().then(function () { return waitingActs().length; }); },
    keep: function (form, pairs) {
      var path = form.getAttribute ? (form.getAttribute("action") || location.pathname) : String(form);
      return keep(path, pairs || pairsOf(new FormData(form)));
    },
    flush: flush,
    probe: probe,
    state: state
  };

  reload().then(function () {
    if (state.offline) goOffline();
    return askPack().then(function () {
      if (state.offline) goOnline(); else flush();
    }, function () { goOffline(); });
  });
})();
