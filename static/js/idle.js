// The idle sign-out's warning (beano/accounts/middleware.py). The page knows, from its
// #idle-warning, the seconds left before the server signs this session out; every request of
// the page that is not a poll (X-Beano-Poll) starts them again. Two minutes before the end a
// warning shows, counting down, with a button that tells the server the person is still here.
// A night's console or door page, in the browser of someone who runs the night, sends a
// heartbeat every few minutes while it is on screen; its answer says how long is left.
// No inline style is set: the warning is shown and hidden by its "hidden" attribute (the CSP).
(function () {
  "use strict";
  var box = document.getElementById("idle-warning");
  if (!box) return;
  var left = box.querySelector("[data-idle-left]");
  var form = box.querySelector("[data-stay-form]");
  var warn = parseInt(box.getAttribute("data-warn-seconds"), 10) || 120;
  var deadline = Date.now() + (parseInt(box.getAttribute("data-idle-seconds"), 10) || 0) * 1000;
  var heartbeat = document.querySelector("[data-heartbeat-url]");
  var BEAT_EVERY = 4 * 60 * 1000;

  function restart(seconds) {
    deadline = Date.now() + seconds * 1000;
    box.hidden = true;
  }
  function full() {
    return parseInt(box.getAttribute("data-after-request-seconds"), 10) || 0;
  }
  function tick() {
    var seconds = Math.max(0, Math.round((deadline - Date.now()) / 1000));
    if (seconds > warn) {
      box.hidden = true;
      return;
    }
    if (seconds === 0) {
      window.location.reload(); // the server signs out and says why
      return;
    }
    left.textContent = Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
    if (box.hidden) {
      box.hidden = false;
      form.querySelector("button").focus({preventScroll: true});
    }
  }
  function idleFrom(xhr, fallback) {
    var header = xhr && xhr.getResponseHeader ? xhr.getResponseHeader("X-Idle-Seconds") : null;
    var seconds = parseInt(header, 10);
    return isNaN(seconds) ? fallback : seconds;
  }

  // A request of the page that is not a poll is activity: the clock starts again.
  document.addEventListener("htmx:afterRequest", function (event) {
    var headers = (event.detail.requestConfig && event.detail.requestConfig.headers) || {};
    if (headers["X-Beano-Poll"] || !event.detail.successful) return;
    restart(idleFrom(event.detail.xhr, full()));
  });

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    fetch(form.action, {method: "POST", body: new FormData(form), credentials: "same-origin",
                        headers: {"X-Requested-With": "fetch"}})
      .then(function (response) {
        if (response.ok && !response.redirected) restart(idleFrom({getResponseHeader: function (n) { return response.headers.get(n); }}, full()));
        else window.location.reload();
      })
      .catch(function () { /* offline: the warning stays, the button can be pressed again */ });
  });

  if (heartbeat) {
    setInterval(function () {
      if (document.visibilityState !== "visible") return;
      var token = form.querySelector("[name=csrfmiddlewaretoken]").value;
      fetch(heartbeat.getAttribute("data-heartbeat-url"), {
        method: "POST", credentials: "same-origin",
        headers: {"X-CSRFToken": token, "X-Beano-Poll": "1"}
      }).then(function (response) {
        var seconds = parseInt(response.headers.get("X-Idle-Seconds"), 10);
        if (response.ok && !isNaN(seconds)) restart(seconds);
      }).catch(function () {});
    }, BEAT_EVERY);
  }
  setInterval(tick, 1000);
  tick();
})();
