from games.models.core import Arrangement, BallCall, Game, PrizePart

__all__ = ["Arrangement", "BallCall", "Game", "PrizePart"]
