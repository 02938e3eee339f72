"""The whole check of what the installation recorded, chain by chain: what
``check_audit_chains`` prints and the chain check page shows.

For each organization's chain (and the Commission's):

- the chain itself: every keyed hash recomputed, its head sealed (``organizations.audit``);
- against its last checkpoint, kept outside the database (``organizations.checkpoints``), so a
  chain cut short and its head put back from an old copy is noticed;
- every filed report: its figures against their SHA-256, that SHA-256 against its filing's
  event, its recorded chain head against the chain (``reports.integrity``);
- every money record against its last audit event (``beano.backup.trail``): sales and their
  lines, payouts, expenses, disbursements, close-outs and their counts, the filed reports.

It only reads: nothing is repaired, everything found is named."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from beano.backup import trail
from organizations import checkpoints
from organizations.audit import ChainCheck, chain_key, verify_chain
from organizations.models import AuditChain, AuditEvent, Organization
from reports import integrity as report_integrity
from reports.models import AnnualReport, FinancialReport

#: Differences listed in full; past that many, the rest are counted.
SHOWN = 50


@dataclass
class ChainReport:
    """Everything checked about one chain, and every problem found, in words."""

    name: str
    organization: Organization | None
    chain: ChainCheck
    checkpoint: checkpoints.Checkpoint | None = None
    checkpoint_problem: str = ""
    reports_checked: int = 0
    report_problems: list[str] = field(default_factory=list)
    records_checked: int = 0
    record_problems: list[str] = field(default_factory=list)

    @property
    def problems(self) -> list[str]:
        found = [] if self.chain.ok else [f"Audit chain: {self.chain}"]
        if self.checkpoint_problem:
            found.append(f"Checkpoint: {self.checkpoint_problem}")
        return found + self.report_problems + self.record_problems

    @property
    def ok(self) -> bool:
        return not self.problems


def check_chain(
    organization: Organization | None,
    last_checkpoints: dict[str, checkpoints.Checkpoint] | None = None,
) -> ChainReport:
    """Check one chain and the records it vouches for. ``last_checkpoints`` by chain key (read
    from the checkpoint file when not given)."""
    key = chain_key(organization)
    if last_checkpoints is None:
        last_checkpoints = checkpoints.last(chains=[key])
    report = ChainReport(
        name=f"{organization} (#{organization.pk})" if organization else "the Commission",
        organization=organization,
        chain=verify_chain(organization),
    )
    return _vouched(report, last_checkpoints)


def vouched_problems(organization: Organization) -> list[str]:
    """What the chain vouches for, checked as the chain check page checks it (its checkpoint
    kept outside the database, the filed reports, every money record against its last audit
    event), the chain's own hashes left to the caller: the audit trail page's verdict, which
    checks them from its sealed checkpoint."""
    report = ChainReport(
        name=f"{organization} (#{organization.pk})",
        organization=organization,
        chain=ChainCheck(intact_through=0),
    )
    try:
        last = checkpoints.last(chains=[chain_key(organization)])
    except ValueError as error:  # a damaged checkpoint file: said, and the rest still checked
        report.checkpoint_problem = f"the checkpoint file cannot be read: {error}"
        last = {}
    return _vouched(report, last).problems


def _vouched(
    report: ChainReport, last_checkpoints: dict[str, checkpoints.Checkpoint]
) -> ChainReport:
    organization = report.organization
    report.checkpoint = last_checkpoints.get(chain_key(organization))
    if report.checkpoint is not None:
        report.checkpoint_problem = checkpoints.compare(report.checkpoint)
    if organization is None:
        return report
    documents = [
        *FinancialReport.objects.filter(organization=organization).select_related("occasion"),
        *AnnualReport.objects.filter(organization=organization),
    ]
    report.reports_checked = len(documents)
    for document, found in report_integrity.problems(documents).items():
        report.report_problems += [f"{document} (version {document.version}): {p}" for p in found]
    differences = trail.differences(organization)
    report.records_checked = trail.money_records_count(organization)
    report.record_problems = [f"Record: {d}" for d in differences[:SHOWN]]
    if len(differences) > SHOWN:
        report.record_problems.append(
            f"Record: and {len(differences) - SHOWN} more values that differ from their trail."
        )
    return report


def check_all(
    organizations: Iterable[Organization] | None = None, checkpoint_file: Path | None = None
) -> tuple[list[ChainReport], list[str]]:
    """Every chain (those of ``organizations`` only, if given) and, when all are checked, the
    chains a checkpoint recorded that are no longer here at all."""
    last = checkpoints.last(checkpoint_file)
    chosen = list(organizations) if organizations is not None else None
    orgs = chosen if chosen is not None else list(Organization.objects.order_by("pk"))
    reports = [check_chain(org, last) for org in orgs]
    if chosen is None and (
        AuditEvent.objects.filter(organization__isnull=True).exists()
        or AuditChain.objects.filter(organization__isnull=True).exists()
        or "commission" in last
    ):
        reports.append(check_chain(None, last))
    gone: list[str] = []
    if chosen is None:
        here = {chain_key(r.organization) for r in reports}
        gone = [
            f"The chain {c.chain} ({c.name}) recorded by the checkpoint of {c.at} is gone."
            for key, c in sorted(last.items())
            if key not in here and c.length
        ]
    return reports, gone
