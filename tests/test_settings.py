"""The settings module as a whole, loaded in a fresh process with a given environment."""

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PRODUCTION = {
    "DEBUG": "off",
    "SECRET_KEY": "production-" + "x1y2z3w4v5" * 5,
    "AUDIT_KEY": "audit-" + "k9j8h7g6f5" * 4,
    "ALLOWED_HOSTS": "beano.example.org",
    "DATABASE_URL": "postgres://beano@127.0.0.1:5432/beano",
    "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0",
    "CACHE_URL": "redis://127.0.0.1:6379/1",
}


def run_manage(args: list[str], env: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in PRODUCTION and k not in ("REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE")
    }
    clean["BEANO_DATA_DIR"] = str(tmp_path)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_it_passes_the_deployment_checks_with_production_values(tmp_path: Path) -> None:
    result = run_manage(["check", "--deploy", "--fail-level", "WARNING"], PRODUCTION, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("cache_url", ["", "locmem://"])  # the default: files on this machine
def test_the_deployment_check_warns_of_a_cache_not_shared_by_every_server(
    tmp_path: Path, cache_url: str
) -> None:
    env = {**PRODUCTION, "CACHE_URL": cache_url}
    result = run_manage(["check", "--deploy", "--fail-level", "WARNING"], env, tmp_path)
    assert result.returncode != 0
    assert "beano.W001" in result.stderr and "CACHE_URL" in result.stderr


def test_it_refuses_to_start_without_a_secret_key_in_production(tmp_path: Path) -> None:
    env = {k: v for k, v in PRODUCTION.items() if k != "SECRET_KEY"}
    result = run_manage(["check"], env, tmp_path)
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_it_refuses_to_start_with_a_misspelt_debug(tmp_path: Path) -> None:
    result = run_manage(["check"], {"DEBUG": "ture"}, tmp_path)
    assert result.returncode != 0
    assert "DEBUG='ture' is not a yes/no value" in result.stderr


HEADERS_SCRIPT = """
import json
from django.test import Client
response = Client().get("/", secure=True, HTTP_HOST="beano.example.org")
print(json.dumps({"status": response.status_code, **dict(response.headers)}))
"""


def test_a_production_response_carries_the_security_headers(tmp_path: Path) -> None:
    """A real response of the production settings (the login redirect: no database, no
    collected static files needed)."""
    import json

    env = {**PRODUCTION, "DATABASE_URL": f"sqlite:///{tmp_path}/db.sqlite3"}
    result = run_manage(["shell", "--no-imports", "-c", HEADERS_SCRIPT], env, tmp_path)
    assert result.returncode == 0, result.stderr
    headers = json.loads(result.stdout.strip().splitlines()[-1])
    assert headers["status"] == 302 and headers["Location"].startswith("/accounts/login/")
    policy = headers["Content-Security-Policy"]
    for directive in (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "frame-ancestors 'none'",
        "object-src 'none'",
    ):
        assert directive in policy
    assert "unsafe" not in policy
    assert headers["Strict-Transport-Security"].startswith("max-age=31536000")
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["Cross-Origin-Opener-Policy"] == "same-origin"


def test_it_refuses_a_visibility_timeout_that_is_not_a_number(tmp_path: Path) -> None:
    result = run_manage(["check"], {"CELERY_BROKER_VISIBILITY_TIMEOUT": "1h"}, tmp_path)
    assert result.returncode != 0
    assert "CELERY_BROKER_VISIBILITY_TIMEOUT='1h' is not a whole number" in result.stderr


def test_production_requires_an_audit_key_apart_from_the_secret_key(tmp_path: Path) -> None:
    env = {k: v for k, v in PRODUCTION.items() if k != "AUDIT_KEY"}
    result = run_manage(["check", "--deploy", "--fail-level", "WARNING"], env, tmp_path)
    assert result.returncode != 0
    assert "AUDIT_KEY must be set when DEBUG is off" in result.stderr
    same = {**PRODUCTION, "AUDIT_KEY": PRODUCTION["SECRET_KEY"]}
    result = run_manage(["check"], same, tmp_path)
    assert result.returncode != 0 and "AUDIT_KEY must not be SECRET_KEY" in result.stderr
    assert not (tmp_path / "audit.key").exists()


def test_the_embedded_default_makes_its_audit_key_once_and_prints_it_nowhere(
    tmp_path: Path,
) -> None:
    show = "from django.conf import settings as s; print(s.AUDIT_KEY_ID)"
    first = run_manage(["shell", "--no-imports", "-c", show], {}, tmp_path)
    assert first.returncode == 0, first.stderr
    key_file = tmp_path / "audit.key"
    key = key_file.read_text().strip()
    assert len(key) >= 32 and stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert key not in first.stdout + first.stderr
    again = run_manage(["shell", "--no-imports", "-c", show], {}, tmp_path)
    assert again.stdout == first.stdout and key_file.read_text().strip() == key


@pytest.mark.parametrize(("setting", "threshold"), [(None, "5"), ("off", "None"), ("on", "5")])
def test_postgresql_prepares_the_nights_reads_unless_told_not_to(
    tmp_path: Path, setting: str | None, threshold: str
) -> None:
    env = {"DATABASE_URL": PRODUCTION["DATABASE_URL"]}
    if setting is not None:
        env["DB_PREPARED_STATEMENTS"] = setting
    shown = (
        "from django.conf import settings as s; "
        "print(s.DATABASES['default']['OPTIONS'].get('prepare_threshold'))"
    )
    result = run_manage(["shell", "--no-imports", "-c", shown], env, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == threshold
