"""The links and parts the apps above put on a lower app's pages (``beano.links``): no template
of a lower app names a page of an app above it, and a place shows what is registered for it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template import Context, Template
from django.urls import URLPattern, URLResolver, get_resolver

from beano import links

#: Bottom to top: an app's templates may link its own pages and those below.
LAYERS = settings.PROJECT_APPS
URL_TAG = re.compile(r"{%\s*url\s+['\"]([\w:-]+)['\"]")
ROOT = Path(__file__).resolve().parent.parent


def _owners(resolver: URLResolver | None = None) -> dict[str, str]:
    """Each URL name and the app whose view serves it."""
    out: dict[str, str] = {}
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            out |= _owners(pattern)
        elif isinstance(pattern, URLPattern) and pattern.name:
            out[pattern.name] = pattern.callback.__module__.split(".")[0]
    return out


def _templates_of(app: str) -> list[Path]:
    return sorted((ROOT / "templates" / app).rglob("*.html")) + sorted(
        (ROOT / app / "templates").rglob("*.html")
    )


def test_no_template_names_a_page_of_an_app_above_its_own():
    owners = _owners()
    above = []
    for level, app in enumerate(LAYERS):
        for path in _templates_of(app):
            for name in URL_TAG.findall(path.read_text()):
                owner = owners.get(name.split(":")[-1])
                if owner in LAYERS and LAYERS.index(owner) > level:
                    above.append(f"{path.relative_to(ROOT)}: {name} ({owner})")
    assert not above, "a lower app's template links a page above it:\n" + "\n".join(above)
    assert len(owners) > 100 and owners["reports_home"] == "reports"  # the check reads the URLs


def test_the_check_finds_a_link_to_a_page_above(tmp_path, monkeypatch):
    page = tmp_path / "templates" / "organizations" / "x.html"
    page.parent.mkdir(parents=True)
    page.write_text("<a href=\"{% url 'reports_home' org.pk %}\">Reports</a>")
    monkeypatch.setattr("tests.test_links.ROOT", tmp_path)
    with pytest.raises(AssertionError, match=r"x.html: reports_home \(reports\)"):
        test_no_template_names_a_page_of_an_app_above_its_own()


def test_a_place_no_page_offers_is_refused():
    with pytest.raises(ValueError, match="not a place"):
        links.add(links.Link("nowhere", "k", "K", lambda c: "/"))
    with pytest.raises(ValueError, match="not a place"):
        links.shown("nowhere", {})


def test_a_place_shows_its_links_in_order_and_hides_those_not_offered(monkeypatch):
    monkeypatch.setattr(links, "LINKS", {})
    links.add(
        links.Link("late_close", "b", "Second", lambda c: "/b", order=20),
        links.Link("late_close", "a", "First", lambda c: "/a?x=1&y=2", order=10),
        links.Link("late_close", "c", "Hidden", lambda c: None if c.get("hide") else "/c"),
        links.Link("late_close", "a", "Again", lambda c: "/again"),  # a key is kept once
    )
    html = Template(
        '{% links "late_close" hide=True as ls %}{% for l in ls %}<a href="{{ l.href }}">'
        "{{ l.label }}</a>{% endfor %}"
    ).render(Context({}))
    assert html == '<a href="/a?x=1&amp;y=2">First</a><a href="/b">Second</a>'
    assert [s.key for s in links.shown("late_close", Context({}))] == ["a", "b", "c"]


def test_every_app_fills_its_places_and_every_template_place_is_known():
    assert [link.key for link in links.LINKS["organization_tabs"]] == [
        "home", "occasions", "reports", "bank", "jackpots", "members", "authorizations",
        "workers", "equipment", "inventory", "people", "api_tokens", "refused", "audit",
        "compliance",
        "inspections", "year",
    ]  # fmt: skip
    assert links.included("floor_notes") == ["nightfile/_floor_notes.html"]
    used = set()
    for path in (ROOT / "templates").rglob("*.html"):
        used |= set(re.findall(r"{%\s*(?:links|includes)\s+\"(\w+)\"", path.read_text()))
    assert used == set(links.PLACES)
    assert set(links.LINKS) | set(links.INCLUDES) == set(links.PLACES)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("who", "shown", "hidden"),
    [
        # A worker sees the floor: no back office (reports, the bank, card purchases: below).
        ("worker", {"Occasions", "Jackpots", "Equipment"}, {"People", "Audit trail", "Reports"}),
        ("bookkeeper", {"Reports", "Audit trail", "Compliance"}, {"People"}),
        ("head", {"People", "Refused actions", "Inspections"}, set()),
        ("inspector", {"People", "Gaming account", "Audit trail"}, set()),
    ],
)  # fmt: skip
def test_an_organizations_tabs_are_those_its_reader_may_open(
    client, tenant, inspector, who, shown, hidden
):
    from django.urls import reverse

    from tests.conftest import login

    login(client, inspector if who == "inspector" else getattr(tenant, who))
    page = client.get(reverse("organization_home", args=[tenant.organization.pk]))
    tabs = set(re.findall(r'class="nav-link[^"]*" href="[^"]+">([^<]+)</a>', page.content.decode()))
    assert shown <= tabs and not hidden & tabs
    assert len(tabs) >= 10  # the tabs were found (a worker's are the fewest)
    assert ("Card inventory" in tabs) is (who != "worker")


def test_no_template_comment_spans_lines():
    """``{# … #}`` ends on its own line in Django; one that runs over is shown on the page."""
    open_comments = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sorted((ROOT / "templates").rglob("*.html"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if line.count("{#") > line.count("#}")
    ]
    assert not open_comments, "use {% comment %} for these:\n" + "\n".join(open_comments)
