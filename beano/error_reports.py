"""Error reports (the debug page, mailed reports, logs) never carry a winner's TIN or ID numbers:
every POST field whose name speaks of a TIN or an ID number is masked, whatever its form prefix."""

from __future__ import annotations

import re
from typing import Any

from django.http import HttpRequest
from django.views.debug import SafeExceptionReporterFilter

SENSITIVE_FIELD = re.compile(r"(^|[-_])(tin|id\d*_number|password\d*)$", re.IGNORECASE)


class BeanoExceptionReporterFilter(SafeExceptionReporterFilter):
    def get_post_parameters(self, request: HttpRequest | None) -> Any:
        params = super().get_post_parameters(request)
        if request is None or not params:
            return params
        cleansed = params.copy()
        for key in cleansed:
            if SENSITIVE_FIELD.search(key):
                cleansed[key] = self.cleansed_substitute
        return cleansed
