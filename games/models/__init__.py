from games.models.claims import CardVerification, Claim, DrawVerification, Payout, Winner
from games.models.core import Arrangement, BallCall, Game, PrizePart
from games.models.draw import Flashboard
from games.models.form5754 import PrizeShare
from games.models.jackpots import JackpotLedgerEntry, ProgressiveGame, ProgressiveSeries
from games.models.program import ArrangementAuthorization

__all__ = [
    "Arrangement",
    "ArrangementAuthorization",
    "BallCall",
    "CardVerification",
    "Claim",
    "DrawVerification",
    "Flashboard",
    "Game",
    "JackpotLedgerEntry",
    "Payout",
    "PrizePart",
    "PrizeShare",
    "ProgressiveGame",
    "ProgressiveSeries",
    "Winner",
]
