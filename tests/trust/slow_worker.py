"""A real Celery worker, as ``celery -A beano worker`` starts it, in which the report's render
hangs once, so a test can kill the worker in the middle of making a PDF. The hang is put in
here, by the test, and nowhere in the application:

- ``TRUST_HANG_AT=render``: before WeasyPrint runs (nothing written yet);
- ``TRUST_HANG_AT=saved``: just after the PDF file is written, before the version records it.

The first run to reach that point writes its process id to ``TRUST_HANG_MARK`` and sleeps; any
later run (the marker exists) goes straight through. Run: ``python -m tests.trust.slow_worker
[worker options]``."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

HANG_SECONDS = 600


def _hang_once() -> None:
    mark = Path(os.environ["TRUST_HANG_MARK"])
    try:
        with mark.open("x") as handle:  # only the first run creates it
            handle.write(str(os.getpid()))
    except FileExistsError:
        return
    time.sleep(HANG_SECONDS)


def install(where: str) -> None:
    if where == "render":
        from reports import pdf

        real_render = pdf.render_pdf

        def render_pdf(document: Any, **kwargs: Any) -> bytes:
            _hang_once()
            return real_render(document, **kwargs)

        pdf.render_pdf = render_pdf
    elif where == "saved":
        from django.core.files.storage import FileSystemStorage

        real_save = FileSystemStorage.save

        def save(self: Any, name: str, content: Any, *args: Any, **kwargs: Any) -> str:
            saved = real_save(self, name, content, *args, **kwargs)
            if saved.startswith("reports/"):
                _hang_once()
            return saved

        FileSystemStorage.save = save  # type: ignore[method-assign]
    elif where:
        raise SystemExit(f"TRUST_HANG_AT={where!r}: use 'render' or 'saved'")


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "beano.settings")
    import django

    django.setup()
    install(os.environ.get("TRUST_HANG_AT", ""))
    from beano.celery import app

    app.worker_main(["worker", *sys.argv[1:]])


if __name__ == "__main__":
    main()
