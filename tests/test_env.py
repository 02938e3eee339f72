import pytest
from django.core.exceptions import ImproperlyConfigured

from beano.env import (
    BROKER_SCHEMES,
    CACHE_SCHEMES,
    DATABASE_SCHEMES,
    audit_key_id,
    audit_keys,
    cache_settings,
    env_bool,
    env_int,
    env_list,
    env_secret,
    env_timezone,
    env_url,
)


@pytest.mark.parametrize(
    "word,expected", [("1", True), ("yes", True), ("ON", True), ("0", False), ("off", False)]
)
def test_it_reads_yes_and_no(word: str, expected: bool) -> None:
    assert env_bool("DEBUG", not expected, {"DEBUG": word}) is expected


def test_it_uses_the_default_when_unset_or_blank() -> None:
    assert env_bool("DEBUG", True, {}) is True
    assert env_bool("DEBUG", False, {"DEBUG": "  "}) is False
    assert env_int("N", 7, {}) == 7


@pytest.mark.parametrize("word", ["ture", "2", "enabled"])
def test_it_refuses_a_bool_it_cannot_read(word: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="DEBUG"):
        env_bool("DEBUG", True, {"DEBUG": word})


def test_it_refuses_a_non_number_and_a_number_below_minimum() -> None:
    with pytest.raises(ImproperlyConfigured, match="whole number"):
        env_int("AGE", 1, {"AGE": "ten"})
    with pytest.raises(ImproperlyConfigured, match="minimum"):
        env_int("AGE", 1, {"AGE": "5"}, minimum=60)
    assert env_int("AGE", 1, {"AGE": "60"}, minimum=60) == 60


def test_it_refuses_an_empty_item_in_a_list() -> None:
    assert env_list("HOSTS", [], {"HOSTS": "a.example, b.example"}) == ["a.example", "b.example"]
    with pytest.raises(ImproperlyConfigured, match="empty item"):
        env_list("HOSTS", [], {"HOSTS": "a.example,,b.example"})


def test_it_requires_a_strong_secret_outside_debug() -> None:
    assert env_secret("SECRET_KEY", debug=True, dev_default="dev", environ={}) == "dev"
    with pytest.raises(ImproperlyConfigured, match="must be set"):
        env_secret("SECRET_KEY", debug=False, dev_default="dev", environ={})
    with pytest.raises(ImproperlyConfigured, match="too weak"):
        env_secret("SECRET_KEY", debug=False, dev_default="dev", environ={"SECRET_KEY": "short"})
    strong = "k3y-" + "abcdefghij" * 5
    assert (
        env_secret("SECRET_KEY", debug=False, dev_default="dev", environ={"SECRET_KEY": strong})
        == strong
    )


@pytest.mark.parametrize("url", ["postgress://x/y", "mysql://x/y", "not a url"])
def test_it_refuses_an_unknown_database_url(url: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        env_url("DATABASE_URL", "sqlite:///x", DATABASE_SCHEMES, {"DATABASE_URL": url})


def test_it_accepts_postgres_and_redis_urls() -> None:
    assert env_url("DATABASE_URL", "", DATABASE_SCHEMES, {"DATABASE_URL": "postgres://a@h/db"})
    assert env_url(
        "CELERY_BROKER_URL", "", BROKER_SCHEMES, {"CELERY_BROKER_URL": "redis://h:6379/0"}
    )
    with pytest.raises(ImproperlyConfigured):
        env_url("CELERY_BROKER_URL", "", BROKER_SCHEMES, {"CELERY_BROKER_URL": "amqp://h"})


def test_it_refuses_an_unknown_time_zone() -> None:
    assert env_timezone("TIME_ZONE", "America/New_York", {}) == "America/New_York"
    with pytest.raises(ImproperlyConfigured, match="time zone"):
        env_timezone("TIME_ZONE", "UTC", {"TIME_ZONE": "America/Boston"})


def test_a_cache_url_names_its_backend() -> None:
    redis = cache_settings(env_url("CACHE_URL", "", CACHE_SCHEMES, {"CACHE_URL": "redis://h/1"}))
    assert redis["BACKEND"].endswith("RedisCache") and redis["LOCATION"] == "redis://h/1"
    assert cache_settings("locmem://")["BACKEND"].endswith("LocMemCache")
    files = cache_settings("file:///srv/beano/cache")
    assert files["BACKEND"].endswith("FileBasedCache") and files["LOCATION"] == "/srv/beano/cache"
    with pytest.raises(ImproperlyConfigured, match="full path"):
        cache_settings("file://cache")
    assert cache_settings("dummy://")["BACKEND"].endswith("DummyCache")
    with pytest.raises(ImproperlyConfigured, match="CACHE_URL"):
        env_url("CACHE_URL", "locmem://", CACHE_SCHEMES, {"CACHE_URL": "memcached://h"})


KEY = "an-audit-key-of-forty-characters-012345"
OLD = "the-audit-key-before-the-rotation-678901"


def test_the_audit_key_comes_from_the_environment_with_its_fallbacks(tmp_path) -> None:
    keys = audit_keys(
        debug=False,
        key_file=tmp_path / "audit.key",
        secret_key="s" * 50,
        environ={"AUDIT_KEY": KEY, "AUDIT_KEY_FALLBACKS": OLD},
    )
    assert keys.current == audit_key_id(KEY.encode()) != audit_key_id(OLD.encode())
    assert keys.keys == {keys.current: KEY.encode(), audit_key_id(OLD.encode()): OLD.encode()}
    assert not (tmp_path / "audit.key").exists()
    assert KEY[:8] not in keys.current  # the id says nothing of the key


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({}, "AUDIT_KEY must be set when DEBUG is off"),
        ({"AUDIT_KEY": "short"}, "AUDIT_KEY is too weak"),
        ({"AUDIT_KEY": "a" * 40}, "AUDIT_KEY is too weak"),
        ({"AUDIT_KEY": KEY, "AUDIT_KEY_FALLBACKS": "short"}, "AUDIT_KEY_FALLBACKS is too weak"),
        ({"AUDIT_KEY": "s" * 20 + KEY}, "AUDIT_KEY must not be SECRET_KEY"),
    ],
)
def test_a_missing_weak_or_shared_audit_key_stops_the_start(tmp_path, environ, message) -> None:
    with pytest.raises(ImproperlyConfigured, match=message):
        audit_keys(debug=False, key_file=tmp_path / "k", secret_key="s" * 20 + KEY, environ=environ)


def test_the_embedded_default_keeps_one_key_in_its_data_folder(tmp_path) -> None:
    first = audit_keys(debug=True, key_file=tmp_path / "audit.key", secret_key="dev", environ={})
    again = audit_keys(debug=True, key_file=tmp_path / "audit.key", secret_key="dev", environ={})
    assert first == again
    assert [p.name for p in tmp_path.iterdir()] == ["audit.key"]  # no draft left behind
    key = (tmp_path / "audit.key").read_text().strip().encode()
    assert first.keys == {first.current: key} and first.current == audit_key_id(key)
