"""The API's operations are held to ``access_matrix.API_ENDPOINTS``: each view answers exactly
the scopes its entry names (a view that widened its scopes would fail here), and every
operation under /api/v1/ has an entry."""

from __future__ import annotations

from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver

from api.base import ApiView
from organizations import access_matrix


def _api_patterns() -> dict[str, Any]:
    found: dict[str, Any] = {}

    def walk(patterns: list[Any], prefix: str) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern) and (prefix + str(p.pattern)).startswith("api/v1/"):
                found[p.name] = p.callback

    walk(get_resolver().url_patterns, "")
    return found


def test_every_operation_is_in_the_matrix_and_answers_its_scopes():
    patterns = _api_patterns()
    assert "api_organizations" in patterns
    documentation = {"api_schema", "api_docs"}
    assert set(patterns) - documentation == set(access_matrix.API_ENDPOINTS)
    for name, callback in patterns.items():
        if name in documentation:
            continue
        view = callback.view_class
        assert issubclass(view, ApiView), name
        entry = access_matrix.API_ENDPOINTS[name]
        assert set(view.read_scopes) == set(entry.read), name
        assert set(view.write_scopes) == set(entry.write), name


def test_a_session_is_nobody_to_every_operation():
    """The API's settings take no session: only the token authentication class."""
    from django.conf import settings

    assert settings.REST_FRAMEWORK["DEFAULT_AUTHENTICATION_CLASSES"] == [
        "api.authentication.TokenAuthentication"
    ]
    for name, callback in _api_patterns().items():
        if name in {"api_schema", "api_docs"}:
            continue
        classes = callback.view_class.authentication_classes
        assert [c.__module__ + "." + c.__name__ for c in classes] == [
            "api.authentication.TokenAuthentication"
        ], name
