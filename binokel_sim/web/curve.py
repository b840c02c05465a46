"""The page's bid curve: the chance to make each bid, with its 95% band, drawn as inline SVG
sized for a phone (``report``'s PNG figure, 800 px wide, is unreadable at 390 px; the PNGs
stay on the page, folded). Coordinates only: ``templates/curve.html`` draws them."""

from __future__ import annotations

WIDTH, HEIGHT = 360, 230  # the SVG's user units; it scales to the page's width
LEFT, RIGHT, TOP, BOTTOM = 38, 10, 10, 32  # the plot area's margins (labels live there)
SHOWN_FROM = 0.01  # the curve is drawn up to the highest bid made at least this often
# a four-colour deck's suits: spades black, hearts red, diamonds blue, clubs green
COLORS = {"S": "#222222", "H": "#c0392b", "D": "#1f5fa8", "C": "#1e7b45", None: "#1f3a93"}


def _ticks(low: int, high: int, count: int = 5) -> list[int]:
    """About ``count`` round bids from ``low`` to ``high``."""
    span = max(high - low, 1)
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000)
                if span / s <= count)
    first = -(-low // step) * step
    return list(range(first, high + 1, step))


def bid_curve(rows: list[dict], trumps: list[str | None], marked_trump: str | None,
              marked_bid: int | None, asked_bid: int | None) -> dict | None:
    """The curve of the bid rows (the document's ``rows``): one series per trump of
    ``trumps`` (None: the widow games' one series), the band of ``marked_trump``'s (or the one
    series'), a line at ``marked_bid`` (the highest bid worth making) and at ``asked_bid``.
    Returns the SVG's coordinates and labels, or None with fewer than two bids."""
    shown = [r for r in rows if r["p_make"] >= SHOWN_FROM or r["bid"] == asked_bid]
    bids = sorted({r["bid"] for r in shown} | ({asked_bid} if asked_bid else set()))
    if len(bids) < 2:
        return None
    low, high = bids[0], bids[-1]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(bid: float) -> float:
        return round(LEFT + (bid - low) / (high - low) * plot_w, 1)

    def y(p: float) -> float:
        return round(TOP + (1 - p) * plot_h, 1)

    banded = marked_trump if marked_trump in trumps else trumps[0]
    series = []
    for trump in trumps:
        own = [r for r in rows if r.get("trump") == trump and low <= r["bid"] <= high]
        if not own:
            continue
        line = " ".join(f"{x(r['bid'])},{y(r['p_make'])}" for r in own)
        band = None
        if trump == banded:
            upper = [f"{x(r['bid'])},{y(r['ci_high'])}" for r in own]
            lower = [f"{x(r['bid'])},{y(r['ci_low'])}" for r in reversed(own)]
            band = " ".join(upper + lower)
        series.append({"trump": trump, "color": COLORS.get(trump, COLORS[None]), "line": line,
                       "band": band, "bold": trump == banded})
    marks = []
    for bid, text, kind in ((marked_bid, f"bid up to {marked_bid}", "best"),
                            (asked_bid, f"bid {asked_bid}?", "asked")):
        if bid is not None and low <= bid <= high:
            marks.append({"x": x(bid), "text": text, "kind": kind,
                          "anchor": "end" if x(bid) > LEFT + plot_w * 0.7 else "start"})
    if len(marks) == 2 and abs(marks[0]["x"] - marks[1]["x"]) < 80:  # labels back to back
        left, right = sorted(marks, key=lambda m: m["x"])
        left["anchor"], right["anchor"] = "end", "start"
    return {
        "width": WIDTH, "height": HEIGHT, "left": LEFT, "right": WIDTH - RIGHT, "top": TOP,
        "bottom": HEIGHT - BOTTOM, "series": series, "marks": marks,
        "x_ticks": [{"x": x(b), "text": str(b)} for b in _ticks(low, high)],
        "y_ticks": [{"y": y(p), "text": f"{p:.0%}"} for p in (0, 0.25, 0.5, 0.75, 1)],
        "low": low, "high": high,
    }
