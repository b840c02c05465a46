"""The bid ladder as ``bid-odds`` shows it by default: the bids worth a look, and the note on
what was left out (``--full`` shows every row)."""

from binokel_sim.cli.base import out

LANDMARKS = (0.9, 0.75, 0.5, 0.25, 0.1)  # p_make levels whose crossing the default ladder shows
AROUND = 2  # bids shown on each side of the highest bid with a positive expected score


def interesting_bids(rows: list[dict]) -> list[int]:
    """The bids the default ladder shows: the minimum bid; per trump, the first bid at or below
    each of :data:`LANDMARKS` of p_make; and the bids around the highest one with a positive
    expected score."""
    bids = sorted({r["bid"] for r in rows})
    shown = {bids[0]}
    for trump in dict.fromkeys(r.get("trump") for r in rows):
        own = [r for r in rows if r.get("trump") == trump]
        for level in LANDMARKS:
            below = [r["bid"] for r in own if r["p_make"] <= level]
            if below:
                shown.add(below[0])
        positive = [r["bid"] for r in own if r["expected_score"] > 0]
        if positive:
            k = bids.index(max(positive))
            shown.update(bids[max(k - AROUND, 0):k + AROUND + 1])
    return sorted(shown)


def ladder_note(shown: int, total: int) -> None:
    if shown < total:
        out.print(f"{shown} of {total} bids shown: the minimum bid, where p_make falls below "
                  f"{', '.join(f'{p:.0%}' for p in LANDMARKS)}, and around the highest bid "
                  f"with a positive expected score; --full shows every row", highlight=False)
