from games.models.claims import CardVerification, Claim, DrawVerification, Payout, Winner
from games.models.core import Arrangement, BallCall, Game, PrizePart

__all__ = [
    "Arrangement",
    "BallCall",
    "CardVerification",
    "Claim",
    "DrawVerification",
    "Game",
    "Payout",
    "PrizePart",
    "Winner",
]
