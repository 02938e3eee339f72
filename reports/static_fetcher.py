"""What WeasyPrint may read while it makes a PDF: the application's own static files, and
nothing else. Imported only where a PDF is made (WeasyPrint takes a second to import)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit
from urllib.request import url2pathname

from django.conf import settings
from weasyprint.urls import URLFetcher, URLFetcherResponse


def static_base_url() -> str:
    """The base URL of a document that links the application's static files: a stylesheet
    named ``css/….css`` is read from the project's ``static/`` folder."""
    return Path(settings.STATICFILES_DIRS[0]).resolve().as_uri() + "/"


class StaticFilesOnly(URLFetcher):
    """WeasyPrint's fetcher, allowed the application's own static files and nothing else: no
    network, no other file on the server. A template naming anything else is a mistake, so the
    rendering stops rather than print without it or reach out of the server."""

    def __init__(self) -> None:
        super().__init__(allowed_protocols=("file",), fail_on_errors=True)

    def fetch(self, url: str, headers: dict[str, str] | None = None) -> URLFetcherResponse:
        parts = urlsplit(url)
        path = Path(url2pathname(parts.path)).resolve() if parts.scheme == "file" else None
        roots = [Path(root).resolve() for root in settings.STATICFILES_DIRS]
        if path is None or parts.netloc or not any(path.is_relative_to(r) for r in roots):
            raise ValueError(f"Only the application's static files are read, not {url}")
        return super().fetch(path.as_uri(), headers)
