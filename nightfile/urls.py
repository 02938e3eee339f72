"""The pages of a night entered from its paper control sheets, the blank control sheets and the
close after the fact; their paths and names are those they had under reports."""

from django.urls import path

from nightfile import day_views, game_views, late_close_views, sheet_views, upload_views, views

ORG = "org/<int:org_id>/"
OCC = ORG + "occasions/<int:pk>/"

urlpatterns = [
    path(OCC + "close-late/", late_close_views.occasion_close_late, name="occasion_close_late"),
    path(OCC + "paper/", views.paper_home, name="paper_home"),
    path(ORG + "occasions/day/<str:day>/paper/", day_views.paper_for_day, name="paper_for_day"),
    path(OCC + "paper/games/", game_views.paper_games, name="paper_games"),
    path(OCC + "paper/games/<int:number>/", game_views.paper_game, name="paper_game"),
    path(OCC + "paper/<slug:section>/", views.paper_section, name="paper_section"),
    path(OCC + "control-sheets.pdf", sheet_views.control_sheets_pdf, name="control_sheets"),
    path(ORG + "night-files/upload/", upload_views.night_upload, name="night_upload"),
    path(
        ORG + "night-files/upload/confirm/",
        upload_views.night_upload_confirm,
        name="night_upload_confirm",
    ),
]
