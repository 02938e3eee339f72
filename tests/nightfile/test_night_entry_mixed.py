"""A night partly live and partly on paper: an outage kept on paper and entered when the Wi-Fi came
back gives the known figures and marks only the outage; an act outside the paper period is
refused."""

from __future__ import annotations

from decimal import Decimal

import pytest

from nightfile import acts, extras_acts, floor_acts, game_acts, reader
from nightfile import format as fmt
from occasions.models import Sale
from organizations.models import AuditEvent
from reports.figures import compute_figures
from tests.conftest import PASSWORD
from tests.nightfile.night_fixtures import known_night
from tests.nightfile.test_night_entry import codes
from tests.reports.conftest import KNOWN

# A mixed night: live, an outage kept on paper and entered when the Wi-Fi came back, live ---------


def test_a_mixed_night_gives_the_known_figures_and_marks_only_the_outage(
    night_records, occasion, report_clock
):
    from beano.rules.claims import Witness
    from beano.rules.opening import CHECKLIST
    from games import claims_services, draw_services, payout_services
    from games import program_services as program
    from games.claims_services import PlayerEntry
    from games.models import Arrangement, Game
    from occasions import extras_services, floor_services, paper, raffle_services
    from occasions import services as occasion_services
    from occasions.models import PriceListItem
    from occasions.sales_services import (
        record_sale,
        start_second_half,
        void_sale,
    )
    from tests.fixtures.night import SAMPLE_PRICES
    from tests.reports.conftest import at

    tenant = night_records
    mic = tenant.member_in_charge
    crew = {e.person.legal_name: e for e in tenant.organization.worker_lists.get().entries.all()}

    def live(hour: int, minute: int) -> None:
        report_clock(at(hour, minute))

    # Live, from 6:30 PM.
    live(18, 30)
    occasion_services.set_price_list(occasion=occasion, items=SAMPLE_PRICES, by=mic)
    roles = {
        "Linda Souza": "member_in_charge",
        "Robert Medeiros": "gross_receipts",
        "Karen Pacheco": "bookkeeper",
        "Mary Gallagher": "seller",
        "Anne Sullivan": "member_in_charge",
    }
    for name, role in roles.items():
        entry = crew[name]
        floor_services.sign_in_worker(
            occasion=occasion, entry=entry, role=role, identification=entry.identification, by=mic
        )
    single_line = Arrangement.objects.get(code="single_line")
    for number, half, kind, part in (
        (1, 1, "regular", ("cash", "50.00", "", False)),
        (2, 1, "regular", ("merchandise", "30.00", "Toaster", False)),
        (3, 2, "special", ("merchandise", "80.00", "Donated quilt", True)),
    ):
        game = program.add_game(occasion=occasion, number=number, half=half, kind=kind, by=mic)
        program.add_prize_part(
            game=game,
            arrangement=single_line,
            kind=part[0],
            amount=Decimal(part[1]),
            description=part[2],
            donated=part[3],
            is_bonus=False,
            by=mic,
        )
    live(18, 40)
    for item in CHECKLIST:
        floor_services.confirm_check(occasion=occasion, item=item.code, by=mic)
    live(18, 45)
    floor_services.open_occasion(occasion=occasion, by=mic)
    live(18, 46)
    extras_services.announce_varying_prizes(
        occasion=occasion,
        persons_entitled_to_play=100,
        prizes_announced="Regular games $50 with 100 players or more",
        applies_to_all_games=True,
        refunds_offered=True,
        by=mic,
    )
    live(18, 50)
    items = {i.category: i for i in PriceListItem.objects.filter(occasion=occasion)}
    record_sale(
        occasion=occasion,
        lines=[(items["admission"], 1), (items["extra_regular"], 50), (items["bonus"], 40)],
        admission_receipt=None,
        by=mic,
    )
    record_sale(
        occasion=occasion,
        lines=[(items["admission"], 1), (items["special"], 60), (items["winner_take_all"], 30)],
        admission_receipt=None,
        by=mic,
    )
    wrong = record_sale(
        occasion=occasion, lines=[(items["admission"], 1)], admission_receipt=None, by=mic
    )
    live(18, 55)
    # The head is Robert Medeiros, on the floor: he witnesses with his own password.
    tenant.head.org_roles.update(person=crew["Robert Medeiros"].person)
    void_sale(sale=wrong, reason="Rung twice", witness=tenant.head, witness_secret=PASSWORD, by=mic)

    # The Wi-Fi dropped from 7:00 to 8:00 PM; the hall went on on paper. At 8:02 the member in
    # charge enters the sheets of that hour.
    live(20, 2)
    record = paper.begin(
        occasion=occasion,
        sheets="Door tally 7-8 PM, game sheets 1 and 2",
        reason="The hall's Wi-Fi dropped",
        starts_at=at(19, 0),
        ends_at=at(20, 0),
        by=mic,
    )
    outage = reader.read(known_night(occasion.license.number))
    outage = fmt.Night(
        license=outage.license,
        date=outage.date,
        door=(fmt.DoorTally(at=at(19, 0), lines=(fmt.CountLine("admission", quantity=98),)),),
        games=outage.games[:2],
        door_prizes=outage.door_prizes,
        refunds=outage.refunds,
        charity_sales=outage.charity_sales,
    )
    state = acts.Night(occasion=occasion, by=mic, record=record)
    state.refresh()
    acts.run(
        state,
        floor_acts.door_acts(outage.door, ())
        + [a for sheet in outage.games for a in game_acts.game_acts(sheet)]
        + extras_acts.extras_acts(outage)
        + floor_acts.attendance_acts(95, at(20, 0), None),
    )

    # Live again.
    live(20, 5)
    start_second_half(occasion=occasion, by=mic)
    game3 = Game.objects.get(occasion=occasion, number=3)
    live(20, 6)
    program.announce_prize_part(part=game3.parts.get(), by=mic)
    program.confirm_balls(game=game3, by=mic)
    live(20, 10)
    program.start_game(game=game3, by=mic)
    for minute, ball in zip(range(11, 16), (5, 20, 35, 50, 65), strict=True):
        live(20, minute)
        draw_services.record_ball_call(game=game3, number=ball, by=mic)
    live(20, 30)
    claim = claims_services.record_claim(
        game=game3,
        part=game3.parts.get(),
        ball_in_hand=None,
        calling_begun=False,
        player_name="Cy Gift",
        table="4",
        by=mic,
    )
    claims_services.verify_card(
        claim=claim,
        numbers={"B1": 5, "I1": 20, "N1": 35, "G1": 50, "O1": 65},
        witnesses=[Witness("Joe Player", "9")],
        by=mic,
    )
    [cy] = claims_services.record_winners(claims=[claim], players=[PlayerEntry("Cy Gift")], by=mic)
    live(20, 34)  # the quilt handed over, verified by the head on the floor
    payout_services.record_payout(
        winner=cy, by=mic, verified_by=tenant.head, verifier_secret=PASSWORD
    )
    live(20, 35)
    program.finish_game(game=game3, by=mic)
    live(21, 0)
    raffle_services.redeem_charity_ticket(
        occasion=occasion,
        serial_number="CG-1",
        prize_amount=Decimal("10.00"),
        redeemed_on=occasion.date,
        by=mic,
    )
    extras_services.record_police_detail(
        occasion=occasion,
        officer_name="Officer Dana",
        department_town="Fairhaven",
        hours=Decimal("4.00"),
        hourly_rate=Decimal("50.00"),
        by=mic,
    )
    live(22, 30)
    floor_services.close_occasion(occasion=occasion, by=mic)

    occasion.refresh_from_db()
    f = compute_figures(occasion)
    assert f["receipts"]["door_total"] == KNOWN["door_total"]
    assert f["receipts"]["gross_receipts"] == KNOWN["gross"]
    assert f["tax"]["tax"] == KNOWN["tax"]
    assert f["prizes"]["total"] == KNOWN["prizes_total"]
    assert f["prizes"]["expensed"] == KNOWN["prizes_expensed"]
    assert f["net"]["net_proceeds"] == KNOWN["net_before_entered_expenses"]
    from_paper = AuditEvent.objects.exclude(provenance={}).values_list("action", flat=True)
    assert "games.ball.called" not in set(from_paper)  # game 3 was live
    assert {"occasions.door_tally.recorded", "games.payout.recorded"} <= set(from_paper)
    assert occasion.paper_records.get().period_label == "From 7:00 PM to 8:00 PM"


def test_an_act_outside_the_paper_period_is_refused(night_records, occasion, report_clock):
    from occasions import paper
    from tests.fixtures.night import open_for_tests
    from tests.reports.conftest import at

    tenant = night_records
    open_for_tests(occasion)
    record = paper.begin(
        occasion=occasion,
        sheets="Door tally",
        reason="Paper door",
        starts_at=at(19, 0),
        ends_at=at(20, 0),
        by=tenant.bookkeeper,
    )
    state = acts.Night(occasion=occasion, by=tenant.bookkeeper, record=record)
    state.refresh()
    tally = fmt.DoorTally(at=at(20, 30), lines=(fmt.CountLine("admission", quantity=3),))
    with pytest.raises(acts.NightRefused) as error:
        acts.run(state, floor_acts.door_acts((tally,), ()))
    assert codes(error.value) == {"R-305-1A-PAPER-PERIOD": "961 CMR 3.05(1)(a)"}
    assert "outside the part of the night being entered from paper" in error.value.messages[0]
    assert not Sale.objects.exists()
