"""The Celery broker's transport options, worked out from its URL and the deployment's timeouts
(``CELERY_BROKER_*`` in beano/settings.py). Kept apart from the settings so the fault tests can
build the same options for a broker that is down."""

from __future__ import annotations

from pathlib import Path
from typing import Any

#: Seconds to open a connection to the broker, and to wait for its answer once connected.
CONNECT_TIMEOUT = 3
SOCKET_TIMEOUT = 5
#: Seconds before Redis hands a message taken but never acknowledged (its worker died) to
#: another worker. Longer than any task runs or waits for its retry (the report's retries
#: wait at most 60 s), or a task still running would be handed out twice; short enough that a
#: report whose worker was killed is made again within minutes, not kombu's default hour.
VISIBILITY_TIMEOUT = 600


def named_host(url: str) -> str:
    """``url`` with the host kombu would fill in written out: ``filesystem://`` and ``memory://``
    name none, and kombu warns "No hostname was supplied" on every connection (seed_demo and the
    benchmarks printed it to a new user) though those transports use no host."""
    if url in ("filesystem://", "memory://"):
        return f"{url}localhost//"
    return url


def transport_options(
    url: str,
    *,
    broker_dir: Path,
    connect_timeout: int = CONNECT_TIMEOUT,
    socket_timeout: int = SOCKET_TIMEOUT,
    visibility_timeout: int = VISIBILITY_TIMEOUT,
) -> dict[str, Any]:
    """Options for kombu's transport of ``url``.

    Redis: bounded connect and socket timeouts, so that sending a task to a broker that is down
    or hung fails in seconds instead of holding the web request (a hung Redis otherwise waits
    forever); and the visibility timeout after which unacknowledged messages are restored, swept
    about a tenth as often as it, so a lost message is back within ~1.1 × the timeout.

    File system (the embedded default): the folders under ``broker_dir``. That transport takes a
    message off its folder when a worker fetches it, so a worker killed while running a task
    loses the message; ``reports.tasks`` sends such a report again when a worker starts."""
    if url.startswith("filesystem://"):
        return {
            "data_folder_in": str(broker_dir / "queue"),
            "data_folder_out": str(broker_dir / "queue"),
            "processed_folder": str(broker_dir / "processed"),
            "control_folder": str(broker_dir / "control"),
            "store_processed": False,
        }
    if url.startswith(("redis://", "rediss://")):
        return {
            "socket_connect_timeout": connect_timeout,
            "socket_timeout": socket_timeout,
            "visibility_timeout": visibility_timeout,
            "unacked_restore_interval": max(1, min(10, visibility_timeout // 10)),
            "unacked_restore_throttle": 1 if visibility_timeout < 100 else 10,
        }
    return {}
