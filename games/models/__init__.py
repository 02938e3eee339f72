from games.models.core import Arrangement, BallCall, Game, PrizePart
from games.models.program import ArrangementAuthorization

__all__ = ["Arrangement", "ArrangementAuthorization", "BallCall", "Game", "PrizePart"]
