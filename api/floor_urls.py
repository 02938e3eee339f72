"""The API's floor operations (docs/API.md)."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
