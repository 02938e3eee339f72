"""Is a filed report still what was filed? Checked whenever it is shown, printed or zipped, and
by ``check_audit_chains``.

Three things are compared, none of which someone holding the database alone can make agree
again after a change: the figures against their SHA-256 (``figures_sha256``); that SHA-256
against the one the filing's audit event recorded (the event is in the keyed chain, so
recomputing the plain SHA-256 of edited figures does not help); and the chain's head recorded at
filing against the event it names. A disagreement is said in words, never passed over."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from organizations.models import AuditEvent
from reports.figures import digest
from reports.models import AnnualReport, FinancialReport

Document = FinancialReport | AnnualReport


def label(document: Document) -> str:
    return document._meta.label_lower


def problems(documents: Iterable[Document]) -> dict[Document, list[str]]:
    """Each document with what does not check about it (an empty list: it checks). Two queries
    per organization, whatever the number of documents."""
    found: dict[Document, list[str]] = {}
    by_organization: dict[int, list[Document]] = defaultdict(list)
    for document in documents:
        by_organization[document.organization_id].append(document)
    for organization_id, docs in by_organization.items():
        filings = _filing_events(organization_id, docs)
        heads = dict(
            AuditEvent.objects.filter(
                organization_id=organization_id,
                sequence__in={d.chain_length for d in docs if d.chain_length},
            ).values_list("sequence", "hash")
        )
        for document in docs:
            found[document] = _problems(document, filings.get(_key(document)), heads)
    return found


def document_problems(document: Document) -> list[str]:
    return problems([document])[document]


def pdf_problems(data: bytes, recorded_sha256: str) -> list[str]:
    """The PDF file against the SHA-256 recorded when it was made."""
    if recorded_sha256 and hashlib.sha256(data).hexdigest() != recorded_sha256:
        return ["The PDF file is not the one made for it (its SHA-256 differs): it was replaced."]
    return []


def _key(document: Document) -> tuple[str, str]:
    return label(document), str(document.pk)


def _filing_events(organization_id: int, documents: list[Document]) -> dict[tuple, Any]:
    """The last event of each document that recorded its figures' SHA-256: its filing."""
    wanted: dict[str, list[str]] = defaultdict(list)
    for document in documents:
        kind, pk = _key(document)
        wanted[kind].append(pk)
    found: dict[tuple[str, str], Any] = {}
    for kind, ids in wanted.items():
        events = AuditEvent.objects.filter(
            organization_id=organization_id,
            target_type=kind,
            target_id__in=ids,
            new_values__has_key="figures_sha256",
        ).order_by("sequence")
        for event in events.only("sequence", "target_type", "target_id", "new_values"):
            found[event.target_type, event.target_id] = event
    return found


def _problems(document: Document, filing: Any, heads: dict[int, str]) -> list[str]:
    found: list[str] = []
    if digest(document.figures) != document.figures_sha256:
        found.append(
            "Its figures do not match their SHA-256: they were changed after it was filed."
        )
    if filing is None:
        found.append("No audit event records its filing.")
    elif filing.new_values.get("figures_sha256") != document.figures_sha256:
        found.append(
            f"Its figures' SHA-256 is not the one its filing recorded (audit event "
            f"{filing.sequence}): the figures were replaced."
        )
    if document.chain_length:
        head = heads.get(document.chain_length)
        if head is None:
            found.append(
                f"The audit chain's head it recorded at filing, event {document.chain_length}, "
                "is missing from the chain."
            )
        elif head != document.chain_head_hash:
            found.append(
                f"The audit chain's head it recorded at filing is not event "
                f"{document.chain_length} of the chain."
            )
    else:
        found.append("It recorded no audit chain head at filing.")
    return found
