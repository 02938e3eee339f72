"""What the offline floor adds to the floor's pages (``beano.links``): the scripts that install
the service worker and ask it to keep the night's pages."""

from __future__ import annotations

from beano.links import Include

INCLUDES = (Include("floor_scripts", "offline/_floor_scripts.html"),)
