"""The page that closes a forgotten night on a later day: when the night ended, why the close is
recorded now, and when each game left in play finished; what the close would refuse (a winner
owed: paid first from the game's sheet) and what it only lists. For the head of the
organization, the member in charge and the bookkeeper (who finds the night still open when
closing it out)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from nightfile import late_close
from occasions import floor_selectors, floor_services
from occasions.floor_bar import floor_bar
from occasions.floor_views import problems
from occasions.models import Occasion
from occasions.night_time import NightTimeField, moment, readings
from occasions.views import get_occasion
from organizations.access import OrgRequest, org_view


def _time_field(label: str, help_text: str) -> NightTimeField:
    """A time of the night, typed as on the paper pages ("21:50", "9:50 PM", "9:50"), read in
    the night's context: past midnight, the morning after."""
    return NightTimeField(label=label, help_text=help_text)


class LateCloseForm(forms.Form):
    """Shapes the input only: the service judges the times and the reason."""

    def __init__(
        self, *args: Any, occasion: Occasion, games: list[late_close.GameInPlay], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        day = f"{occasion.date:%A, %B %-d}"
        self.occasion = occasion
        self.fields["ended_at"] = _time_field(
            "When the night ended",
            f"The time on {day}, e.g. 21:50 or 9:50 PM; before 6 AM, the morning after. "
            "Everyone still signed in is signed out at this time.",
        )
        self.fields["reason"] = forms.CharField(
            label="Why the close is recorded now",
            max_length=floor_services.REASON_LENGTH,
            widget=forms.Textarea(attrs={"rows": 2}),
            help_text="Kept with the close and shown to the Commission's inspectors.",
        )
        self.games = games
        for row in games:
            last = (
                f"last recorded act {timezone.localtime(row.last_act):%-I:%M %p}"
                if row.last_act
                else "nothing recorded since it began"
            )
            self.fields[f"game_{row.game.pk}"] = _time_field(
                f"Game {row.game.number} finished at", f"Still in play: {last}."
            )

    def game_fields(self) -> list[forms.BoundField]:
        return [self[f"game_{row.game.pk}"] for row in self.games]

    def ended_at(self) -> dt.datetime:
        return moment(self.occasion, self.cleaned_data["ended_at"])

    def finishes(self) -> dict[int, dt.datetime]:
        return {
            row.game.pk: moment(self.occasion, self.cleaned_data[f"game_{row.game.pk}"])
            for row in self.games
        }

    def readings(self) -> list[str]:
        """How each time written without AM or PM was read ("9:50 read as 9:50 PM")."""
        return readings(self.occasion, self.cleaned_data.values())


@org_view()
def occasion_close_late(request: OrgRequest, pk: int) -> HttpResponse:
    access = request.access
    occasion = get_occasion(access, pk)
    can_close = occasion.status == Occasion.Status.OPEN and floor_services.closed_late(
        occasion, request.user
    )
    games = late_close.games_in_play(occasion) if can_close else []
    form = LateCloseForm(
        request.POST if request.method == "POST" else None, occasion=occasion, games=games
    )
    refusals = None
    if can_close and request.method == "POST" and form.is_valid():
        try:
            late_close.close_forgotten_night(
                occasion=occasion,
                ended_at=form.ended_at(),
                reason=form.cleaned_data["reason"],
                finishes=form.finishes(),
                by=request.user,
            )
        except ValidationError as error:
            refusals = problems(error)
        else:
            read = form.readings()
            messages.success(
                request,
                "The occasion is closed at the time the night ended"
                + (f" ({'; '.join(read)})" if read else "")
                + ". The bookkeeper can close it out.",
            )
            past = late_close.past_the_license_hours(occasion, form.ended_at())
            if past:
                messages.warning(request, past)
            return redirect("occasion_detail", org_id=access.organization.pk, pk=occasion.pk)
    present = floor_selectors.presences(occasion).present() if can_close else []
    left = late_close.left_at_close(occasion) if can_close else None
    return render(
        request,
        "nightfile/late_close.html",
        {
            "org": access.organization,
            "access": access,
            "occasion": occasion,
            "page": "close",
            "floor": floor_bar(occasion, "close"),
            "on_the_day": occasion.records_on(timezone.localdate()),
            "can_close": can_close,
            "form": form,
            "games": games,
            "present": list(present),
            "last_act": floor_selectors.last_recorded_act(occasion) if can_close else None,
            "left": left,
            "refusals": refusals,
        },
    )
