"""The broker's transport options the settings build (beano/broker.py): bounded waits on Redis,
and a visibility timeout whose restore sweep keeps pace with it."""

from __future__ import annotations

from pathlib import Path

from beano import broker


def test_redis_gets_bounded_waits_and_a_visibility_timeout() -> None:
    options = broker.transport_options("redis://127.0.0.1:6379/0", broker_dir=Path("/x"))
    assert options == {
        "socket_connect_timeout": 3,
        "socket_timeout": 5,
        "visibility_timeout": 600,
        "unacked_restore_interval": 10,
        "unacked_restore_throttle": 10,
    }


def test_a_short_visibility_timeout_is_swept_every_second() -> None:
    options = broker.transport_options(
        "rediss://h:6380/1", broker_dir=Path("/x"), visibility_timeout=5
    )
    assert options["visibility_timeout"] == 5
    assert options["unacked_restore_interval"] == 1
    assert options["unacked_restore_throttle"] == 1


def test_the_file_system_transport_gets_its_folders() -> None:
    options = broker.transport_options("filesystem://", broker_dir=Path("/data/broker"))
    assert options["data_folder_in"] == options["data_folder_out"] == "/data/broker/queue"
    assert options["processed_folder"] == "/data/broker/processed"
    assert "visibility_timeout" not in options
