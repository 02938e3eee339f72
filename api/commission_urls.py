"""The API's commission operations (docs/API.md)."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
