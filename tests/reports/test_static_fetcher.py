"""What WeasyPrint may read while it makes a PDF: the application's static files, nothing else
(no network, no other file of the server)."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest


def test_weasyprint_reads_nothing_but_the_static_files():
    from weasyprint.urls import URLFetcherResponse

    from reports.static_fetcher import StaticFilesOnly, static_base_url

    fetcher = StaticFilesOnly()
    response = fetcher.fetch(static_base_url() + "css/beano.css")
    assert isinstance(response, URLFetcherResponse) and response.read()
    response.close()
    for url in (
        "https://cdn.example.com/style.css",
        "file:///etc/passwd",
        static_base_url() + "../manage.py",
        "file://elsewhere" + urlsplit(static_base_url()).path + "css/beano.css",
    ):
        with pytest.raises(ValueError):
            fetcher.fetch(url)
