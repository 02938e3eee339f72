/* The hall laptop's service worker, installed from each floor page (issue 42).
 *
 * The worker (/sw.js) keeps the floor pages so that a reload or a browser restart with the
 * Wi-Fi down shows them again. A page shown before the worker was there did not pass through
 * it, so once the worker is active this asks it to keep the page, and the night's other pages
 * listed in the night pack ("pages": the door, workers, draw, each game's console and claims,
 * the flashboard), before the Wi-Fi has a chance to drop. Without the pack (the flashboard's
 * screen, which has no login) it keeps what the page names.
 *
 * The night's pages are asked for again at most every few minutes from one tab: each is a
 * request to the server, and the pages shown are kept anyway each time they are opened. */
(function () {
  "use strict";

  var script = document.querySelector("script[data-offline-register]");
  if (!script || !("serviceWorker" in navigator) || !window.workbox) {
    return; // a browser with no service workers (or not on a secure address) works online only
  }

  var AGAIN_AFTER_MS = 5 * 60 * 1000;
  var kept = "beano-offline-kept:" + (script.dataset.offlinePack || location.pathname);
  // The page came from the network, not through the worker: it is not kept yet.
  var pageNotKept = !navigator.serviceWorker.controller;

  // Every address in the pack's "pages" (strings, and objects of game id to address).
  function addresses(pages) {
    var out = [];
    Object.keys(pages || {}).forEach(function (name) {
      var value = pages[name];
      if (typeof value === "string") {
        out.push(value);
      } else if (value && typeof value === "object") {
        out = out.concat(addresses(value));
      }
    });
    return out;
  }

  function nightPages() {
    var named = (script.dataset.offlinePages || "").split(" ").filter(Boolean);
    if (!script.dataset.offlinePack) {
      return Promise.resolve(named);
    }
    return fetch(script.dataset.offlinePack, {
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    })
      .then(function (response) {
        return response.ok && !response.redirected ? response.json() : null;
      })
      .then(function (pack) {
        return pack && pack.pages ? addresses(pack.pages) : named;
      })
      .catch(function () {
        return named; // offline, or no pack yet: keep what the page names
      });
  }

  function dueAgain() {
    try {
      var last = Number(sessionStorage.getItem(kept) || 0);
      return Date.now() - last > AGAIN_AFTER_MS;
    } catch (e) {
      return true;
    }
  }

  function keep(worker) {
    var due = dueAgain();
    var asked = due ? nightPages() : Promise.resolve([]);
    return asked.then(function (pages) {
      var urls = pages.slice();
      if (due && script.dataset.offlinePack) {
        // The pack itself, for the floor's scripts offline (fetched above perhaps before the
        // worker took this page: not through it, not kept).
        urls.push(script.dataset.offlinePack);
      }
      if (pageNotKept) {
        urls.unshift(location.pathname + location.search);
      }
      urls = urls.filter(function (url, i) {
        return urls.indexOf(url) === i;
      });
      if (!urls.length) {
        return null;
      }
      // Answered once the worker has kept them (or tried: a page it cannot reach is skipped).
      var message = { type: "CACHE_URLS", payload: { urlsToCache: urls } };
      return window.workbox.messageSW(worker, message).then(function () {
        if (due) {
          try {
            sessionStorage.setItem(kept, String(Date.now()));
          } catch (e) {
            /* a private window without storage asks again next time */
          }
        }
      });
    });
  }

  var wb = new window.workbox.Workbox(script.dataset.sw);
  wb.register()
    .then(function () {
      // The registration's active worker, whether installed just now or long ago (Workbox's
      // own "active" waits for a worker this page installed or is controlled by).
      return navigator.serviceWorker.ready;
    })
    .then(function (registration) {
      return keep(registration.active);
    })
    .then(function () {
      // For the tests and for anyone looking: this page is kept on the laptop.
      document.documentElement.dataset.offlineKept = "yes";
    })
    .catch(function () {
      /* no worker (a browser setting) or nothing kept: the page works online */
    });
})();
