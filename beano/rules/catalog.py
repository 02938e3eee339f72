"""The catalog: the map of what the system enforces, as plain data."""

from __future__ import annotations

from typing import Any

from beano.rules.authorizations import AuthorizationKind
from beano.rules.base import all_rules

ACTION_LABELS = {
    "report.record_expense": "recording an expense at the close-out",
    "report.file": "filing an occasion's financial report or an amendment",
    "report.file_annual": "filing the annual report of Lawful Purpose disbursements",
    "bank.record_deposit": "recording an occasion's deposit to the gaming account",
    "bank.record_entry": "recording a check or transfer out of the gaming account",
    "bank.reconcile_month": "reconciling a month of the gaming account",
    "worker_list.add": "adding a person to the worker list",
    "worker_list.update": "changing a worker list entry",
    "worker_list.review": "reviewing the worker list",
    "occasion.sign_in_worker": "signing a worker in at an occasion",
    "paper.name_a_worker": "naming a worker of the list on a night's paper sheets",
    "occasion.sign_out_worker": "signing a worker out of an occasion",
    "occasion.hand_over": "handing over charge of an occasion",
    "occasion.open": "opening an occasion",
    "occasion.close": "closing an occasion",
    "occasion.close.prizes": "closing an occasion, as far as its prizes go",
    "occasion.floor_act": "any act of a night's floor: a sale, a void, a ball, a claim, a payout…",
    "game.record_claim": "recording a claim of Beano",
    "game.verify_draw": "verifying the numbers drawn and the balls remaining",
    "game.verify_card": "verifying a winning card",
    "game.card_result": "judging a card read at verification",
    "game.record_winner": "recording a winner",
    "prize_part.add": "adding a prize to a game of the program",
    "prize_part.announce": "announcing a game's prize and arrangement",
    "game.confirm_balls": "confirming all 75 balls in the receptacle",
    "game.start": "starting a game",
    "game.share_prize": "dividing a prize among winners on the same call",
    "game.record_payout": "recording a payout to a winner",
    "ball.call": "calling a ball",
    "offline.queued_act": "an act sent from the hall laptop's queue after it was offline",
    "ball.correct": "correcting a mis-keyed ball call",
    "equipment.register": "registering equipment",
    "equipment.update": "changing equipment",
    "equipment.use": "using equipment in an occasion",
    "inventory.purchase": "recording a card purchase",
    "inventory.use": "recording cards used or voided",
    "inventory.issue": "issuing paper to the door by serial range",
    "inventory.return": "counting the unsold paper back from the door",
    "inventory.destroy": "destroying damaged or expired paper",
    "inventory.stock_take": "recording a stock-take of the paper on hand",
    "prices.set": "setting the posted price list",
    "sale.record": "recording a sale at the door",
    "sale.void": "voiding a sale",
    "attendance.announce": "announcing the attendance",
    "occasion.start_second_half": "starting the second half",
    "extras.varying_prizes.announce": "announcing prizes varying with attendance",
    "extras.refund.record": "recording a refund to a paid patron",
    "extras.door_prize.award": "awarding a door prize",
    "extras.gift.give": "giving free play or a thing of value",
    "extras.raffle.create": "holding a raffle at an occasion",
    "extras.raffle.sell_ticket": "selling raffle tickets",
    "extras.charity_ticket.sell": "selling charity game tickets",
    "extras.charity_ticket.redeem": "redeeming a charity game ticket",
    "extras.other_sale.record": "recording another sale at an occasion",
    "extras.police_detail.record": "recording a police detail",
    "extras.transportation.arrange": "arranging transportation of players",
    "jackpot.series.start": "starting a progressive jackpot series",
    "jackpot.series.change_rules": "changing a progressive series' announced rules",
    "jackpot.game.attach": "carrying a progressive jackpot into an occasion's game",
    "jackpot.game.settle": "recording a progressive game's outcome in the jackpot ledger",
}


def catalog() -> list[dict[str, Any]]:
    return [
        {
            "code": r.code,
            "citation": r.citation,
            "title": r.title,
            "description": r.description,
            "guards": list(r.guards),
            "guards_labels": [ACTION_LABELS.get(a, a) for a in r.guards],
            "waivable": r.waivable,
            "waiver": r.waiver,
            "waiver_label": AuthorizationKind(r.waiver).label if r.waiver else None,
        }
        for r in all_rules()
    ]
