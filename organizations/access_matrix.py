"""Who sees what, as data: every page of the site (by its URL name), who may read it (GET) and
who may write through it (any other method). Kept here and nowhere else: ``access.org_view``,
``access.commission_view`` and ``access.commission_admin_view`` read it on every request, the
links of the pages (``beano.links``) show a page only to whom it reads, SECURITY.md's table is
made from it (``markdown``), and ``tests/test_access_matrix.py`` walks every URL pattern as each
role, GET and POST, and holds the answers to it: a URL pattern missing here fails that test,
and a page missing here is refused (403) to everyone.

The organization's people: the head, the member in charge, the bookkeeper and the worker. A
worker sees the floor (the night's door, draw, claims, extras, program, jackpots, workers and
close, the calendar, the organization's overview, worker list, equipment and authorizations);
the back office's money (reports owed, close-outs, the drawer, the gaming bank account, serials
and paper stock, card purchases, filed reports and their PDFs, the annual report) is the head's
and the bookkeeper's, with the member in charge on the pages of a night he may run or enter
from paper. **Personal data** (the W-2G register and its CSV, W-2G payees' names, home
addresses and TINs, Form 5754's group members, the audit trail that records them, the payouts
export): only heads and bookkeepers whose session passed a second factor, and inspectors; never
the member in charge, a worker, or a Commission admin (whose work is licensing, not winners).

The Commission's staff: an inspector (Commission-wide, or of the organizations of their scope:
``CommissionStaff.organizations``; any other organization is 404 to them, as to an outsider)
reads every organization page but those that exist only to write, and writes nothing; a
Commission admin reads as an inspector does, personal data aside, and writes only the licensing
pages (``commission_admin_view``) and the Django admin (by its model permissions).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from organizations.models import Role

H, M, B, W = Role.HEAD, Role.MEMBER_IN_CHARGE, Role.BOOKKEEPER, Role.WORKER

#: Role groups, named by what they do (the views' buttons ask the same groups).
NOBODY: frozenset[str] = frozenset()
ANY_ROLE = frozenset({H, M, B, W})
HEAD = frozenset({H})
RUNS_THE_NIGHT = frozenset({H, M})
ON_THE_FLOOR = frozenset({H, M, W})  # sells at the door, calls, records claims, takes the laptop
ENTERS = frozenset({H, M, B})  # nights from paper, a late close, serials, equipment and stock
CLOSES_OUT = frozenset({H, B})  # the back office's money: close-outs, bank, filing, annual
#: Who among an organization's people may see personal data (with a second factor).
SEES_PERSONAL_DATA = CLOSES_OUT


class Audience(StrEnum):
    """Who a page outside any one organization is for."""

    PUBLIC = "anyone, signed in or not"
    SIGNED_IN = "anyone signed in"
    COMMISSION = "the Commission's staff (inspectors and admins), reading only"
    COMMISSION_ADMIN = "Commission admins"
    DJANGO_ADMIN = "the Django admin: staff logins, by their model permissions"
    API = "a token of the API, by its scope (``API_ENDPOINTS``); a session is nobody there (401)"


@dataclass(frozen=True)
class OrgPage:
    """A page of one organization (``/org/<id>/…``). ``read``: the roles that may GET it;
    ``write``: those that may POST to it. ``commission``: whether inspectors (and admins)
    read it (never write). ``personal``: it shows personal data (see the module)."""

    read: frozenset[str]
    write: frozenset[str]
    commission: bool = True
    personal: bool = False

    def reads(self, roles: Iterable[str], *, verified: bool) -> bool:
        held = set(roles)
        if self.personal and not (verified and held & SEES_PERSONAL_DATA):
            return False
        return bool(held & self.read)

    def writes(self, roles: Iterable[str]) -> bool:
        return bool(set(roles) & self.write)

    def commission_reads(self, *, inspector: bool) -> bool:
        return self.commission and (inspector or not self.personal)


@dataclass(frozen=True)
class SitePage:
    """A page outside any one organization. ``personal``: only inspectors among the
    Commission's staff (a Commission page)."""

    audience: Audience
    personal: bool = False


def _reads(read: frozenset[str]) -> OrgPage:
    """A page that only shows: nobody writes through it."""
    return OrgPage(read, NOBODY)


def _shows(read: frozenset[str], write: frozenset[str]) -> OrgPage:
    """A page that shows to ``read`` and takes a POST from ``write``."""
    return OrgPage(read, write)


def _form(write: frozenset[str]) -> OrgPage:
    """A page that exists only to write: even showing it needs the role; never the
    Commission's."""
    return OrgPage(write, write, commission=False)


def _personal() -> OrgPage:
    """A page of personal data: shown, never written through."""
    return OrgPage(SEES_PERSONAL_DATA, NOBODY, personal=True)


ORG_PAGES: dict[str, OrgPage] = {
    # The organization.
    "organization_home": _reads(ANY_ROLE),
    "organization_edit": _form(HEAD),
    # The API's tokens: a head makes and revokes them; the Commission sees which exist.
    "api_tokens": _shows(HEAD, HEAD),
    "api_token_revoke": _form(HEAD),
    "member_list": _reads(ANY_ROLE),
    "member_add": _form(RUNS_THE_NIGHT),
    "member_edit": _form(RUNS_THE_NIGHT),
    "authorization_list": _reads(ANY_ROLE),
    "authorization_document": _reads(ANY_ROLE),
    "worker_list": _reads(ANY_ROLE),
    "worker_list_print": _reads(ANY_ROLE),
    "worker_add": _form(RUNS_THE_NIGHT),
    "worker_edit": _form(RUNS_THE_NIGHT),
    "worker_remove": _form(RUNS_THE_NIGHT),
    "conviction_add": _form(RUNS_THE_NIGHT),
    "equipment_list": _reads(ANY_ROLE),
    "equipment_add": _form(ENTERS),
    "equipment_edit": _form(ENTERS),
    "equipment_retire": _form(ENTERS),
    "equipment_proof": _reads(ANY_ROLE),
    "card_inventory": _reads(ENTERS),
    "card_purchase_add": _form(ENTERS),
    "card_usage_add": _form(ENTERS),
    "card_purchase_proof": _reads(ENTERS),
    "people_list": _reads(HEAD),
    "people_invite": _form(HEAD),
    "people_roles": _form(HEAD),
    "people_deactivate": _form(HEAD),
    "people_send_again": _form(HEAD),
    # The audit trail and what inspectors check: they record payees' names and addresses.
    "audit_log": _personal(),
    "org_refused_actions": _reads(CLOSES_OUT),
    "record_history": _personal(),
    "chain_check": _reads(CLOSES_OUT),
    # The Commission's summary of the organization's year: it sums up Commission pages (the
    # exceptions report, the reports owed statewide) the organization's people do not have.
    "organization_year": _reads(NOBODY),
    "occasion_record": _personal(),
    "occasion_record_export": _personal(),
    "org_compliance_prizes": _reads(CLOSES_OUT),
    "org_compliance_workers": _reads(CLOSES_OUT),
    "org_compliance_winners": _personal(),
    "org_compliance_equipment": _reads(CLOSES_OUT),
    "org_compliance_inventory": _reads(CLOSES_OUT),
    "inspections_list": _reads(CLOSES_OUT),
    # The calendar and an occasion.
    "occasion_calendar": _reads(ANY_ROLE),
    "occasion_for_day": _form(RUNS_THE_NIGHT),
    "occasion_detail": _reads(ANY_ROLE),
    "occasion_not_played": _form(RUNS_THE_NIGHT),
    "day_not_played": _form(RUNS_THE_NIGHT),
    "resumption_notice": _form(RUNS_THE_NIGHT),
    "price_list": _shows(ANY_ROLE, RUNS_THE_NIGHT),
    "price_list_print": _reads(ANY_ROLE),
    # The floor: the door, extras, opening and closing, the laptop.
    "door_sales": _shows(ANY_ROLE, ON_THE_FLOOR),
    "night_heartbeat": _form(RUNS_THE_NIGHT),
    "sale_counts": _reads(ANY_ROLE),
    "sale_receipts": _reads(ANY_ROLE),
    "sale_record": _form(ON_THE_FLOOR),
    "sale_void": _form(RUNS_THE_NIGHT),
    "attendance_announce": _form(RUNS_THE_NIGHT),
    "occasion_start_play": _form(RUNS_THE_NIGHT),
    "occasion_start_second_half": _form(RUNS_THE_NIGHT),
    "occasion_extras": _reads(ANY_ROLE),
    **{
        f"extras_{kind}": _form(RUNS_THE_NIGHT)
        for kind in (
            "varying",
            "refund",
            "door_prize",
            "gift",
            "raffle",
            "raffle_tickets",
            "raffle_drawing",
            "charity_sale",
            "charity_redemption",
            "other_sale",
            "police",
            "transportation",
        )
    },
    "raffle_permits": _shows(ANY_ROLE, RUNS_THE_NIGHT),
    "raffle_permit_document": _reads(ANY_ROLE),
    "opening_checklist": _shows(ANY_ROLE, RUNS_THE_NIGHT),
    "opening_check": _form(RUNS_THE_NIGHT),
    "occasion_open": _form(RUNS_THE_NIGHT),
    "workers_present": _shows(ANY_ROLE, RUNS_THE_NIGHT),
    "worker_sign_out": _form(RUNS_THE_NIGHT),
    "worker_hand_over": _form(RUNS_THE_NIGHT),
    "occasion_close": _shows(ANY_ROLE, RUNS_THE_NIGHT),
    "hand_laptop": _form(ON_THE_FLOOR),
    # Games: jackpots, the program, claims, the draw.
    "jackpot_list": _reads(ANY_ROLE),
    "jackpot_start": _form(RUNS_THE_NIGHT),
    "jackpot_detail": _reads(ANY_ROLE),
    "jackpot_rules_change": _form(RUNS_THE_NIGHT),
    "jackpot_game_outcome": _form(RUNS_THE_NIGHT),
    "occasion_jackpot": _shows(ANY_ROLE, RUNS_THE_NIGHT),
    "occasion_jackpot_attach": _form(RUNS_THE_NIGHT),
    "game_program": _shows(ANY_ROLE, RUNS_THE_NIGHT),
    "game_add": _form(RUNS_THE_NIGHT),
    "program_copy": _form(RUNS_THE_NIGHT),
    "prize_part_add": _form(RUNS_THE_NIGHT),
    "game_remove": _form(RUNS_THE_NIGHT),
    "game_confirm_balls": _form(RUNS_THE_NIGHT),
    "game_start": _form(RUNS_THE_NIGHT),
    "game_finish": _form(RUNS_THE_NIGHT),
    "prize_part_announce": _form(RUNS_THE_NIGHT),
    "prize_part_remove": _form(RUNS_THE_NIGHT),
    # The claims page shows a W-2G's details only to whom personal data is shown.
    "game_claims": _reads(ANY_ROLE),
    "claim_record": _form(ON_THE_FLOOR),
    "claim_verify_draw": _form(RUNS_THE_NIGHT),
    "claim_verify_card": _form(RUNS_THE_NIGHT),
    "winners_split": _reads(ANY_ROLE),
    "winners_record": _form(RUNS_THE_NIGHT),
    "payout_record": _form(RUNS_THE_NIGHT),
    "draw_home": _shows(ANY_ROLE, ON_THE_FLOOR),
    "draw_console": _shows(ANY_ROLE, ON_THE_FLOOR),
    "draw_board": _shows(ANY_ROLE, ON_THE_FLOOR),
    "draw_call": _form(ON_THE_FLOOR),
    "draw_correct": _form(ON_THE_FLOOR),
    "flashboard_link": _form(RUNS_THE_NIGHT),
    # The offline floor: the laptop's queue sent (each act then as its own page allows it) and
    # the night's pack it keeps.
    "offline_acts": _form(ON_THE_FLOOR),
    "offline_pack": _reads(ANY_ROLE),
    "control_sheets": _reads(ANY_ROLE),
    # The back office: reports, close-out, cash and bank, paper, filing, the annual report.
    "reports_home": _reads(CLOSES_OUT),
    "occasion_close_late": _form(ENTERS),
    "report_closeout": _shows(CLOSES_OUT, CLOSES_OUT),
    "report_drawer": _shows(CLOSES_OUT, CLOSES_OUT),
    "bank_account": _reads(CLOSES_OUT),
    "bank_save_account": _form(CLOSES_OUT),
    "bank_record_deposit": _form(CLOSES_OUT),
    "bank_record_entry": _form(CLOSES_OUT),
    "bank_reconcile": _form(CLOSES_OUT),
    "report_add_expense": _form(CLOSES_OUT),
    "report_record_stock": _form(CLOSES_OUT),
    "report_remove_expense": _form(CLOSES_OUT),
    "occasion_serials": _reads(ENTERS),
    "occasion_serials_issue": _form(ENTERS),
    "occasion_serials_count_back": _form(ENTERS),
    "occasion_serials_explain": _form(CLOSES_OUT),
    "paper_stock": _reads(CLOSES_OUT),
    "paper_stock_destroy": _form(CLOSES_OUT),
    "paper_stock_take": _form(CLOSES_OUT),
    "paper_home": _shows(ENTERS, ENTERS),
    "paper_for_day": _form(ENTERS),
    "paper_games": _form(ENTERS),
    "paper_game": _form(ENTERS),
    "paper_section": _form(ENTERS),
    # A night file uploaded: judged in a dry run (rules' refusals logged), then recorded.
    "night_upload": _form(CLOSES_OUT),
    "night_upload_confirm": _form(CLOSES_OUT),
    "report_versions": _reads(CLOSES_OUT),
    "report_file": _form(CLOSES_OUT),
    "report_open_amendment": _form(CLOSES_OUT),
    "report_withdraw_amendment": _form(CLOSES_OUT),
    "report_status": _reads(CLOSES_OUT),
    "report_pdf": _reads(CLOSES_OUT),
    "report_rerender": _form(CLOSES_OUT),
    "annual_report": _reads(CLOSES_OUT),
    "annual_add_disbursement": _form(CLOSES_OUT),
    "annual_void_disbursement": _form(CLOSES_OUT),
    "annual_file": _form(CLOSES_OUT),
    "annual_status": _reads(CLOSES_OUT),
    "annual_pdf": _reads(CLOSES_OUT),
    "w2g_register": _personal(),
    "w2g_register_csv": _personal(),
}

SITE_PAGES: dict[str, SitePage] = {
    **{
        name: SitePage(Audience.PUBLIC)
        for name in (
            "flashboard",
            "flashboard_board",
            "login",
            "logout",
            "password_reset",
            "password_reset_done",
            "password_reset_confirm",
            "password_reset_complete",
            "invitation_accept",
            # The hall laptop's service worker and its page for a page not kept (issue 42).
            "service_worker",
            "offline_page",
        )
    },
    **{
        name: SitePage(Audience.SIGNED_IN)
        for name in (
            "password_change",
            "password_change_done",
            "account",
            "otp_verify",
            "otp_setup",
            "otp_recovery",
            "otp_disable",
            "account_pin",
            "account_reminders",
            "stay_signed_in",
            "rules_catalog",
            "limits_in_force",
            "dashboard",
        )
    },
    "inspector_dashboard": SitePage(Audience.COMMISSION),
    "inspect_compliance": SitePage(Audience.COMMISSION),
    "inspect_exceptions": SitePage(Audience.COMMISSION),
    "inspect_exceptions_csv": SitePage(Audience.COMMISSION),
    "inspect_export": SitePage(Audience.COMMISSION, personal=True),
    "commission_refused_actions": SitePage(Audience.COMMISSION),
    "commission_reports": SitePage(Audience.COMMISSION),
    "commission_reports_zip": SitePage(Audience.COMMISSION),
    "invite_head": SitePage(Audience.COMMISSION_ADMIN),
    "onboarding_home": SitePage(Audience.COMMISSION_ADMIN),
    "onboarding_organization_add": SitePage(Audience.COMMISSION_ADMIN),
    # Licensing pages of one organization (``/commission/org/<id>/…``): the organization only
    # looked up (404 outside an admin's reach), then the admin's.
    "onboarding_license_add": SitePage(Audience.COMMISSION_ADMIN),
    "onboarding_authorization_add": SitePage(Audience.COMMISSION_ADMIN),
    "onboarding_arrangements": SitePage(Audience.COMMISSION_ADMIN),
    "commission_api_tokens": SitePage(Audience.COMMISSION_ADMIN),
    "commission_api_token_revoke": SitePage(Audience.COMMISSION_ADMIN),
    # The API's schema and its documentation page: public (they hold no record).
    "api_schema": SitePage(Audience.PUBLIC),
    "api_docs": SitePage(Audience.PUBLIC),
}

#: The API's operations (``/api/v1/…``, by URL name) and the token scopes each answers, for a
#: read (GET) and a write (any other method): ``read`` and ``floor`` tokens are one
#: organization's (any other is 404), ``commission_read`` reaches every organization its maker
#: reviews and writes nothing. The views declare the same sets (``api.access``);
#: tests/api/test_scopes.py holds each view to this table. A session is nobody to the API.
READ, FLOOR, NIGHT_FILES, COMMISSION_READ = "read", "floor", "night_files", "commission_read"
#: Every token of an organization reads its records; the Commission's reads every one's.
ORG_READERS = frozenset({READ, FLOOR, NIGHT_FILES, COMMISSION_READ})


@dataclass(frozen=True)
class ApiEndpoint:
    read: frozenset[str]
    write: frozenset[str] = NOBODY


API_ENDPOINTS: dict[str, ApiEndpoint] = {
    "api_organizations": ApiEndpoint(ORG_READERS),
    # (reads) An organization's records.
    "api_licenses": ApiEndpoint(ORG_READERS),
    "api_occasions": ApiEndpoint(ORG_READERS),
    "api_occasion": ApiEndpoint(ORG_READERS),
    "api_night": ApiEndpoint(ORG_READERS),
    # (floor) Door sales and ball calls.
    "api_sales": ApiEndpoint(NOBODY, write=frozenset({FLOOR})),
    "api_balls": ApiEndpoint(NOBODY, write=frozenset({FLOOR})),
    # (night files) Exported and imported.
    "api_night_file": ApiEndpoint(ORG_READERS),
    "api_night_files": ApiEndpoint(NOBODY, frozenset({NIGHT_FILES})),
    # (commission) Across organizations.
    "api_commission_reports": ApiEndpoint(frozenset({COMMISSION_READ})),
    "api_commission_report": ApiEndpoint(frozenset({COMMISSION_READ})),
    "api_commission_reports_owed": ApiEndpoint(frozenset({COMMISSION_READ})),
    "api_commission_refused_actions": ApiEndpoint(frozenset({COMMISSION_READ})),
    "api_commission_audit_chains": ApiEndpoint(frozenset({COMMISSION_READ})),
}
SITE_PAGES.update({name: SitePage(Audience.API) for name in API_ENDPOINTS})

#: The Django admin's URL names (``admin:…``), one entry for them all.
ADMIN_NAMESPACE = "admin"
SITE_PAGES[f"{ADMIN_NAMESPACE}:*"] = SitePage(Audience.DJANGO_ADMIN)


def org_page(url_name: str | None) -> OrgPage | None:
    return ORG_PAGES.get(url_name or "")


def site_page(url_name: str | None) -> SitePage | None:
    if url_name and url_name.startswith(f"{ADMIN_NAMESPACE}:"):
        return SITE_PAGES[f"{ADMIN_NAMESPACE}:*"]
    return SITE_PAGES.get(url_name or "")


#: The columns of the table, in order: an organization's roles, then the Commission's staff.
COLUMNS = (
    (H, "Head"),
    (M, "Member in charge"),
    (B, "Bookkeeper"),
    (W, "Worker"),
    ("inspector", "Inspector"),
    ("admin", "Commission admin"),
)
#: SECURITY.md's table sits between these two lines (``tests/test_access_matrix.py``).
BEGIN = "<!-- access matrix: made by organizations.access_matrix.markdown(); do not edit -->"
END = "<!-- end of the access matrix -->"


def _cell(page: OrgPage, who: str) -> str:
    if who in ("inspector", "admin"):
        return "read" if page.commission_reads(inspector=who == "inspector") else "—"
    reads = page.reads({who}, verified=True)
    writes = page.writes({who})
    said = "read, write" if reads and writes else "read" if reads else "write" if writes else "—"
    return f"{said} (2FA)" if page.personal and reads else said


def markdown() -> str:
    """The matrix as SECURITY.md states it: one row per set of pages answered alike."""
    rows: dict[tuple[str, ...], list[str]] = {}
    for name, page in ORG_PAGES.items():
        rows.setdefault(tuple(_cell(page, who) for who, _ in COLUMNS), []).append(name)
    lines = [
        BEGIN,
        "",
        "| Pages of an organization (URL names) | " + " | ".join(t for _, t in COLUMNS) + " |",
        "|---|" + "---|" * len(COLUMNS),
    ]
    for cells, names in rows.items():
        pages = ", ".join(f"`{n}`" for n in names)
        lines.append(f"| {pages} | " + " | ".join(cells) + " |")
    lines += ["", "| Other pages (URL names) | Who |", "|---|---|"]
    audiences: dict[str, list[str]] = {}
    for name, site in SITE_PAGES.items():
        who = site.audience.value + ("; personal data: inspectors only" if site.personal else "")
        audiences.setdefault(who, []).append(name)
    for who, names in audiences.items():
        lines.append("| " + ", ".join(f"`{n}`" for n in names) + f" | {who} |")
    lines += ["", END]
    return "\n".join(lines)
