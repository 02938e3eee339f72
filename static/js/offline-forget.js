/* On the login page (where logout leads): the floor pages the service worker kept are deleted,
 * so that a page of the night, shown to someone signed in, is not readable from the laptop's
 * cache by the next person at a shared laptop. The styles and scripts (the worker's precache)
 * stay: they hold nothing of anyone's. The acts waiting on the laptop (IndexedDB) are the
 * floor's queue's to keep or not (static/js/offline.js), never deleted here. */
(function () {
  "use strict";
  if (window.caches) {
    window.caches.delete("beano-floor-pages").catch(function () {
      /* nothing kept, or storage refused: nothing to delete */
    });
  }
})();
