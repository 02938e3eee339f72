"""Licensed organizations, their licenses, the people they know and their memberships."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower


class Organization(models.Model):
    """A licensee. Its kind must be one of those eligible under M.G.L. c. 10 § 38."""

    class Kind(models.TextChoices):
        VETERANS = "veterans", "Veterans' organization"
        FRATERNAL = "fraternal", "Fraternal organization"
        RELIGIOUS = "religious", "Religious organization"
        CHARITABLE = "charitable", "Non-profit organization under M.G.L. c. 180"
        VOLUNTEER_FIRE = "volunteer_fire", "Volunteer non-profit fire company"
        VOLUNTEER_AMBULANCE = "volunteer_ambulance", "Volunteer non-profit ambulance service"
        ATHLETIC = "athletic", "Non-profit athletic association"

    name = models.CharField(max_length=200, unique=True)
    kind = models.CharField(max_length=30, choices=Kind.choices)
    founded_on = models.DateField(
        help_text="M.G.L. c. 10 § 38: the organization must have existed for five years."
    )
    street = models.CharField(max_length=200)
    town = models.CharField("city or town", max_length=100)
    zip_code = models.CharField("ZIP", max_length=10)
    telephone = models.CharField(max_length=30, blank=True)
    federal_id = models.CharField(
        "federal ID number", max_length=20, blank=True, help_text="Printed on the report header."
    )
    reports_from = models.DateField(
        null=True,
        blank=True,
        help_text="The first authorized day whose financial report is kept here; reports of "
        "earlier days were filed on paper. Empty: from the start of the license.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def address(self) -> str:
        return f"{self.street}, {self.town}, MA {self.zip_code}"

    def current_license(self, on: dt.date | None = None) -> License | None:
        on = on or dt.date.today()
        return (
            self.licenses.filter(valid_from__lte=on, valid_to__gte=on, status=License.Status.ACTIVE)
            .order_by("-valid_from")
            .first()
        )


WEEKDAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def validate_weekdays(value: object) -> None:
    if (
        not isinstance(value, list)
        or not value
        or any(not isinstance(d, int) or isinstance(d, bool) or not 0 <= d <= 6 for d in value)
        or len(set(value)) != len(value)
    ):
        raise ValidationError("Authorized weekdays are a list of distinct days 0 (Monday)-6.")


class License(models.Model):
    """A Beano license: the days and hours it authorizes drive the calendar and the reports owed
    (961 CMR 3.05(1)(a): one financial report for every authorized day)."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        SUSPENDED = "suspended", "Suspended"
        REVOKED = "revoked", "Revoked"

    organization = models.ForeignKey(
        Organization, on_delete=models.PROTECT, related_name="licenses"
    )
    number = models.CharField("license number", max_length=40, unique=True)
    valid_from = models.DateField()
    valid_to = models.DateField()
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.ACTIVE)
    premises_name = models.CharField(max_length=200)
    premises_address = models.CharField(max_length=300)
    authorized_weekdays = models.JSONField(
        validators=[validate_weekdays], help_text="Days of the week, 0 = Monday … 6 = Sunday."
    )
    start_time = models.TimeField(
        null=True, blank=True, help_text="Hours, if the license states them."
    )
    end_time = models.TimeField(null=True, blank=True)
    local_licensing_authority = models.CharField(max_length=200)
    practice = models.BooleanField(
        default=False,
        help_text="A practice license for trying the application (the demo's): its days owe no "
        "financial report and its occasions are not counted in the Commission's figures.",
    )

    class Meta:
        ordering = ["organization", "-valid_from"]
        constraints = [
            models.CheckConstraint(
                condition=Q(valid_to__gte=models.F("valid_from")), name="license_valid_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.number} ({self.organization})"

    def clean(self) -> None:
        if self.valid_from and self.valid_to and self.valid_to < self.valid_from:
            raise ValidationError({"valid_to": "A license cannot end before it starts."})
        if bool(self.start_time) != bool(self.end_time):
            raise ValidationError(
                "Give both the start and the end of the licensed hours, or neither."
            )

    @property
    def weekday_names(self) -> list[str]:
        return [WEEKDAY_NAMES[d] for d in sorted(self.authorized_weekdays)]

    def authorized_dates(self, start: dt.date, end: dt.date) -> list[dt.date]:
        """Every day in [start, end] that this license authorizes."""
        start = max(start, self.valid_from)
        end = min(end, self.valid_to)
        days = set(self.authorized_weekdays)
        out = []
        day = start
        while day <= end:
            if day.weekday() in days:
                out.append(day)
            day += dt.timedelta(days=1)
        return out


class Person(models.Model):
    """A natural person known to one or more organizations. A person is one record across the
    system, so that 961 CMR 3.04(1)(c)'s limit of four organizations a year can be counted."""

    legal_name = models.CharField(max_length=200)
    date_of_birth = models.DateField()
    commission_worker_id = models.CharField(
        "Commission worker ID", max_length=40, blank=True, default=""
    )
    supplier_connected = models.BooleanField(
        "connected with a Beano supplier",
        default=False,
        help_text="961 CMR 3.04(2): connected with the manufacture, sale or distribution of "
        "Beano equipment or supplies, or their agent, servant or employee.",
    )

    class Meta:
        ordering = ["legal_name"]
        verbose_name_plural = "people"
        constraints = [
            models.UniqueConstraint(
                fields=["commission_worker_id"],
                condition=~Q(commission_worker_id=""),
                name="person_unique_worker_id",
            ),
            models.UniqueConstraint(
                fields=["legal_name", "date_of_birth"], name="person_unique_identity"
            ),
        ]
        indexes = [
            # The inspector's "workers among winners" matches each winner's name against the
            # worker lists' people, case apart (inspections/people.py).
            models.Index(Lower("legal_name"), name="person_legal_name_lower"),
        ]

    def __str__(self) -> str:
        return self.legal_name

    def age_on(self, day: dt.date) -> int:
        """Whole years of age on ``day`` (a 29 February birthday turns over on 1 March)."""
        years = day.year - self.date_of_birth.year
        if (day.month, day.day) < (self.date_of_birth.month, self.date_of_birth.day):
            years -= 1
        return years


class Membership(models.Model):
    """A person's standing with an organization, which decides who may work (961 CMR 3.04(1)(b))."""

    class Kind(models.TextChoices):
        MEMBER = "member", "Active member in good standing"
        AUXILIARY = "auxiliary", "Member of a recognized auxiliary"
        FAMILY = "family", "Immediate family member of a member"
        LAPSED = "lapsed", "Lapsed (not in good standing)"

    organization = models.ForeignKey(
        Organization, on_delete=models.PROTECT, related_name="memberships"
    )
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="memberships")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    family_of = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="family_members",
        help_text="For an immediate family member: the member in good standing they belong to.",
    )
    relationship = models.CharField(max_length=60, blank=True)
    since = models.DateField()
    until = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["person__legal_name"]
        constraints = [
            models.UniqueConstraint(
                fields=["organization", "person"], name="membership_unique_person"
            ),
            models.CheckConstraint(
                condition=Q(until__isnull=True) | Q(until__gte=models.F("since")),
                name="membership_valid_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.person} — {self.get_kind_display()} of {self.organization}"

    def clean(self) -> None:
        if self.kind == self.Kind.FAMILY:
            if self.family_of_id is None:
                raise ValidationError({"family_of": "Name the member this person is family of."})
            if self.family_of.organization_id != self.organization_id:
                raise ValidationError({"family_of": "That member belongs to another organization."})
            if self.family_of.person_id == self.person_id:
                raise ValidationError({"family_of": "A person cannot be their own family member."})
        elif self.family_of_id is not None:
            raise ValidationError({"family_of": "Only an immediate family member names a member."})

    def in_good_standing_on(self, day: dt.date) -> bool:
        return (
            self.kind in (self.Kind.MEMBER, self.Kind.AUXILIARY, self.Kind.FAMILY)
            and self.since <= day
            and (self.until is None or day <= self.until)
        )
