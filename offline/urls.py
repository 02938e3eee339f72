"""The offline floor's addresses."""

from __future__ import annotations

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
