"""A bench's ``--profile``: each timed request's profile printed and kept in a file named after
it, in the temporary folder, for ``python -m pstats`` or a viewer."""

from __future__ import annotations

import cProfile
import pstats
import tempfile
from pathlib import Path


def slug(name: str) -> str:
    """A request's name as part of a file name: "ball call (htmx POST)" → "ball-call-htmx-post"."""
    return "-".join("".join(c if c.isalnum() else " " for c in name.lower()).split())


def show_profile(bench: str, name: str, profiler: cProfile.Profile) -> Path:
    """The profile's 30 costliest calls with what they call, its 20 costliest of their own, and
    the file it is written to (``<bench>-<name>.prof``)."""
    print(f"--- {name}: profile (the times measured include its cost)")
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
    path = Path(tempfile.gettempdir()) / f"{bench}-{slug(name)}.prof"
    profiler.dump_stats(path)
    return path
