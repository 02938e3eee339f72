from django.urls import path

from organizations import equipment_views, people_views, views, worker_views

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
    path("org/<int:org_id>/workers/", worker_views.worker_list, name="worker_list"),
    path(
        "org/<int:org_id>/workers/print/", worker_views.worker_list_print, name="worker_list_print"
    ),
    path("org/<int:org_id>/workers/add/", worker_views.worker_add, name="worker_add"),
    path("org/<int:org_id>/workers/<int:pk>/", worker_views.worker_edit, name="worker_edit"),
    path(
        "org/<int:org_id>/workers/<int:pk>/remove/",
        worker_views.worker_remove,
        name="worker_remove",
    ),
    path(
        "org/<int:org_id>/workers/convictions/add/",
        worker_views.conviction_add,
        name="conviction_add",
    ),
]

urlpatterns += [
    path("org/<int:org_id>/equipment/", equipment_views.equipment_list, name="equipment_list"),
    path("org/<int:org_id>/equipment/add/", equipment_views.equipment_add, name="equipment_add"),
    path(
        "org/<int:org_id>/equipment/<int:pk>/",
        equipment_views.equipment_edit,
        name="equipment_edit",
    ),
    path(
        "org/<int:org_id>/equipment/<int:pk>/retire/",
        equipment_views.equipment_retire,
        name="equipment_retire",
    ),
    path(
        "org/<int:org_id>/equipment/<int:pk>/proof/",
        equipment_views.equipment_proof,
        name="equipment_proof",
    ),
]

urlpatterns += [
    path("org/<int:org_id>/people/", people_views.people_list, name="people_list"),
    path("org/<int:org_id>/people/invite/", people_views.people_invite, name="people_invite"),
    path("org/<int:org_id>/people/<int:pk>/roles/", people_views.people_roles, name="people_roles"),
    path(
        "org/<int:org_id>/people/<int:pk>/deactivate/",
        people_views.people_deactivate,
        name="people_deactivate",
    ),
    path(
        "org/<int:org_id>/people/<int:pk>/send-again/",
        people_views.people_send_again,
        name="people_send_again",
    ),
    path("invitation/<str:token>/", people_views.invitation_accept, name="invitation_accept"),
    path("commission/invite-head/", people_views.invite_head, name="invite_head"),
]
