from django.urls import path

from games import claims_views, draw_views, jackpot_views
from games import program_views as views

PREFIX = "org/<int:org_id>/occasions/<int:pk>/games/"
CLAIMS = "org/<int:org_id>/occasions/<int:pk>/games/<int:game_pk>/claims/"

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
    path(PREFIX, views.program_page, name="game_program"),
    path(f"{PREFIX}add/", views.game_add, name="game_add"),
    path(f"{PREFIX}copy/", views.program_copy, name="program_copy"),
    path(f"{PREFIX}<int:game_pk>/parts/add/", views.prize_part_add, name="prize_part_add"),
    path(f"{PREFIX}<int:game_pk>/remove/", views.game_remove, name="game_remove"),
    path(f"{PREFIX}<int:game_pk>/balls/", views.game_confirm_balls, name="game_confirm_balls"),
    path(f"{PREFIX}<int:game_pk>/start/", views.game_start, name="game_start"),
    path(f"{PREFIX}<int:game_pk>/finish/", views.game_finish, name="game_finish"),
    path(
        f"{PREFIX}parts/<int:part_pk>/announce/",
        views.prize_part_announce,
        name="prize_part_announce",
    ),
    path(f"{PREFIX}parts/<int:part_pk>/remove/", views.prize_part_remove, name="prize_part_remove"),
    path(CLAIMS, claims_views.claims_page, name="game_claims"),
    path(CLAIMS + "record/", claims_views.claim_record, name="claim_record"),
    path(
        CLAIMS + "<int:claim_pk>/verify-draw/",
        claims_views.claim_verify_draw,
        name="claim_verify_draw",
    ),
    path(
        CLAIMS + "<int:claim_pk>/verify-card/",
        claims_views.claim_verify_card,
        name="claim_verify_card",
    ),
    path(CLAIMS + "split/", claims_views.winners_split, name="winners_split"),
    path(
        CLAIMS + "prizes/<int:part_pk>/winners/",
        claims_views.winners_record,
        name="winners_record",
    ),
    path(
        CLAIMS + "winners/<int:winner_pk>/payout/",
        claims_views.payout_record,
        name="payout_record",
    ),
    path("org/<int:org_id>/occasions/<int:pk>/draw/", draw_views.draw_home, name="draw_home"),
    path(
        "org/<int:org_id>/occasions/<int:pk>/games/<int:game_pk>/draw/",
        draw_views.draw_console,
        name="draw_console",
    ),
    path(
        "org/<int:org_id>/occasions/<int:pk>/games/<int:game_pk>/draw/board/",
        draw_views.draw_board,
        name="draw_board",
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
]

#: The public flashboard, polled every second by every screen of every hall: matched first
#: (beano/urls.py), before the hundreds of patterns of the signed-in pages are tried in turn.
flashboard_urlpatterns = [
    path("flash/<str:token>/", draw_views.flashboard, name="flashboard"),
    path("flash/<str:token>/board/", draw_views.flashboard_board, name="flashboard_board"),
]
