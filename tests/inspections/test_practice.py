"""The Commission's pages count licensees only: a practice organization (``License.practice``,
the demo's practice hall) is named on the inspector's dashboard as left out, and its occasions,
people, refusals and figures are in none of the lists, compliance views, exports and statewide
medians."""

from __future__ import annotations

import csv
import datetime as dt
import io
from decimal import Decimal

from django.urls import reverse
from django.utils import timezone

from beano.rules.models import RefusedAction
from inspections import trends
from tests.conftest import login, make_tenant
from tests.inspections.conftest import played_occasions

URL = reverse("inspector_dashboard")


def practice_tenant() -> object:
    tenant = make_tenant("Practice Hall (demo — not a licensee)")
    tenant.organization.licenses.update(practice=True, authorized_weekdays=[0, 1, 2, 3, 4, 5, 6])
    return tenant


def refuse(org: object, day: dt.date) -> None:
    RefusedAction.objects.create(
        username="someone",
        organization_id=org.pk,
        organization_name=org.name,
        action="occasion.sign_in_worker",
        on_date=day,
        facts={},
        violations=[{"citation": "961 CMR 3.04(1)(d)", "message": "Refused."}],
        citations="961 CMR 3.04(1)(d)",
    )


def test_the_dashboard_names_the_practice_organization_as_left_out(
    client, tenant, statewide_inspector
):
    practice = practice_tenant()
    played_occasions(tenant, 2)
    played_occasions(practice, 3)
    login(client, statewide_inspector)
    response = client.get(URL)
    assert [r.organization for r in response.context["rows"]] == [tenant.organization]
    assert {o.organization_id for o in response.context["page"]} == {tenant.organization.pk}
    assert response.context["practice"] == [practice.organization]
    assert practice.organization not in response.context["form"].fields["organization"].queryset
    page = response.content.decode()
    note = page[page.index('class="small text-secondary practice-left-out"') :]
    note = note[: note.index("</p>")]
    assert "Practice Hall (demo — not a licensee)" in note and "count in no figure" in note
    # Asked for by its id, the practice organization is not a choice: the filter ignores it.
    asked = client.get(URL, {"organization": practice.organization.pk})
    assert {o.organization_id for o in asked.context["page"]} == {tenant.organization.pk}


def test_the_statewide_median_leaves_practice_occasions_out(client, tenant, statewide_inspector):
    practice = practice_tenant()
    played_occasions(tenant, 2, share=Decimal("50.00"))
    played_occasions(practice, 2, share=Decimal("150.00"))
    today = timezone.localdate()
    start, end = trends.period(None, None, today)
    kept = trends.statewide_medians(start, end)
    assert {v for (_, measure), v in kept.items() if measure == "prizes" and v is not None} == {
        Decimal("50.00")
    }
    login(client, statewide_inspector)
    charts = {c.key: c for c in client.get(URL).context["charts"]}
    statewide = [v for v in charts["prizes"].series[1].values if v is not None]
    assert statewide and set(statewide) == {Decimal("50.00")}  # with practice: $100


def test_the_compliance_views_and_exports_leave_the_practice_organization_out(
    client, tenant, statewide_inspector
):
    practice = practice_tenant()
    played_occasions(tenant, 2)
    played_occasions(practice, 3)
    login(client, statewide_inspector)
    prizes = client.get(reverse("inspect_compliance", args=["prizes"]))
    assert prizes.context["total"] == 2
    exported = client.get(reverse("inspect_export", args=["occasions"]))
    text = b"".join(exported.streaming_content).decode()
    assert {row[0] for row in list(csv.reader(io.StringIO(text)))[1:]} == {tenant.organization.name}


def test_refusals_tried_at_the_practice_organization_are_not_the_commissions(
    client, tenant, statewide_inspector
):
    practice = practice_tenant()
    day = timezone.localdate()
    refuse(tenant.organization, day)
    refuse(practice.organization, day)
    login(client, statewide_inspector)
    log = client.get(reverse("commission_refused_actions"))
    assert [r.organization_id for r in log.context["page"].object_list] == [tenant.organization.pk]
    exported = client.get(reverse("inspect_export", args=["refused"]))
    assert len(b"".join(exported.streaming_content).decode().strip().splitlines()) == 2
    # The practice organization itself still sees what it tried.
    login(client, practice.head)
    own = client.get(reverse("org_refused_actions", args=[practice.organization.pk]))
    assert [r.organization_id for r in own.context["page"].object_list] == [
        practice.organization.pk
    ]
