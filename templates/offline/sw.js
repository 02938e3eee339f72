{% autoescape off %}/* The hall laptop's service worker (offline/sw_views.py draws it; issue 42).

When the hall's Wi-Fi drops, a reload or a browser restart must show the floor page again, not
the browser's error page. So this worker keeps:
- the floor's styles and scripts, when it installs (a revision per file: a changed file is
  fetched again, the others are not);
- each floor page as it is shown online, and the night's pages the page asks it to keep
  (static/js/offline-register.js), in the cache "beano-floor-pages", which the login page
  empties (a floor page must not stay readable on a shared laptop after logout);
- the /offline/ page, shown for any other page asked for with no connection.
It never keeps a POST, an answer other than a plain 200, or a page outside the floor's. */
"use strict";

importScripts(...{{ workbox }});

const PAGES_CACHE = "beano-floor-pages";
const OFFLINE_URL = {{ offline_url }};
// The floor pages' paths, from their URL patterns (door, workers, draw, console, claims,
// flashboard, occasion page), and the night pack's.
const FLOOR_PAGES = {{ pages }}.map((source) => new RegExp(source));
const PACK = new RegExp({{ pack }});

// A new worker takes over at once, and takes the pages already open: the first page load of
// the night is then covered without a second one.
self.skipWaiting();
workbox.core.clientsClaim();

workbox.precaching.cleanupOutdatedCaches();
workbox.precaching.precacheAndRoute({{ precache }});

// Only a plain 200 is kept: not a refusal, an error, or the login page a lapsed session is sent
// to (a redirect followed), which would otherwise stand in for the floor page offline.
const onlyPlain200 = {
  cacheWillUpdate: async ({ response }) =>
    response && response.status === 200 && !response.redirected ? response : null,
};

const floorFirstFromNetwork = new workbox.strategies.NetworkFirst({
  cacheName: PAGES_CACHE,
  networkTimeoutSeconds: 4,
  plugins: [onlyPlain200],
  // The pages vary by cookie and by htmx's header; the laptop keeps one copy of each page.
  matchOptions: { ignoreVary: true },
});

// A floor page: when the browser navigates to it, or when a page asks for it to be kept (a
// "CACHE_URLS" message, answered by workbox-routing's default router). Not htmx's requests to
// the same address, whose answer is a part of the page.
const isFloorPage = ({ url, request, event, sameOrigin }) =>
  sameOrigin &&
  FLOOR_PAGES.some((page) => page.test(url.pathname)) &&
  (request.mode === "navigate" || (event && event.type === "message"));
workbox.routing.registerRoute(isFloorPage, floorFirstFromNetwork);

// The night pack: what the floor pages need offline (prices, program, workers, board).
workbox.routing.registerRoute(
  ({ url, sameOrigin }) => sameOrigin && PACK.test(url.pathname),
  floorFirstFromNetwork,
);

// Any other page goes to the network as usual; when it cannot, the catch below answers.
workbox.routing.registerRoute(
  new workbox.routing.NavigationRoute(new workbox.strategies.NetworkOnly()),
);

// No connection and nothing kept: a page gets /offline/ (saying so, with the way back), and
// anything else fails as it would with no worker.
workbox.routing.setCatchHandler(async ({ request }) => {
  if (request.mode === "navigate") {
    const page = await workbox.precaching.matchPrecache(OFFLINE_URL);
    if (page) return page;
  }
  return Response.error();
});
{% endautoescape %}
