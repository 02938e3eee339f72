"""A night recorded from its paper control sheets: the night format (``format``), the acts it
holds and how they are recorded through the services in time order (``engine``), the night file
(``reader`` and ``writer``; ``engine`` imports it), the entry pages and the blank control sheets."""
