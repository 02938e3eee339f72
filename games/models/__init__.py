from games.models.core import Arrangement, BallCall, Game, PrizePart
from games.models.draw import Flashboard

__all__ = ["Arrangement", "BallCall", "Flashboard", "Game", "PrizePart"]
