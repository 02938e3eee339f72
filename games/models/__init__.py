from games.models.core import Arrangement, BallCall, Game, PrizePart
from games.models.jackpots import JackpotLedgerEntry, ProgressiveGame, ProgressiveSeries
from games.models.program import ArrangementAuthorization

__all__ = [
    "Arrangement",
    "ArrangementAuthorization",
    "BallCall",
    "Game",
    "JackpotLedgerEntry",
    "PrizePart",
    "ProgressiveGame",
    "ProgressiveSeries",
]
