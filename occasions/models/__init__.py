from occasions.models.core import Occasion, ResumptionNotice
from occasions.models.prices import PriceListItem

__all__ = ["Occasion", "PriceListItem", "ResumptionNotice"]
