"""A request sent to a WSGI application as a server sends it, without HTTP: what gunicorn runs
(``beano.wsgi.application``, its first layer included), which Django's test client does not."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

HOST = "bench.beano.test"


def wsgi_get(app: Any, path: str, host: str = HOST, **headers: str) -> Any:
    """A GET sent to a WSGI application as a server behind the TLS proxy sends it: the answer's
    status code, headers and body (closed, as the server closes it, which ends Django's
    request). The environ is the one Django's test client builds."""
    from django.test import RequestFactory

    environ = RequestFactory()._base_environ(
        PATH_INFO=path,
        HTTP_HOST=host,
        SERVER_NAME=host,
        HTTP_X_FORWARDED_PROTO="https",
        **headers,
    )
    answered: list[tuple[str, list[tuple[str, str]]]] = []
    result = app(environ, lambda status, headers, *_: answered.append((status, headers)))
    try:
        content = b"".join(result)
    finally:
        if hasattr(result, "close"):
            result.close()
    status, sent = answered[0]
    return SimpleNamespace(status_code=int(status.split()[0]), headers=dict(sent), content=content)
