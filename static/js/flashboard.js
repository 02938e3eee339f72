// The flashboard polls its board every second. The server answers 304 while nothing changed
// (the browser may turn that into its cached 200): either way the same ETag means no swap,
// so the screen never flickers. A link turned off (404) says so; a lost connection is shown
// discreetly ("Reconnecting…") and the board keeps its last state until the hall's Wi-Fi comes
// back, or follows the console of the same laptop (below).
(function () {
  var board = document.getElementById("flash");
  var gone = document.getElementById("flash-gone");
  var offline = document.getElementById("flash-offline");
  if (!board) return;
  document.body.addEventListener("htmx:beforeSwap", function (evt) {
    var xhr = evt.detail.xhr;
    offline.hidden = true;
    if (xhr.status === 404) {
      board.hidden = true;
      gone.hidden = false;
      evt.detail.shouldSwap = false;
      return;
    }
    var etag = xhr.getResponseHeader("ETag");
    if (xhr.status === 304 || (etag && etag === board.dataset.etag)) {
      evt.detail.shouldSwap = false;
      return;
    }
    if (etag) board.dataset.etag = etag;
    board.hidden = false;
    gone.hidden = true;
  });
  // While its polling fails, the board follows the caller's console on this laptop (another
  // tab, a second screen): the console posts {game, called} on each ball, live or kept offline
  // (static/js/offline.js). On another device nothing comes: the last board stays, and
  // "Reconnecting…" says so.
  var failing = false;
  var heard = false;
  var latest = null; // the console's last word, applied as soon as the polling fails

  function show(message) {
    var balls = board.querySelectorAll(".flash-ball");
    if (!balls.length || !message || !message.called) return;
    var called = {};
    var last = null;
    message.called.forEach(function (label) {
      var n = parseInt(String(label).replace(/^[BINGO]/i, ""), 10);
      if (n) { called[n] = true; last = n; }
    });
    balls.forEach(function (ball) {
      var n = parseInt(ball.textContent, 10);
      ball.classList.toggle("is-called", !!called[n]);
      ball.classList.toggle("is-last", n === last);
    });
    var lastBox = board.querySelector(".flash-last");
    if (lastBox && last) lastBox.textContent = "BINGO".charAt(Math.floor((last - 1) / 15)) + last;
    var count = board.querySelector(".flash-count");
    if (count) count.textContent = message.called.length + " called";
  }

  var occasion = board.getAttribute("data-occasion");
  if (occasion && "BroadcastChannel" in window) {
    new BroadcastChannel("beano-board-" + occasion).onmessage = function (event) {
      latest = event.data;
      if (!failing) return;
      heard = true;
      offline.hidden = true;
      board.dataset.etag = ""; // the server's board, once it answers, replaces this one
      show(event.data);
    };
  }

  document.body.addEventListener("htmx:sendError", function () {
    failing = true;
    if (latest && !heard) {
      heard = true;
      board.dataset.etag = "";
      show(latest);
    }
    offline.hidden = heard;
  });
  document.body.addEventListener("htmx:afterRequest", function (evt) {
    if (evt.detail.xhr && evt.detail.xhr.status) { failing = false; heard = false; latest = null; }
  });
})();
