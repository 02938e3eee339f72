from occasions.models.core import Occasion, ResumptionNotice
from occasions.models.prices import PriceListItem
from occasions.models.sales import AttendanceAnnouncement, Sale, SaleLine

__all__ = [
    "AttendanceAnnouncement",
    "Occasion",
    "PriceListItem",
    "ResumptionNotice",
    "Sale",
    "SaleLine",
]
