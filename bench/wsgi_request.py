"""A request sent to a WSGI application as a server sends it, without HTTP: what gunicorn runs
(``beano.wsgi.application``, its first layer included), which Django's test client does not."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

HOST = "bench.beano.test"


def wsgi_request(app: Any, path: str, method: str = "GET", **environ: str) -> Any:
    """``method`` ``path`` sent to a WSGI application, with ``environ`` over the environ Django's
    test client builds: the answer's status code, headers and body (closed, as the server closes
    it, which ends Django's request)."""
    from django.test import RequestFactory

    sent = RequestFactory()._base_environ(REQUEST_METHOD=method, PATH_INFO=path, **environ)
    answered: list[tuple[str, list[tuple[str, str]]]] = []
    result = app(sent, lambda status, headers, *_: answered.append((status, headers)))
    try:
        content = b"".join(result)
    finally:
        if hasattr(result, "close"):
            result.close()
    status, headers = answered[0]
    return SimpleNamespace(
        status_code=int(status.split()[0]), headers=dict(headers), content=content
    )


def wsgi_get(app: Any, path: str, host: str = HOST, **headers: str) -> Any:
    """A GET as a server behind the TLS proxy sends it (``wsgi_request``)."""
    return wsgi_request(
        app, path, HTTP_HOST=host, SERVER_NAME=host, HTTP_X_FORWARDED_PROTO="https", **headers
    )
