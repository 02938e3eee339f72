"""Charts drawn on the server as SVG: no JavaScript library, nothing from a CDN. A chart is a
list of series over the same labels, so another series (the net proceeds, once the reports are
filed) is one more ``Series`` in the list. Each chart carries a title and a description for
screen readers, and the page shows its figures in a table as well."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from beano.rules.money import usd

WIDTH, HEIGHT = 420, 230
LEFT, RIGHT, TOP, BOTTOM = 52, 14, 12, 30
#: Series colors (Bootstrap's blue, gray, green, pink); every series after the first is also
#: dashed or dotted, so the lines differ without color too.
COLORS = ("#0d6efd", "#495057", "#198754", "#d63384")
DASHES = ("", "6 4", "2 3", "10 3 2 3")
MAX_X_LABELS = 6

Number = Decimal | int


@dataclass(frozen=True)
class Series:
    label: str
    values: tuple[Number | None, ...]  # one per label of the chart; None: no figure


@dataclass(frozen=True)
class Chart:
    key: str
    title: str
    unit: str  # "USD" or a count's noun, e.g. "players"
    labels: tuple[str, ...]
    series: tuple[Series, ...]
    ticks: tuple[str, ...] = ()  # shorter labels under the axis, where room is short
    note: str = ""  # what the figures are, for the description read aloud

    @property
    def tick_labels(self) -> tuple[str, ...]:
        return self.ticks or self.labels

    def with_series(self, series: Series) -> Chart:
        """The same chart with another series drawn over the same labels."""
        return replace(self, series=(*self.series, series))

    def format(self, value: Number | None) -> str:
        if value is None:
            return "—"
        if self.unit == "USD":
            return usd(Decimal(value), whole=True)
        return f"{Decimal(value):,.0f} {self.unit}"

    @property
    def has_data(self) -> bool:
        return any(v is not None for s in self.series for v in s.values)

    @property
    def rows(self) -> list[tuple[str, list[str]]]:
        """The figures as a table: one row per label, one cell per series."""
        return [
            (label, [self.format(s.values[i]) for s in self.series])
            for i, label in enumerate(self.labels)
        ]

    @property
    def description(self) -> str:
        if not self.has_data:
            return f"{self.title}: no figures in this period."
        parts = []
        for s in self.series:
            known = [(label, v) for label, v in zip(self.labels, s.values, strict=True) if v]
            if known:
                label, value = known[-1]
                parts.append(f"{s.label}: {self.format(value)} in {label}")
        what = f"{self.title}, {self.note}" if self.note else self.title
        return f"{what}, {self.labels[0]} to {self.labels[-1]}. Latest: " + "; ".join(parts)

    @property
    def svg(self) -> SafeString:
        return render_svg(self)


def nice_ceiling(value: Decimal) -> Decimal:
    """The smallest of 1, 2, 2.5, 5 × 10ⁿ at or above ``value`` (an axis' top)."""
    if value <= 0:
        return Decimal(1)
    magnitude = Decimal(10) ** (len(str(int(value))) - 1)
    for step in (1, 2, Decimal("2.5"), 5, 10):
        if value <= magnitude * step:
            return magnitude * step
    return magnitude * 10  # pragma: no cover - the loop ends at 10


def _x(index: int, count: int) -> float:
    plot_w = WIDTH - LEFT - RIGHT
    return LEFT + (plot_w / 2 if count == 1 else plot_w * index / (count - 1))


def _points(chart: Chart, series: Series, top: Decimal) -> list[tuple[float, float, str] | None]:
    plot_h = HEIGHT - TOP - BOTTOM
    out: list[tuple[float, float, str] | None] = []
    for i, value in enumerate(series.values):
        if value is None:
            out.append(None)
            continue
        x = _x(i, len(chart.labels))
        y = TOP + plot_h - float(Decimal(value) / top) * plot_h
        out.append((x, y, f"{chart.labels[i]}: {chart.format(value)}"))
    return out


def render_svg(chart: Chart) -> SafeString:
    values = [Decimal(v) for s in chart.series for v in s.values if v is not None]
    top = nice_ceiling(max(values, default=Decimal(0)))
    plot_h = HEIGHT - TOP - BOTTOM
    ident = f"chart-{escape(chart.key)}"
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="{ident}-title {ident}-desc" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{ident}-title">{escape(chart.title)}</title>',
        f'<desc id="{ident}-desc">{escape(chart.description)}</desc>',
    ]
    for step in range(5):
        y = TOP + plot_h - plot_h * step / 4
        tick = chart.format(top * step / 4).replace(f" {chart.unit}", "")
        parts.append(
            f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}"/>'
            f'<text class="tick" x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">'
            f"{escape(tick)}</text>"
        )
    every = max(1, -(-len(chart.labels) // MAX_X_LABELS))  # at most 6 labels under the axis
    for index, text in enumerate(chart.tick_labels):
        if index % every == 0:
            parts.append(
                f'<text class="tick" x="{_x(index, len(chart.labels)):.1f}" '
                f'y="{HEIGHT - BOTTOM + 20}" text-anchor="middle">{escape(text)}</text>'
            )
    # The first series (the subject) is drawn last, on top of the ones it is compared with.
    for n, series in reversed(list(enumerate(chart.series))):
        color, dash = COLORS[n % len(COLORS)], DASHES[n % len(DASHES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        points = _points(chart, series, top)
        for run in _runs(points):
            if len(run) > 1:
                coords = " ".join(f"{x:.1f},{y:.1f}" for x, y, _ in run)
                parts.append(
                    f'<polyline fill="none" stroke="{color}" stroke-width="2.5"{dash_attr} '
                    f'points="{coords}"/>'
                )
        for point in points:
            if point:
                x, y, label = point
                parts.append(
                    f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{color}">'
                    f"<title>{escape(series.label)}, {escape(label)}</title></circle>"
                )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every text above is escaped


def _runs(
    points: Sequence[tuple[float, float, str] | None],
) -> list[list[tuple[float, float, str]]]:
    """Consecutive known points: a line is not drawn across a month without a figure."""
    runs: list[list[tuple[float, float, str]]] = [[]]
    for point in points:
        if point is None:
            runs.append([])
        else:
            runs[-1].append(point)
    return [r for r in runs if r]
