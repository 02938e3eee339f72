"""The API's reads operations (docs/API.md)."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
