"""The night file's tests use the reports' known night and its fixtures (``tests.reports``)."""

from tests.reports.conftest import *  # noqa: F403
