"""The floor when the hall's Wi-Fi drops: what the hall laptop keeps to go on working offline
(its service worker, the night's pack), and the acts it queued, received in order and judged
by the same rules as of the moment each was done."""
