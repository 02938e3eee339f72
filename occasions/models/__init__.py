from occasions.models.core import Occasion, ResumptionNotice
from occasions.models.floor import Handover, OpeningCheck, WorkerPresence
from occasions.models.prices import PriceListItem

__all__ = [
    "Handover",
    "Occasion",
    "OpeningCheck",
    "PriceListItem",
    "ResumptionNotice",
    "WorkerPresence",
]
