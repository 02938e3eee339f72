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


@pytest.fixture
def listener():
    """A local HTTP server that counts the requests it gets: what WeasyPrint would fetch."""
    import http.server
    import threading

    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            hits.append(self.path)
            self.send_response(404)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", hits
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize(
    "tag",
    [
        '<img src="{url}/tracker.png" alt="">',
        '<link rel="stylesheet" href="{url}/style.css">',
        '<img src="file:///etc/passwd" alt="">',
        '<img src="../manage.py" alt="">',
    ],
)
def test_a_reports_pdf_reads_nothing_but_the_static_files(listener, tag):
    """The financial and annual reports' PDFs (reports/pdf.py) are made with the same fetcher
    as the control sheets: a document naming anything else (a name or an explanation that
    slipped past the template's escaping, a template mistake) stops the rendering, and nothing
    is fetched."""
    from weasyprint.urls import FatalURLFetchingError

    from reports import pdf

    url, hits = listener
    html = f"<html><body><p>Report</p>{tag.format(url=url)}</body></html>"
    with pytest.raises(FatalURLFetchingError):
        pdf.html_to_pdf(html)
    assert hits == []
