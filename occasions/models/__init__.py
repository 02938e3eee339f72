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
from occasions.models.prices import PriceListItem

__all__ = [
    "CharityRedemption",
    "CharityTicketSale",
    "CharityTicketSerialAssignment",
    "DoorPrize",
    "Gift",
    "Occasion",
    "OtherSale",
    "PoliceDetail",
    "PrevailingPoliceRate",
    "PriceListItem",
    "Raffle",
    "RafflePermit",
    "RaffleTicketSale",
    "Refund",
    "ResumptionNotice",
    "TransportationArrangement",
    "VaryingPrizesAnnouncement",
]
