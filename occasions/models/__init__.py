from occasions.models.core import Occasion, ResumptionNotice
from occasions.models.extras import (
    CharityRedemption,
    CharityTicketSale,
    CharityTicketSerialAssignment,
    DoorPrize,
    Gift,
    OtherSale,
    PoliceDetail,
    PrevailingPoliceRate,
    Raffle,
    RafflePermit,
    RaffleTicketSale,
    Refund,
    TransportationArrangement,
    VaryingPrizesAnnouncement,
)
from occasions.models.floor import Handover, OpeningCheck, WorkerPresence
from occasions.models.paper import PaperRecord
from occasions.models.prices import PriceListItem
from occasions.models.sales import AttendanceAnnouncement, Sale, SaleLine
from occasions.models.submissions import FloorSubmission

__all__ = [
    "AttendanceAnnouncement",
    "CharityRedemption",
    "CharityTicketSale",
    "CharityTicketSerialAssignment",
    "DoorPrize",
    "FloorSubmission",
    "Gift",
    "Handover",
    "Occasion",
    "OpeningCheck",
    "OtherSale",
    "PaperRecord",
    "PoliceDetail",
    "PrevailingPoliceRate",
    "PriceListItem",
    "Raffle",
    "RafflePermit",
    "RaffleTicketSale",
    "Refund",
    "ResumptionNotice",
    "Sale",
    "SaleLine",
    "TransportationArrangement",
    "VaryingPrizesAnnouncement",
    "WorkerPresence",
]
