from games.models.core import Arrangement, BallCall, Game, PrizePart
from games.models.jackpots import JackpotLedgerEntry, ProgressiveGame, ProgressiveSeries

__all__ = [
    "Arrangement",
    "BallCall",
    "Game",
    "JackpotLedgerEntry",
    "PrizePart",
    "ProgressiveGame",
    "ProgressiveSeries",
]
