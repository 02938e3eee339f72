"""What the offline floor adds to the floor's pages (``beano.links``): the scripts that install
the service worker and ask it to keep the night's pages, the laptop's queue (idb, then
offline.js: after floor.js, which the page loads before this place), and the banner saying how
many acts wait on the laptop."""

from __future__ import annotations

from beano.links import Include

INCLUDES = (
    Include("floor_banner", "offline/_banner.html"),
    Include("floor_scripts", "offline/_scripts.html"),
    Include("floor_scripts", "offline/_floor_scripts.html"),
)
