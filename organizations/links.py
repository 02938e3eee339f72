"""The organization's own tabs (``beano.links``): the apps above add theirs between them."""

from __future__ import annotations

from typing import Any

from beano.links import Link, org_page


def _tab(key: str, label: str, url_name: str, order: int, when: Any = None) -> Link:
    return Link("organization_tabs", key, label, org_page(url_name, when), order)


LINKS = (
    _tab("home", "Overview", "organization_home", 10),
    _tab("members", "Members", "member_list", 60),
    _tab("authorizations", "Authorizations", "authorization_list", 70),
    _tab("workers", "Worker list", "worker_list", 80),
    _tab("equipment", "Equipment", "equipment_list", 90),
    _tab("people", "People", "people_list", 110),
    _tab("refused", "Refused actions", "org_refused_actions", 120),
    _tab("audit", "Audit trail", "audit_log", 130),
)
