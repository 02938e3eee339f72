// Small behaviours shared by every page, kept out of the templates so the Content Security
// Policy can forbid inline script and style (see SECURITY.md):
//   data-confirm="Question?"   on a button or link: asks first, does nothing if cancelled
//   data-print                 on a button: prints the page
//   data-select-on-click       on an input: selects its text (a link to copy)
//   data-progress="42"         on a .progress-bar: its width, in percent
//   data-scroll-to="ID"        anywhere: on load, scrolls to the element with that id (a
//                              <details> or a dropdown's menu is opened first; its top kept
//                              below a sticky header) and puts the cursor on its first field
//                              in error; inside a part of the page htmx swaps in (a refusal
//                              placed by what caused it), on that swap
//   #hall-clock[data-time-zone] ticks every second in that time zone
//   [data-sticky-header]       the night's sticky header: its height is kept in the page's
//                              --sticky-header, the scroll padding below which whatever the page
//                              scrolls to (an anchor, a heading, the focus) stops
(function () {
  "use strict";

  function stickyHeader() {
    var header = document.querySelector("[data-sticky-header]");
    return header && getComputedStyle(header).position === "sticky" ? header : null;
  }

  // Its height changes with the text size, the width (two lines, or not sticky at all on a
  // narrow screen) and what the bar says.
  function keepClearOfTheHeader() {
    var marked = document.querySelector("[data-sticky-header]");
    if (!marked) return;
    function measure() {
      var header = stickyHeader();
      var height = header ? Math.ceil(header.getBoundingClientRect().height) : 0;
      document.documentElement.style.setProperty("--sticky-header", height + "px");
    }
    measure();
    if (window.ResizeObserver) new ResizeObserver(measure).observe(marked);
    window.addEventListener("resize", measure);
  }

  document.addEventListener("click", function (event) {
    var asking = event.target.closest("[data-confirm]");
    if (asking && !window.confirm(asking.getAttribute("data-confirm"))) {
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    if (event.target.closest("[data-print]")) {
      window.print();
      return;
    }
    var field = event.target.closest("[data-select-on-click]");
    if (field && typeof field.select === "function") field.select();
  }, true);

  function setWidths(root) {
    root.querySelectorAll("[data-progress]").forEach(function (bar) {
      var value = parseFloat(bar.getAttribute("data-progress"));
      if (!isNaN(value)) bar.style.width = Math.max(0, Math.min(100, value)) + "%";
    });
  }

  function scrollToTarget(root) {
    var marker = (root || document).querySelector("[data-scroll-to]");
    if (!marker) return;
    var target = document.getElementById(marker.getAttribute("data-scroll-to"));
    if (!target) return;
    if (target.tagName === "DETAILS") target.open = true;
    // A form in a Bootstrap dropdown (a receipt's void) is opened by its toggle, placed as a
    // click would place it.
    var toggle = target.classList.contains("dropdown-menu") && target.parentElement &&
      target.parentElement.querySelector("[data-bs-toggle=dropdown]");
    if (toggle && window.bootstrap) window.bootstrap.Dropdown.getOrCreateInstance(toggle).show();
    target.scrollIntoView({block: "center", behavior: "instant"});
    // Taller than the room left: its top (a summary's title) is shown, below the night's
    // sticky header rather than behind it.
    var header = stickyHeader();
    var room = header ? header.getBoundingClientRect().bottom + 8 : 8;
    var top = target.getBoundingClientRect().top;
    if (top < room) window.scrollBy(0, top - room);
    // The form shown again for a refusal or bad input: the cursor goes to what needs fixing;
    // a summary's button, where it would have had the focus, without the browser scrolling its
    // title away to bring the button in.
    var field = target.querySelector("[aria-invalid=true], .is-invalid") ||
      target.querySelector("input:not([type=hidden]), select, textarea, [autofocus]");
    if (field && !target.contains(document.activeElement)) field.focus({preventScroll: true});
  }

  function startClock() {
    var clock = document.getElementById("hall-clock");
    if (!clock) return;
    var zone = clock.getAttribute("data-time-zone") || undefined;
    setInterval(function () {
      clock.textContent = new Date().toLocaleTimeString("en-US", {timeZone: zone});
    }, 1000);
  }

  function ready() {
    keepClearOfTheHeader();
    setWidths(document);
    scrollToTarget();
    startClock();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", ready);
  } else {
    ready();
  }
  // Parts of a page swapped in by htmx get their widths too.
  // A refusal swapped in is scrolled into view; only a marker in what was swapped counts, so
  // the page's own marker does not pull the page back at every swap.
  document.addEventListener("htmx:afterSettle", function (event) {
    setWidths(document);
    var swapped = event.target;
    if (swapped && swapped.isConnected && swapped.querySelector) scrollToTarget(swapped);
  });
})();
