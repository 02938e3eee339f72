"""On the demo's practice night, the void's witness is chosen only among the people signed in
on its floor. The hole: the list offered Karen Pacheco and Thomas Ferreira (Post 171's logins,
holding roles at the Practice Hall then) though neither was on any of its lists, so that the Workers
page could not sign them in and a void could never be completed there."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from beano.demo.practice_hall import NAME
from occasions.models import Occasion, Sale, WorkerPresence
from organizations.models import OrganizationRole
from tests.conftest import login

pytestmark = pytest.mark.usefixtures("seeded_demo")


def test_the_practice_nights_void_offers_only_who_is_on_its_floor(client, db):
    night = Occasion.objects.filter(organization__name=NAME, status="open").latest("date")
    mic = get_user_model().objects.get(username="practice-mic")
    Sale.objects.create(occasion=night, number=1, sold_by=mic, sold_at=timezone.now())
    on_the_floor = set(
        WorkerPresence.objects.filter(occasion=night, signed_out_at__isnull=True)
        .exclude(entry__compensated=True)
        .values_list("entry__person_id", flat=True)
    )
    could_witness = {
        role.user.get_full_name() or role.user.get_username()
        for role in OrganizationRole.objects.filter(organization=night.organization)
        .exclude(user=mic)
        .select_related("user")
        if role.person_id in on_the_floor
    }
    login(client, mic)
    page = client.get(reverse("door_sales", args=[night.organization_id, night.pk]))
    text = page.content.decode()
    select = re.search(r'<select[^>]*name="witness"[^>]*>(.*?)</select>', text, re.S)
    assert select, "the receipt's void form"
    offered = {
        html.unescape(label).strip()
        for label in re.findall(r'<option value="\d+"[^>]*>([^<]*)</option>', select.group(1))
    }
    assert offered == could_witness
    for name in ("Karen Pacheco", "Thomas Ferreira"):
        assert name not in offered or name in could_witness
    assert ("Nobody can witness the void now" in text) == (not could_witness)
