from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from beano.accounts import reset
from beano.accounts import views as account_views
from games.urls import flashboard_urlpatterns

admin.site.site_header = "Beano occasions — Commission administration"
admin.site.site_title = "Beano occasions admin"

urlpatterns = [
    path("", include(flashboard_urlpatterns)),
    path("accounts/login/", account_views.SignInView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password/", account_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("accounts/password/reset/", reset.ResetView.as_view(), name="password_reset"),
    path(
        "accounts/password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        reset.ResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password/reset/complete/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("accounts/", include("beano.accounts.urls")),
    path("admin/", admin.site.urls),
    path("", include("beano.rules.urls")),
    path("", include("organizations.urls")),
    path("", include("occasions.urls")),
    path("", include("equipment.urls")),
    path("", include("games.urls")),
    path("", include("offline.urls")),
    path("", include("reports.urls")),
    path("", include("banking.urls")),
    path("", include("nightfile.urls")),
    path("", include("inspections.urls")),
    path("", include("api.urls")),
]

#: Under /api/, a problem (application/problem+json); elsewhere, the site's page (404.html).
handler404 = "api.errors.page_not_found"
