from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from api import org_views, token_views

app_patterns = [
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="api_schema"),
    path(
        "api/v1/docs/", SpectacularSwaggerSplitView.as_view(url_name="api_schema"), name="api_docs"
    ),
    path("api/v1/organizations/", org_views.OrganizationList.as_view(), name="api_organizations"),
    path("api/v1/", include("api.reads_urls")),
    path("api/v1/", include("api.floor_urls")),
    path("api/v1/", include("api.nightfiles_urls")),
    path("api/v1/", include("api.commission_urls")),
]

urlpatterns = [
    *app_patterns,
    path("org/<int:org_id>/api-tokens/", token_views.token_list, name="api_tokens"),
    path(
        "org/<int:org_id>/api-tokens/<int:pk>/revoke/",
        token_views.token_revoke,
        name="api_token_revoke",
    ),
    path("commission/api-tokens/", token_views.commission_tokens, name="commission_api_tokens"),
    path(
        "commission/api-tokens/<int:pk>/revoke/",
        token_views.commission_token_revoke,
        name="commission_api_token_revoke",
    ),
]
