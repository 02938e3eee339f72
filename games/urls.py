from django.urls import path

from games import draw_views

urlpatterns = [
    path("org/<int:org_id>/occasions/<int:pk>/draw/", draw_views.draw_home, name="draw_home"),
    path(
        "org/<int:org_id>/occasions/<int:pk>/games/<int:game_pk>/draw/",
        draw_views.draw_console,
        name="draw_console",
    ),
    path(
        "org/<int:org_id>/occasions/<int:pk>/games/<int:game_pk>/draw/call/",
        draw_views.draw_call,
        name="draw_call",
    ),
    path(
        "org/<int:org_id>/occasions/<int:pk>/games/<int:game_pk>/draw/calls/<int:call_pk>/correct/",
        draw_views.draw_correct,
        name="draw_correct",
    ),
    path(
        "org/<int:org_id>/occasions/<int:pk>/flashboard/",
        draw_views.flashboard_link,
        name="flashboard_link",
    ),
    path("flash/<str:token>/", draw_views.flashboard, name="flashboard"),
    path("flash/<str:token>/board/", draw_views.flashboard_board, name="flashboard_board"),
]
