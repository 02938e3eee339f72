"""factory-boy builders of the rows the shared fixtures (tests/conftest.py) start from: a
user, an organization with its license, a Commission staff member. Rows only: an act that the
rules judge or the audit chain records (a role assigned, a member added) goes through its
service, in the fixture, as a user's would."""

from __future__ import annotations

import datetime as dt
from typing import Any

import factory
from django.conf import settings
from factory.django import DjangoModelFactory

from organizations.models import CommissionStaff, License, Organization

#: Every test user's password.
PASSWORD = "correct-horse-battery-9"


class UserFactory(DjangoModelFactory):
    """A user with ``PASSWORD``, hashed as ``create_user`` hashes it."""

    class Meta:
        model = settings.AUTH_USER_MODEL

    username = factory.Sequence(lambda n: f"user-{n}")
    password = PASSWORD

    @classmethod
    def _create(cls, model_class: Any, *args: Any, **kwargs: Any) -> Any:
        return model_class._default_manager.create_user(*args, **kwargs)


class LicenseFactory(DjangoModelFactory):
    """A license for ten years around today, on Fridays, its number from the organization's id."""

    class Meta:
        model = License

    organization = factory.SubFactory("tests.builders.OrganizationFactory", license=None)
    number = factory.LazyAttribute(lambda o: f"BN-{o.organization.pk:04d}")
    valid_from = dt.date(2020, 10, 1)
    valid_to = dt.date(2030, 9, 30)
    premises_name = factory.LazyAttribute(lambda o: f"{o.organization.name} Hall")
    premises_address = "1 Main Street"
    authorized_weekdays = factory.LazyFunction(lambda: [4])
    local_licensing_authority = "Select Board"


class OrganizationFactory(DjangoModelFactory):
    """A veterans' organization in Fairhaven with its license (``license__...`` to change it)."""

    class Meta:
        model = Organization
        skip_postgeneration_save = True  # the license is made after; nothing to save again

    name = factory.Sequence(lambda n: f"Organization {n}")
    kind = Organization.Kind.VETERANS
    founded_on = dt.date(1950, 1, 1)
    street = "1 Main Street"
    town = "Fairhaven"
    zip_code = "02719"
    license = factory.RelatedFactory(LicenseFactory, factory_related_name="organization")


class CommissionStaffFactory(DjangoModelFactory):
    """An inspector of the organizations given (``organizations=[...]``), or of all of them."""

    class Meta:
        model = CommissionStaff
        skip_postgeneration_save = True  # the organizations are added after; nothing to save

    user = factory.SubFactory(UserFactory)
    kind = CommissionStaff.Kind.INSPECTOR
    all_organizations = False

    @factory.post_generation
    def organizations(self, create: bool, extracted: Any, **kwargs: Any) -> None:
        if create and extracted:
            self.organizations.add(*extracted)
