"""A request sent to a WSGI application as a server sends it, without HTTP: what gunicorn runs
(``beano.wsgi.application``, its first layer included), which Django's test client does not."""

from __future__ import annotations

import io
import sys
from types import SimpleNamespace
from typing import Any

HOST = "bench.beano.test"


def wsgi_get(app: Any, path: str, host: str = HOST, **headers: str) -> Any:
    """A GET sent to a WSGI application as a server behind the TLS proxy sends it: the answer's
    status code and body (closed, as the server closes it, which ends Django's request)."""
    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": host,
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": host,
        "HTTP_X_FORWARDED_PROTO": "https",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(b""),
        "wsgi.errors": sys.stderr,
        "wsgi.version": (1, 0),
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        **headers,
    }
    answered: list[str] = []
    result = app(environ, lambda status, headers, *_: answered.append(status))
    try:
        content = b"".join(result)
    finally:
        if hasattr(result, "close"):
            result.close()
    return SimpleNamespace(status_code=int(answered[0].split()[0]), content=content)
