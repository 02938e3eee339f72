from django.urls import path

from games import jackpot_views

urlpatterns = [
    path("org/<int:org_id>/jackpots/", jackpot_views.jackpot_list, name="jackpot_list"),
    path("org/<int:org_id>/jackpots/start/", jackpot_views.jackpot_start, name="jackpot_start"),
    path(
        "org/<int:org_id>/jackpots/<int:pk>/", jackpot_views.jackpot_detail, name="jackpot_detail"
    ),
    path(
        "org/<int:org_id>/jackpots/<int:pk>/rules/",
        jackpot_views.jackpot_rules_change,
        name="jackpot_rules_change",
    ),
    path(
        "org/<int:org_id>/jackpots/games/<int:pk>/outcome/",
        jackpot_views.jackpot_game_outcome,
        name="jackpot_game_outcome",
    ),
    path(
        "org/<int:org_id>/occasions/<int:pk>/jackpot/",
        jackpot_views.occasion_jackpot,
        name="occasion_jackpot",
    ),
    path(
        "org/<int:org_id>/occasions/<int:pk>/jackpot/attach/",
        jackpot_views.occasion_jackpot_attach,
        name="occasion_jackpot_attach",
    ),
]
