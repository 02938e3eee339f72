"""A record's history reads as sentences with the hall's local time ("At 11:00 PM, … recorded
Receipt 1 … of $4.00."), the day as a heading; the technical detail (the event's number, its
action, the values before and after) stays on the page, folded, for an inspector."""

from __future__ import annotations

import re

from django.urls import reverse
from django.utils import timezone

from organizations.models import AuditEvent
from organizations.templatetags.audit_tags import event_sentence
from tests.conftest import login


def _history(client, tenant, target_type, target_id):
    url = reverse(
        "record_history",
        kwargs={
            "org_id": tenant.organization.pk,
            "target_type": target_type,
            "target_id": target_id,
        },
    )
    return client.get(url)


def test_a_door_sale_reads_as_a_sentence_in_local_time(client, tenant, inspector, sale):
    event = AuditEvent.objects.get(action="occasions.sale.recorded", target_id=str(sale.pk))
    local = timezone.localtime(event.created_at)
    who = tenant.worker.get_full_name() or tenant.worker.get_username()
    sentence = event_sentence(event)
    assert sentence.startswith(f"At {local:%-I:%M %p}, {who} recorded {event.target_repr}")
    assert sentence.endswith(f" of ${sale.total:,.2f}.") and sale.total > 0

    login(client, inspector)
    page = _history(client, tenant, "occasions.sale", sale.pk).content.decode()
    assert f'<h3 class="h6 mt-3">{local:%A, %B %-d, %Y}</h3>' in page
    assert sentence.replace("'", "&#x27;") in page
    # The technical detail is there, folded away.
    folded = re.search(r"<details class=\"mt-3\">.*</details>", page, re.S)
    assert folded is not None and "<code>occasions.sale.recorded</code>" in folded.group(0)
    assert "occasions.sale.recorded" not in page.split('<details class="mt-3">')[0]


def test_an_action_whose_last_word_would_not_read_is_put_in_words(tenant, open_occasion):
    event = AuditEvent(
        action="games.game.balls_confirmed",
        actor_label="mic-1",
        target_repr="Game 3",
        created_at=timezone.now(),
        new_values={},
    )
    assert event_sentence(event).endswith(", mic-1 confirmed all 75 balls for Game 3.")
    event.action, event.new_values = "reports.expense.recorded", {"amount": "not a figure"}
    assert event_sentence(event).endswith(", mic-1 recorded Game 3.")


def test_another_organization_gets_404(client, other_tenant, tenant, sale):
    login(client, other_tenant.head)
    assert _history(client, tenant, "occasions.sale", sale.pk).status_code == 404
