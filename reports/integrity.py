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
    """Each document with what does not check about it (an empty list: it checks). Two queries,
    whatever the number of documents and of their organizations (a list across organizations,
    the Commission's, costs no more than one organization's)."""
    docs = list(documents)
    if not docs:
        return {}
    organizations = {d.organization_id for d in docs}
    filings = _filing_events(organizations, docs)
    heads = {
        (organization_id, sequence): hash_
        for organization_id, sequence, hash_ in AuditEvent.objects.filter(
            organization_id__in=organizations,
            sequence__in={d.chain_length for d in docs if d.chain_length},
        ).values_list("organization_id", "sequence", "hash")
    }
    return {d: _problems(d, filings.get((d.organization_id, *_key(d))), heads) for d in docs}


def document_problems(document: Document) -> list[str]:
    return problems([document])[document]


def pdf_problems(data: bytes, recorded_sha256: str) -> list[str]:
    """The PDF file against the SHA-256 recorded when it was made."""
    if recorded_sha256 and hashlib.sha256(data).hexdigest() != recorded_sha256:
        return ["The PDF file is not the one made for it (its SHA-256 differs): it was replaced."]
    return []


def _key(document: Document) -> tuple[str, str]:
    return label(document), str(document.pk)


def _filing_events(organizations: set[int], documents: list[Document]) -> dict[tuple, Any]:
    """The last event of each document that recorded its figures' SHA-256: its filing, by the
    organization, kind and id of the document (an event of another organization is not)."""
    wanted: dict[str, list[str]] = defaultdict(list)
    for document in documents:
        kind, pk = _key(document)
        wanted[kind].append(pk)
    found: dict[tuple[int, str, str], Any] = {}
    for kind, ids in wanted.items():
        events = AuditEvent.objects.filter(
            organization_id__in=organizations,
            target_type=kind,
            target_id__in=ids,
            new_values__has_key="figures_sha256",
        ).order_by("sequence")
        fields = ("organization_id", "sequence", "target_type", "target_id", "new_values")
        for event in events.only(*fields):
            found[event.organization_id, event.target_type, event.target_id] = event
    return found


def _problems(document: Document, filing: Any, heads: dict[tuple[int, int], str]) -> list[str]:
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
        head = heads.get((document.organization_id, document.chain_length))
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
