"""The page's words for players: suits, cards, melds and seats as a player says them, and the
answer of a run in one sentence (:func:`bid_verdict`, :func:`deal_verdict`) where the JSON
documents have field names (``p_make``, ``trump_familie``)."""

from __future__ import annotations

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_WORDS = {"A": "ace", "T": "ten", "K": "king", "Q": "queen", "J": "jack", "9": "nine"}
# the melds of the built-in variants (variants/*.toml), as a player names them; another
# name (a house rules file) is shown with its underscores as spaces
MELD_WORDS = {
    "aces_around": "aces around",
    "tens_around": "tens around",
    "kings_around": "kings around",
    "queens_around": "queens around",
    "jacks_around": "jacks around",
    "nines_around": "nines around",
    "run": "run (A 10 K Q J of trump)",
    "royal_marriage": "royal marriage (K Q of trump)",
    "common_marriage": "common marriage (K Q)",
    "trump_marriage": "marriage in trump (K Q)",
    "marriage": "marriage (K Q)",
    "binokel": "Binokel (Q♠ J♦)",
    "quint": "quint (A 10 K Q J of a suit)",
    "familie": "Familie (A 10 K Q J)",
    "trump_familie": "Familie in trump",
    "dix": "dix (the nine of trump)",
    "roundhouse": "roundhouse (a marriage in every suit)",
}
POLICY_WORDS = {"expert": "expert (the strongest of the fast players)",
                "heuristic": "heuristic (a sensible player)",
                "random": "random (any legal card)",
                "heuristic+solver": "heuristic, then the exact solver (slow)",
                "sampling": "sampling (thinks through every card; slow)"}
SEAT_WORDS = {"elder": "elder (you lead the first trick)", "dealer": "dealer (you dealt)",
              "me": "me", "left": "left", "partner": "partner", "right": "right",
              "other": "the other player", "opponent": "the other player"}


def meld_word(name: str) -> str:
    """A meld's name as a player says it."""
    return MELD_WORDS.get(name, name.replace("_", " "))


def suit_word(suit: str | None) -> str:
    """``♠ spades`` for ``S`` (empty for None)."""
    return "" if not suit else f"{SUIT_SYMBOLS[suit]} {SUIT_WORDS[suit]}"


def card_word(code: str) -> str:
    """``ace of spades`` for ``AS``."""
    return f"{RANK_WORDS.get(code[:-1], code[:-1])} of {SUIT_WORDS[code[-1]]}"


def whole_percent(p: float | None) -> str:
    """A chance as a player reads it: whole percent, ``<1%`` and ``>99%`` at the ends."""
    if p is None:
        return "–"
    if 0 < p < 0.005:
        return "<1%"
    if 0.995 <= p < 1:
        return ">99%"
    return f"{100 * p:.0f}%"


def signed(value: float) -> str:
    """A score with its sign: ``+117``, ``−12`` (a real minus sign)."""
    rounded = round(value)
    return f"+{rounded}" if rounded > 0 else f"−{-rounded}" if rounded < 0 else "0"


def _row(rows: list[dict], bid: int, trump: str | None) -> dict | None:
    return next((r for r in rows if r["bid"] == bid and r.get("trump") == trump), None)


def bid_verdict(doc: dict) -> dict:
    """The answer of ``bid-odds`` (its JSON document) for a player at the table: ``headline``
    (one sentence: *Bid up to 110 with ♠ spades: made 68% of the time*), ``detail`` (the
    minimum bid's figures) and, with ``--bid``, ``asked`` (that bid's sentence per trump), as
    ``[(text, strong)]`` runs so the page can set the figures in bold; ``trump`` the trump the
    headline speaks of and ``bid`` its bid."""
    rows = doc.get("rows", [])
    floor = min((r["bid"] for r in rows), default=None)
    asked_bid = doc["provenance"].get("bid")
    if "by_trump" in doc:  # the partnership game: per trump
        trump = doc.get("recommended_trump")
        infos = doc["by_trump"]
        top = doc.get("max_bid_positive_ev")
        with_trump = [(" with ", False), (suit_word(trump), True)] if trump else []
        if not doc.get("has_marriage", True) or trump is None:
            headline = [("Do not bid: ", False), ("this hand holds no marriage", True),
                        (", so it may not name trump and every bid is lost.", False)]
            return {"headline": headline, "detail": [], "asked": _asked(doc, asked_bid),
                    "trump": None, "bid": None}
        info = infos[trump]
    else:  # the widow games: the soloist names trump after the widow
        trump, info, top, with_trump = None, doc, doc.get("max_bid_positive_ev"), []
    if top is not None:
        row = _row(rows, top, trump)
        headline = [("Bid up to ", False), (str(top), True), *with_trump,
                    (": made ", False), (whole_percent(row["p_make"] if row else None), True),
                    (" of the time.", False)]
    else:
        headline = [("Do not bid: ", False),
                    (f"even the lowest bid, {floor}, loses on average", True), *with_trump,
                    (f" (made {whole_percent(info['p_make_min_bid'])} of the time).", False)]
    detail = [(f"At the lowest bid, {floor}, you make it ", False),
              (whole_percent(info["p_make_min_bid"]), True),
              (" of the time, for an average score of ", False),
              (signed(info["expected_score_min_bid"]), True), (".", False)]
    if "by_trump" not in doc:
        detail.append((" You name trump after taking the widow.", False))
    return {"headline": headline, "detail": detail, "asked": _asked(doc, asked_bid),
            "trump": trump, "bid": top}


def _asked(doc: dict, bid: int | None) -> list[list[tuple[str, bool]]]:
    """``--bid``'s sentences: one per trump in the partnership game, one in the widow games."""
    if bid is None:
        return []
    if "by_trump" in doc:
        pairs = [(f" with {suit_word(t)}", info) for t, info in doc["by_trump"].items()]
    else:
        pairs = [("", doc)]
    out = []
    for whose, info in pairs:
        out.append([(f"Bid {bid}{whose}: made ", False),
                    (whole_percent(info["p_make_at_bid"]), True),
                    (" of the time, average score ", False),
                    (signed(info["expected_score_at_bid"]), True),
                    ((f"; you give up {whole_percent(info['p_concede_at_bid'])}"
                      if info.get("p_concede_at_bid") else ""), False),
                    (".", False)])
    return out


def deal_verdict(doc: dict) -> dict:
    """The answer of ``deal-odds`` (its JSON document) in one sentence and a detail line, as
    :func:`bid_verdict`'s runs."""
    q = doc["quantiles"]
    headline = [("You out-score every opponent in ", False), (whole_percent(doc["p_win"]), True),
                (" of deals; your median score is ", False), (f"{q['50']:.0f}", True), (".", False)]
    detail = [(f"In one deal of ten you score {q['10']:.0f} or less, in one of ten "
               f"{q['90']:.0f} or more; on average {doc['mean_score']:.0f}, with "
               f"{doc['static_meld']} meld in hand before play.", False)]
    return {"headline": headline, "detail": detail, "asked": [], "trump": doc.get("trump"),
            "bid": None}
