from organizations.models.access import CommissionStaff, OrganizationRole, Role
from organizations.models.audit import GENESIS_HASH, AuditChain, AuditEvent, ChainVerification
from organizations.models.authorizations import DirectorAuthorization
from organizations.models.core import WEEKDAY_NAMES, License, Membership, Organization, Person
from organizations.models.equipment import CardPurchase, Equipment
from organizations.models.inspections import RecordView
from organizations.models.people import Invitation
from organizations.models.workers import Conviction, WorkerList, WorkerListEntry

__all__ = [
    "GENESIS_HASH",
    "WEEKDAY_NAMES",
    "AuditChain",
    "AuditEvent",
    "CardPurchase",
    "ChainVerification",
    "CommissionStaff",
    "Conviction",
    "DirectorAuthorization",
    "Equipment",
    "Invitation",
    "License",
    "Membership",
    "Organization",
    "OrganizationRole",
    "Person",
    "RecordView",
    "Role",
    "WorkerList",
    "WorkerListEntry",
]
