"""How the API knows its caller: ``Authorization: Bearer <token>`` and nothing else. No session
and no CSRF: a browser signed in to the pages is nobody to the API (401)."""

from __future__ import annotations

from typing import Any

from rest_framework import authentication, exceptions
from rest_framework.request import Request

from api import tokens
from api.models import ApiToken


class TokenAuthentication(authentication.BaseAuthentication):
    keyword = "Bearer"

    def authenticate(self, request: Request) -> tuple[Any, ApiToken] | None:
        header = authentication.get_authorization_header(request).decode("latin-1")
        if not header:
            return None
        keyword, _, plain = header.partition(" ")
        if keyword != self.keyword or not plain.strip():
            raise exceptions.AuthenticationFailed(
                "Give the token as “Authorization: Bearer beano_…”."
            )
        token = tokens.recognise(plain.strip())
        if token is None:
            raise exceptions.AuthenticationFailed(
                "This token is not known, or was revoked, or its maker no longer holds the "
                "office that made it."
            )
        return token.actor, token

    def authenticate_header(self, request: Request) -> str:
        return f'{self.keyword} realm="api"'
