// The flashboard polls its board every second. The server answers 304 while nothing changed
// (the browser may turn that into its cached 200): either way the same ETag means no swap,
// so the screen never flickers. A link turned off (404) says so; a lost connection is shown
// discreetly and the board keeps its last state until the hall's Wi-Fi comes back.
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
  document.body.addEventListener("htmx:sendError", function () {
    offline.hidden = false;
  });
})();
