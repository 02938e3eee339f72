from django.urls import path

from games import claims_views

CLAIMS = "org/<int:org_id>/occasions/<int:pk>/games/<int:game_pk>/claims/"

urlpatterns = [
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
]
