from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from beano.accounts import views as account_views

admin.site.site_header = "Beano occasions — Commission administration"
admin.site.site_title = "Beano occasions admin"

urlpatterns = [
    path("accounts/login/", account_views.SignInView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password/", account_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("accounts/", include("beano.accounts.urls")),
    path("admin/", admin.site.urls),
    path("", include("beano.rules.urls")),
    path("", include("organizations.urls")),
    path("", include("occasions.urls")),
    path("", include("games.urls")),
    path("", include("reports.urls")),
    path("", include("inspections.urls")),
]
