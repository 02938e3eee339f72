from __future__ import annotations

import datetime as dt

from django import forms

from organizations.forms import DateInput


class NotPlayedForm(forms.Form):
    reason = forms.CharField(
        max_length=300,
        widget=forms.TextInput(attrs={"placeholder": "e.g. hall closed for a storm"}),
    )


class ResumptionNoticeForm(forms.Form):
    sent_on = forms.DateField(widget=DateInput, initial=dt.date.today, label="Notice sent on")
    reference = forms.CharField(max_length=100, label="Letter or e-mail reference")

    def clean_sent_on(self) -> dt.date:
        sent_on = self.cleaned_data["sent_on"]
        if sent_on > dt.date.today():
            raise forms.ValidationError("A notice cannot be sent in the future.")
        return sent_on
