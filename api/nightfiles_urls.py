"""The API's nightfiles operations (docs/API.md)."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
