from django.urls import path

from organizations import views

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("org/<int:org_id>/", views.organization_home, name="organization_home"),
    path("org/<int:org_id>/details/", views.organization_edit, name="organization_edit"),
    path("org/<int:org_id>/members/", views.member_list, name="member_list"),
    path("org/<int:org_id>/members/add/", views.member_add, name="member_add"),
    path("org/<int:org_id>/members/<int:pk>/", views.member_edit, name="member_edit"),
    path("org/<int:org_id>/audit/", views.audit_log, name="audit_log"),
    path("org/<int:org_id>/authorizations/", views.authorization_list, name="authorization_list"),
    path(
        "org/<int:org_id>/authorizations/<int:pk>/document/",
        views.authorization_document,
        name="authorization_document",
    ),
    path("org/<int:org_id>/refused/", views.refused_actions, name="org_refused_actions"),
    path(
        "commission/refused/", views.commission_refused_actions, name="commission_refused_actions"
    ),
]
