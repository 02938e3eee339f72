from django.urls import path

from beano.rules import views

urlpatterns = [
    path("rules/", views.rules_catalog, name="rules_catalog"),
    path("limits/", views.limits, name="limits_in_force"),
]
