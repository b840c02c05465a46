"""Slow, obvious pure-Python twins of the talon games' heuristic (``kernels/strict/heuristic.py``, the
heuristic declarations of ``kernels/talon/declare.py``) and of the sampling policy
(``kernels/talon/sampling.py`` in phase 1; ``kernels/strict/sampling.py`` and
``kernels/strict/tricks.py`` in phase 2 of three and four players), on the hands of
:mod:`binokel_sim.reference.talon` (per card type a list of the copies' served records).

:func:`play_deals` plays whole deals with a policy per seat (``random``, ``heuristic`` or
``sampling``) from the same streams as the kernel, so its records equal the records
(:mod:`binokel_sim.records.talon`) of :func:`binokel_sim.engines.talon.run_play` deal for deal;
with a ``sampling`` seat of two players it stops after phase 1 (phase 2 is then the exact
solver's, whose twin takes positions of a few tricks only). What the table knows in phase 2
(:class:`Deal`'s ``excluded`` and ``known``) is kept as sets and counts; the phase-2 samples
come from the constrained sampler's twin (:mod:`binokel_sim.reference.sampler`). Sets of card
types instead of bit masks, no numba, rules as docs/rules.md ("Talon games", Policies,
"Sampling policy and inference") states them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache

from binokel_sim import expert_play
from binokel_sim.cards import (
    N_SUITS,
    N_TYPES,
    SUITS,
    card_type,
    format_card,
    format_counts,
    type_rank,
    type_suit,
)
from binokel_sim.reference import endgame
from binokel_sim.reference.core import (
    Stream,
    block_streams,
    deck_cards,
    inferring,
    race_leader,
    race_survivors,
    race_zone,
)
from binokel_sim.reference.play import legal_cards, stream_pick, trick_winner
from binokel_sim.reference.sampler import sample_counts, ways_from
from binokel_sim.reference.talon import (
    add_copy,
    apply_declaration,
    deal_talon_game,
    declaration_points,
    declaration_record,
    fresh_hand,
    hand_counts,
    legal_declarations,
    meld_set_types,
    remove_copy,
    swap_card,
)
from binokel_sim.variants import Rules, per_rules

RANK_9, RANK_J, RANK_Q, RANK_K, RANK_T, RANK_A = range(6)
WIN_FOR_MELD = 40
WIN_FOR_POINTS = 10
# the heuristic's knobs; the expert's are its fitted ones (binokel_sim/expert_play.json)
NEVER = 1 << 40
HEURISTIC_KNOBS = {name: 0 for name in expert_play.KNOBS} | {
    "win_points": WIN_FOR_POINTS, "win_meld": WIN_FOR_MELD, "take_last": 1, "grab": NEVER}


# --- the heuristic's card (kernels/strict/heuristic.py heuristic_talon_card) --------------------------

_suit = type_suit

# what the rules below ask of a card type again and again, read off once
_RANK_SUIT = [(type_rank(t), type_suit(t)) for t in range(N_TYPES)]  # lowest rank, lowest suit
_HIGH_FIRST = [(-type_rank(t), type_suit(t)) for t in range(N_TYPES)]  # highest rank, lowest suit
_BIG = frozenset(t for t in range(N_TYPES) if type_rank(t) in (RANK_T, RANK_A))


@lru_cache(maxsize=None)
def _suit_types(suit: int) -> frozenset[int]:
    """The card types of ``suit`` (none for no suit: the trump of a Durch or a Bettel)."""
    return frozenset(t for t in range(N_TYPES) if _suit(t) == suit)


def _lowest_rank(cards: set[int]) -> int:
    """A card of the lowest rank, the lowest suit among equals."""
    return min(cards, key=_RANK_SUIT.__getitem__)


def _highest_rank(cards: set[int]) -> int:
    return min(cards, key=_HIGH_FIRST.__getitem__)


def _cheapest(cards: set[int], trump: int, counters: set[int]) -> int:
    side = cards - _suit_types(trump)
    for tier in (side - counters, side, cards - counters, cards):
        if tier:
            return _lowest_rank(tier)
    raise ValueError("no card")


def _dominated(unseen: set[int]) -> set[int]:
    """Types with an unseen card of the same suit and a higher rank: those below the highest
    unseen rank of their suit."""
    top = [-1] * N_SUITS  # suit -> the highest rank unseen in it
    for u in unseen:
        rank, suit = _RANK_SUIT[u]
        if rank > top[suit]:
            top[suit] = rank
    return {card_type(r, s) for s in range(N_SUITS) for r in range(top[s])}


def _beats(legal: set[int], win_card: int, led: int, trump: int) -> set[int]:
    """The cards of ``legal`` that would take the trick from ``win_card``."""
    def higher(t: int) -> bool:
        return _suit(t) == _suit(win_card) and type_rank(t) > type_rank(win_card)
    if _suit(win_card) == trump:
        return {t for t in legal if higher(t)}
    return {t for t in legal if _suit(t) == trump or (_suit(t) == led and higher(t))}


def _keep(trump: int) -> set[int]:
    """The meld cards kept while the talon lasts (binokel's QS and JD, kings, queens, aces,
    every trump but the nine) and the tens."""
    return set(_kept(trump))


@lru_cache(maxsize=None)
def _kept(trump: int) -> frozenset[int]:
    cards = {0 * 6 + RANK_Q, 2 * 6 + RANK_J}
    cards |= {t for t in range(N_TYPES) if type_rank(t) in (RANK_K, RANK_Q, RANK_A, RANK_T)}
    cards |= {t for t in range(N_TYPES) if _suit(t) == trump and type_rank(t) != RANK_9}
    return frozenset(cards)


@per_rules
def counter_types(rules: Rules) -> frozenset[int]:
    """The card types worth card points."""
    return frozenset(t for t in range(N_TYPES) if rules.rank_points[type_rank(t)] > 0)


def heuristic_card(legal: set[int], held: list[int], played: list[int], copies: int, early: bool,
                   position: int, led: int, win_card: int, partner_wins: bool, last: bool,
                   trick_points: int, ready: int, trump: int, counters: set[int],
                   knobs: dict[str, int] = HEURISTIC_KNOBS) -> int:
    """The talon heuristic's card (docs/rules.md, E1-E3 and S1-S3): ``held`` and ``played``
    counts per card type (the cards played in the deal so far); ``knobs`` the phase-1
    thresholds (the expert's differ)."""
    big = _BIG
    trumps = _suit_types(trump)
    if early:
        keep = _kept(trump)
        if position == 0:
            spare = legal - keep - trumps
            return _lowest_rank(spare) if spare else _cheapest(legal, trump, counters)
        spare = legal - keep
        if not partner_wins:
            beat = _beats(legal, win_card, led, trump)
            if beat and (trick_points >= knobs["win_points"] or ready >= knobs["win_meld"]):
                cheap = beat - keep
                return _lowest_rank(cheap) if cheap else _cheapest(beat, trump, counters)
        if spare:
            return _cheapest(spare, trump, counters)
        return _cheapest(legal - big if legal - big else legal, trump, counters)
    unseen = {t for t in range(N_TYPES) if held[t] + played[t] < copies}
    dominated = _dominated(unseen)
    if knobs["strict_score"]:
        return strict_scored_card(knobs, legal, held, unseen, position, win_card, led,
                                  partner_wins, trick_points, trump)
    if position == 0:
        top = (legal & trumps) - dominated
        if top and unseen & trumps and (sum(held[t] for t in trumps)
                                        >= len(unseen & trumps) + knobs["pull_margin"]):
            return _highest_rank(top)
        side = legal - trumps
        if side - dominated:
            return _highest_rank(side - dominated)
        return _cheapest(side if side else legal, trump, counters)
    beat = _beats(legal, win_card, led, trump)
    if partner_wins and (last or win_card not in dominated):
        smear = (legal & counters) - trumps - beat
        return _lowest_rank(smear) if smear else _cheapest(legal, trump, counters)
    if beat:
        if last:
            if trick_points >= knobs["take_last"] or not legal - beat:
                return _cheapest(beat, trump, counters)
        elif beat - dominated:
            return _cheapest(beat - dominated, trump, counters)
        elif trick_points >= knobs["grab"]:
            return _cheapest(beat, trump, counters)
    return _cheapest(legal, trump, counters)


# --- the expert's phase-1 card (kernels/strict/heuristic.py scored_card) ----------------------



def expert_knobs(rules: Rules) -> dict[str, int]:
    """The expert's knobs for ``rules`` (binokel_sim/expert_play.json)."""
    return expert_play.knobs(rules.name, HEURISTIC_KNOBS)


def scored_card(knobs: dict[str, int], legal: set[int], unseen: set[int], keep: set[int],
                position: int, win_card: int, led: int, partner_wins: bool, trick_points: int,
                ready: int, trump: int, pending: set[int], shown: set[int], last: bool) -> int:
    """The legal card of the highest weighted score, the lowest type on a tie (docs/rules.md
    "Expert policy"): leading, the weights ``lead_*``; following, ``follow_*`` (the partner
    holding the trick: ``follow_over`` and ``follow_smear`` for the winning and losing terms)
    and the weights of the follower's place in the trick (:func:`place_score`; ``last``: it
    plays last)."""
    masters = set(range(N_TYPES)) - _dominated(unseen)
    wins = _beats(legal, win_card, led, trump) if position > 0 else set()
    best, top = -1, None
    for c in sorted(legal):
        big = int(type_rank(c) in (RANK_T, RANK_A))
        f = {"big": big, "keep": int(c in keep), "trump": int(_suit(c) == trump),
             "rank": type_rank(c), "pending": int(c in pending), "shown": int(c in shown)}
        if position == 0:
            master = int(c in masters)
            score = (knobs["lead_big"] * f["big"] + knobs["lead_keep"] * f["keep"]
                     + knobs["lead_trump"] * f["trump"] + knobs["lead_master"] * master
                     + knobs["lead_rank"] * f["rank"]
                     + knobs["lead_ready"] * (master * f["trump"]) * (ready // 10)
                     + knobs["lead_pending"] * f["pending"] + knobs["lead_shown"] * f["shown"])
        else:
            if partner_wins:
                score = knobs["follow_over"] if c in wins else knobs["follow_smear"] * f["big"]
            elif c in wins:
                score = (knobs["follow_win"] + knobs["follow_take"] * trick_points
                         + knobs["follow_ready"] * (ready // 10)
                         + knobs["follow_big_wins"] * f["big"])
            else:
                score = knobs["follow_big_loses"] * f["big"]
            score += (knobs["follow_keep"] * f["keep"] + knobs["follow_trump"] * f["trump"]
                      + knobs["follow_rank"] * f["rank"]
                      + knobs["follow_pending"] * f["pending"]
                      + knobs["follow_shown"] * f["shown"])
            score += place_score(knobs, place_of(position, partner_wins, last), c in wins, f,
                                 trick_points, ready)
        if top is None or score > top:
            best, top = c, score
    return best


def place_of(position: int, partner_wins: bool, last: bool) -> str:
    """The follower's place in the trick, which names its weights: ``second``, ``third`` or
    ``last`` under an opponent's card, ``third_partner`` or ``last_partner`` under the
    partner's."""
    if partner_wins:
        return "last_partner" if last else "third_partner"
    return "last" if last else "second" if position == 1 else "third"


def place_score(knobs: dict[str, int], place: str, win: bool, f: dict[str, int],
                trick_points: int, ready: int) -> int:
    """What a follower's place adds to a card's score (knobs ``<place>_<feature>``)."""
    w = {name: knobs[f"{place}_{name}"] for name in expert_play.PLACE_FEATURES}
    if win:
        score = (w["win"] + w["take"] * trick_points + w["ready"] * (ready // 10)
                 + w["big_wins"] * f["big"] + w["trump_wins"] * f["trump"]
                 + w["rank_wins"] * f["rank"])
    else:
        score = w["big_loses"] * f["big"]
    return score + (w["keep"] * f["keep"] + w["trump"] * f["trump"] + w["rank"] * f["rank"]
                    + w["pending"] * f["pending"] + w["shown"] * f["shown"])


def strict_scored_card(knobs: dict[str, int], legal: set[int], held: list[int],
                       unseen: set[int], position: int, win_card: int, led: int,
                       partner_wins: bool, trick_points: int, trump: int) -> int:
    """The expert's card in a strict trick with the knob ``strict_score`` on: the legal card of
    the highest weighted score, the lowest type on a tie (docs/rules.md "Expert policy")."""
    masters = set(range(N_TYPES)) - _dominated(unseen)
    wins = _beats(legal, win_card, led, trump) if position > 0 else set()
    trumps_held = sum(held[t] for t in range(N_TYPES) if _suit(t) == trump)
    pull = int(trumps_held >= sum(1 for t in unseen if _suit(t) == trump))
    best, top = -1, None
    for c in sorted(legal):
        big = int(type_rank(c) in (RANK_T, RANK_A))
        is_trump = int(_suit(c) == trump)
        master = int(c in masters)
        if position == 0:
            length = sum(held[t] for t in range(N_TYPES) if _suit(t) == _suit(c))
            out = sum(1 for t in unseen if _suit(t) == _suit(c))
            score = (knobs["strict_lead_trump"] * is_trump + knobs["strict_lead_master"] * master
                     + knobs["strict_lead_pull"] * master * is_trump * pull
                     + knobs["strict_lead_big"] * big + knobs["strict_lead_rank"] * type_rank(c)
                     + knobs["strict_lead_length"] * length + knobs["strict_lead_out"] * out)
        else:
            if c in wins:
                score = (knobs["strict_follow_win"] + knobs["strict_follow_take"] * trick_points
                         + knobs["strict_follow_safe"] * master
                         + knobs["strict_follow_big_wins"] * big)
            else:
                score = big * (knobs["strict_follow_big_loses"]
                               + knobs["strict_follow_smear"] * int(partner_wins))
            score += (knobs["strict_follow_trump"] * is_trump
                      + knobs["strict_follow_rank"] * type_rank(c))
        if top is None or score > top:
            best, top = c, score
    return best


def best_declaration(rules: Rules, hand: list[list[int]], trump: int):
    """The heuristic's declaration: the legal one worth most, the first in the choice order on
    a tie (None when none scores)."""
    best, best_points = None, 0
    for decl in legal_declarations(rules, hand, trump, False)[1:]:
        points = declaration_points(rules.melds[decl.meld], decl.level)
        if points > best_points:
            best, best_points = decl, points
    return best, best_points


# --- a deal that can be played on from any point --------------------------------------------------

@dataclass
class Deal:
    """Everything about a talon deal in progress: the hands (copies with served records), the
    talon still to draw (its last card face up), the cards played (counts), the trick on the
    table, points, and the seat that took the turned card with the swap (public).

    With ``track`` the table's phase-2 knowledge is kept (as the kernel keeps it for sampling
    seats): from the start of phase 2 (:func:`start_knowledge`) ``excluded[s]`` the card types
    seat ``s`` is known not to hold and ``known[s][t]`` the copies of ``t`` it is known to hold,
    both updated by every card played (:func:`play_card`); None before phase 2 and in the
    play-outs."""

    rules: Rules
    hands: list
    talon: list[int]
    trump: int
    leader: int
    k: int = 0
    trick: list[int] = field(default_factory=list)
    played: list[int] = field(default_factory=lambda: [0] * N_TYPES)
    card_points: list[int] = field(default_factory=list)
    meld_points: list[int] = field(default_factory=list)
    took: tuple[int, int] = (-1, -1)
    track: bool = False
    excluded: list[set[int]] | None = None
    known: list[list[int]] | None = None

    @property
    def phase1(self) -> int:
        return self.rules.talon // self.rules.players

    def seat(self) -> int:
        return (self.leader + len(self.trick)) % self.rules.players

    def legal(self) -> set[int]:
        held = hand_counts(self.hands[self.seat()])
        if self.k < self.phase1 and self.rules.strict != "always":
            return {t for t in range(N_TYPES) if held[t]}
        return set(legal_cards(held, self.trick, self.trump))


def waiting(rules: Rules, hand: list[list[int]], trump: int) -> tuple[int, set[int]]:
    """What the expert knows of the declarations ``hand`` could make now: the most one is worth
    (*ready*) and the card types of every one (*pending*)."""
    ready, pending = 0, set()
    for decl in legal_declarations(rules, hand, trump, False)[1:]:
        meld = rules.melds[decl.meld]
        ready = max(ready, declaration_points(meld, decl.level))
        pending |= set(meld_set_types(meld, decl.suit))
    return ready, pending


def heuristic_choice(deal: Deal, expert: bool = False) -> int:
    """The heuristic's card for the seat to play, or with ``expert`` the expert's: the
    heuristic's rules with the expert's knobs (:func:`expert_knobs`), its scorer in phase 1
    when the knob ``score`` is on (:func:`scored_card`)."""
    rules, seat = deal.rules, deal.seat()
    counters = counter_types(rules)
    legal = deal.legal()
    early = deal.k < deal.phase1
    i = len(deal.trick)
    led = _suit(deal.trick[0]) if deal.trick else -1
    taking = trick_winner(deal.trick, deal.trump) if deal.trick else -1
    win = deal.trick[taking] if deal.trick else -1
    win_seat = (deal.leader + taking) % rules.players if deal.trick else deal.leader
    points = sum(rules.rank_points[type_rank(t)] for t in deal.trick)
    knobs = expert_knobs(rules) if expert else HEURISTIC_KNOBS
    partner = bool(rules.partnerships) and i > 0 and win_seat == seat ^ 2
    held = hand_counts(deal.hands[seat])
    if early and knobs["score"] and not (partner and knobs["partner_rules"]):
        ready, pending = 0, set()
        if i == 0 or (points < knobs["win_points"] and _beats(legal, win, led, deal.trump)):
            ready, pending = waiting(rules, deal.hands[seat], deal.trump)
        unseen = {t for t in range(N_TYPES) if held[t] + deal.played[t] < rules.copies}
        shown = {t for t in range(N_TYPES) if served_count(deal, seat, t) > 0}
        return scored_card(knobs, legal, unseen, _keep(deal.trump), i, win, led, partner,
                           points, ready, deal.trump, pending, shown, i == rules.players - 1)
    ready = 0
    if early and i > 0 and points < knobs["win_points"] and _beats(legal, win, led, deal.trump):
        ready = best_declaration(rules, deal.hands[seat], deal.trump)[1]
        if not expert:  # the heuristic knows only whether one worth WIN_FOR_MELD waits
            ready = WIN_FOR_MELD if ready >= WIN_FOR_MELD else 0
    return heuristic_card(legal, held, deal.played, rules.copies, early, i, led, win, partner,
                          i == rules.players - 1, points, ready, deal.trump, counters, knobs)


def excluded_by(card: int, trick: list[int], trump: int) -> set[int]:
    """The card types a player who played ``card`` to ``trick`` (the cards before his) under
    the must-head obligation cannot hold: those whose holding, beside ``card``, would have made
    ``card`` illegal. Nothing for a lead."""
    if not trick:
        return set()
    out = set()
    for t in range(N_TYPES):
        hand = [0] * N_TYPES
        hand[card] += 1
        hand[t] += 1
        if card not in legal_cards(hand, trick, trump):
            out.add(t)
    return out


def start_knowledge(deal: Deal, drawer: int, face_up: int) -> None:
    """What the table knows when phase 2 starts: no type excluded (phase 1 is free play); per
    seat its public copies (:func:`known_copies`), and for ``drawer`` the talon's face-up last
    card it drew."""
    players = deal.rules.players
    deal.excluded = [set() for _ in range(players)]
    deal.known = [[known_copies(deal, s, t) for t in range(N_TYPES)] for s in range(players)]
    deal.known[drawer][face_up] += 1


def play_card(deal: Deal, card: int) -> None:
    """The seat to play plays ``card``; a fresh copy of the type the swap's taker took ends the
    public knowledge of it. In phase 2 (knowledge kept) the card excludes what it shows the seat
    cannot hold (:func:`excluded_by`) and takes one known copy of its type off the seat."""
    seat = deal.seat()
    if deal.took == (seat, card) and deal.hands[seat][card][0] == 0:
        deal.took = (-1, -1)
    if deal.known is not None:
        deal.excluded[seat] |= excluded_by(card, deal.trick, deal.trump)
        deal.known[seat][card] = max(deal.known[seat][card] - 1, 0)
    remove_copy(deal.hands[seat], card)
    deal.played[card] += 1
    deal.trick.append(card)


def end_trick(deal: Deal, declare) -> dict:
    """Score the full trick; in phase 1 the winner declares (``declare(deal, winner)`` returns a
    declaration or None) and everybody draws. Returns the trick's record."""
    rules = deal.rules
    winner = (deal.leader + trick_winner(deal.trick, deal.trump)) % rules.players
    deal.card_points[winner] += sum(rules.rank_points[type_rank(t)] for t in deal.trick)
    declaration, draws = None, []
    if deal.k < deal.phase1:
        decl = declare(deal, winner)
        if decl is not None:
            taken = deal.took[1] if deal.took[0] == winner else -1
            before = served_count(deal, winner, taken) if taken >= 0 else 0
            apply_declaration(deal.hands[winner], rules, decl)
            if taken >= 0 and served_count(deal, winner, taken) > before:
                deal.took = (-1, -1)  # a fresh copy of it served: perhaps the taken one
            declaration = declaration_record(rules, decl)
            deal.meld_points[winner] += declaration["points"]
            if decl.swap:
                nine = swap_card(rules, deal.trump)
                remove_copy(deal.hands[winner], nine)
                deal.took = (winner, deal.talon[-1])
                add_copy(deal.hands[winner], deal.talon[-1])
                deal.talon[-1] = nine
        for j in range(rules.players):
            card = deal.talon.pop(0)
            add_copy(deal.hands[(winner + j) % rules.players], card)
            draws.append(format_card(card))
            if not deal.talon and deal.track:  # the face-up card drawn: phase 2 starts
                start_knowledge(deal, (winner + j) % rules.players, card)
    record = {"leader": deal.leader, "cards": [format_card(t) for t in deal.trick],
              "winner": winner, "declaration": declaration, "draws": draws}
    deal.trick = []
    deal.leader = winner
    deal.k += 1
    if deal.k == deal.phase1 + rules.hand_size:
        deal.card_points[winner] += rules.last_trick
    return record


def heuristic_declare(deal: Deal, winner: int):
    decl, _ = best_declaration(deal.rules, deal.hands[winner], deal.trump)
    card9 = swap_card(deal.rules, deal.trump)
    if decl is not None and deal.rules.melds[decl.meld].name == deal.rules.swap_meld \
            and card9 >= 0 and deal.talon[-1] != card9:
        decl = decl._replace(swap=True)
    return decl


def random_declare(pick):
    def declare(deal: Deal, winner: int):
        card9 = swap_card(deal.rules, deal.trump)
        choices = legal_declarations(deal.rules, deal.hands[winner], deal.trump,
                                     card9 >= 0 and deal.talon[-1] != card9)
        return choices[pick(len(choices))] if len(choices) >= 2 else None
    return declare


def play_on(deal: Deal, stop: int | None = None) -> None:
    """Play the deal to its end (or up to trick ``stop``) with the heuristic on every seat."""
    total = deal.phase1 + deal.rules.hand_size if stop is None else stop
    while deal.k < total:
        while len(deal.trick) < deal.rules.players:
            play_card(deal, heuristic_choice(deal))
        end_trick(deal, heuristic_declare)


# --- the sampling policy's phase-1 card (kernels/talon/sampling.py) -------------------------------

def served_count(deal: Deal, seat: int, t: int) -> int:
    """Copies of ``t`` held by ``seat`` that have served a declaration (public)."""
    return sum(1 for record in deal.hands[seat][t] if record != 0)


def known_copies(deal: Deal, seat: int, t: int) -> int:
    """Copies of ``t`` everybody knows ``seat`` holds: those that served a declaration, and the
    turned card taken with the swap until he plays that type from no served copy or a fresh copy
    of it serves a declaration (:func:`play_card`, :func:`end_trick`)."""
    return served_count(deal, seat, t) + (1 if deal.took == (seat, t) else 0)


def side_size(rules: Rules) -> int:
    """The seats of a side: two with the variant's partnerships, else one."""
    return len(rules.partnerships[0]) if rules.partnerships else 1


def side_value(deal: Deal, seat: int) -> int:
    """What a sampling seat maximises (``kernels/strict/sampling.py`` side_value): its side's
    points (card and meld, as ``deal`` counts them) times the number of other sides, less the
    other sides' points. The sides are the variant's partnerships, or without them the seats."""
    rules = deal.rules
    sides = [set(pair) for pair in rules.partnerships] if rules.partnerships else \
        [{s} for s in range(rules.players)]
    points = [sum(deal.card_points[s] + deal.meld_points[s] for s in side) for side in sides]
    own = next(i for i, side in enumerate(sides) if seat in side)
    return (len(sides) - 1) * points[own] - sum(points[i] for i in range(len(sides)) if i != own)


def _solved_value(sample: Deal, seat: int, mine: int, rest: int) -> int:
    """:func:`side_value` of a solved ending from the trick in play: ``mine`` of the ``rest``
    to the seat (for its side), the others to the seat after it (the other side)."""
    scored = clone(sample)
    scored.card_points = [0] * sample.rules.players
    scored.card_points[seat] += mine
    scored.card_points[(seat + 1) % sample.rules.players] += rest - mine
    return side_value(scored, seat)


def clone(deal: Deal) -> Deal:
    """A deep copy of the deal (its rules shared): every list and set copied, the hands down to
    each type's list of copies."""
    return replace(deal, hands=[[list(copies) for copies in hand] for hand in deal.hands],
                   talon=list(deal.talon), trick=list(deal.trick), played=list(deal.played),
                   card_points=list(deal.card_points), meld_points=list(deal.meld_points),
                   excluded=None if deal.excluded is None else [set(e) for e in deal.excluded],
                   known=None if deal.known is None else [list(k) for k in deal.known])


def sampling_choice(deal: Deal, n_samples: int, stream: Stream) -> int:
    """The sampling seat's phase-1 card: ``n_samples`` uniform shuffles of what it cannot see,
    every legal type still in the race (:func:`race_survivors` with the side's
    :func:`race_zone`: a look every ``RACE_EVERY`` samples; one left ends the decision) played
    out by the heuristic on each, the best total of
    :func:`side_value`, the lowest type on a tie. Draws from ``stream`` as the kernel does: per
    sample one Fisher-Yates pass over the pool as the previous sample left it, whose first
    cards go to the other seats' unknown cards (seats in order from the seat's left), the rest
    to the hidden talon in draw order."""
    rules, seat = deal.rules, deal.seat()
    players = rules.players
    legal = sorted(deal.legal())
    if len(legal) == 1:
        return legal[0]
    others = [(seat + g) % players for g in range(1, players)]
    mine = hand_counts(deal.hands[seat])
    known = {s: [known_copies(deal, s, t) for t in range(N_TYPES)] for s in others}
    pool = []
    for t in range(N_TYPES):
        left = rules.copies - mine[t] - deal.played[t] - sum(known[s][t] for s in others) \
            - (deal.talon[-1] == t)
        pool += [t] * left
    hidden = {s: sum(hand_counts(deal.hands[s])) - sum(known[s]) for s in others}
    assert min(hidden.values()) >= 0
    assert sum(hidden.values()) + len(deal.talon) - 1 == len(pool)
    values: dict[int, list[int]] = {t: [] for t in legal}
    alive = legal
    zone = race_zone(side_size(rules))
    for _ in range(n_samples):
        for j in range(len(pool) - 1):
            r = stream.bounded(stream.next_u64() >> 32, len(pool) - j)
            pool[j], pool[j + r] = pool[j + r], pool[j]
        sample = clone(deal)
        sample.track, sample.excluded, sample.known = False, None, None
        j = 0
        for s in others:
            hand = [[r for r in deal.hands[s][t] if r != 0] for t in range(N_TYPES)]
            if deal.took[0] == s:
                hand[deal.took[1]].append(0)
            for t in pool[j:j + hidden[s]]:
                hand[t].append(0)
            j += hidden[s]
            sample.hands[s] = hand
        sample.talon = pool[j:] + [deal.talon[-1]]
        for card in alive:
            trial = clone(sample)
            play_card(trial, card)
            if len(trial.trick) == players:
                end_trick(trial, heuristic_declare)
            play_on(trial)
            values[card].append(side_value(trial, seat))
        alive = race_survivors(alive, values, n_samples, zone)
        if len(alive) == 1:
            break
    return race_leader(alive, values)


# --- the sampling policy's phase-2 card, three and four players (kernels/strict/tricks.py) -------

def strict_view(deal: Deal, seat: int, inference: str = "full"
                ) -> tuple[list[int], list[int], list[int], list[int]]:
    """What ``seat`` cannot see in phase 2, for the sampler: ``(others, pool, allowed,
    capacity)``: the other seats in order from its left; per type the copies neither in its
    hand, nor played, nor known to be in another seat's; per other seat the mask of the types it
    may hold (every type when ``inference`` ignores the excluded ones:
    ``reference.core.inferring``, no declarer here) and the number of its cards not known.
    Reads of the other hands only their sizes."""
    rules = deal.rules
    others = [(seat + g) % rules.players for g in range(1, rules.players)]
    mine = hand_counts(deal.hands[seat])
    pool = [rules.copies - mine[t] - deal.played[t] - sum(deal.known[s][t] for s in others)
            for t in range(N_TYPES)]
    if min(pool) < 0:
        raise ValueError("sampling policy: the known cards do not add up")
    excluded = deal.excluded if inferring(inference, seat, -1) else [set()] * rules.players
    allowed = [sum(1 << t for t in range(N_TYPES) if t not in excluded[s]) for s in others]
    capacity = [sum(hand_counts(deal.hands[s])) - sum(deal.known[s]) for s in others]
    return others, pool, allowed, capacity


def strict_sampling_choice(deal: Deal, n_samples: int, stream: Stream,
                           inference: str = "full", exact: int = 0) -> int:
    """The sampling seat's card in a phase-2 trick of three or four players: ``n_samples``
    deals of what it cannot see by the constrained sampler's twin (known copies placed, the rest
    only to seats not excluded from their type; one 53-bit draw per type with copies to place),
    every legal type played on each and the deal finished by the heuristic (with ``exact``
    above 0: until ``exact`` tricks are left, solved by plain minimax for the seat's side,
    :func:`binokel_sim.reference.endgame.value`; within them every card valued so,
    :func:`~binokel_sim.reference.endgame.move_values`); the best total of
    :func:`side_value` over the points from this trick on (the last trick's bonus included) among
    the types still in the race (:func:`race_survivors`, as in phase 1), the lowest type on a
    tie. A single legal type is played without sampling."""
    rules, seat = deal.rules, deal.seat()
    total = deal.phase1 + rules.hand_size
    card_points = [rules.rank_points[type_rank(t)] for t in range(N_TYPES)]
    ours = next((set(pair) for pair in rules.partnerships if seat in pair), {seat}) \
        if rules.partnerships else {seat}
    legal = sorted(deal.legal())
    if len(legal) == 1:
        return legal[0]
    others, pool, allowed, capacity = strict_view(deal, seat, inference)
    memo: dict = {}
    if sum(pool) != sum(capacity) or ways_from(0, tuple(capacity), pool, allowed, memo) == 0:
        raise ValueError("sampling policy: no deal fits what the table knows")
    values: dict[int, list[int]] = {t: [] for t in legal}
    alive = legal
    zone = race_zone(side_size(rules))
    for _ in range(n_samples):
        split = sample_counts(pool, allowed, capacity, stream, memo)
        sample = clone(deal)
        sample.track, sample.excluded, sample.known = False, None, None
        sample.card_points = [0] * rules.players
        sample.meld_points = [0] * rules.players
        for g, s in enumerate(others):
            sample.hands[s] = fresh_hand([split[g][t] + deal.known[s][t] for t in range(N_TYPES)])
        if exact and total - deal.k <= exact:
            held = [hand_counts(h) for h in sample.hands]
            after = endgame.move_values(held, sample.leader, list(sample.trick), sample.trump,
                                        card_points, rules.last_trick, ours)
            rest = sum(card_points[t] for t in sample.trick) + rules.last_trick + sum(
                card_points[t] * n for h in held for t, n in enumerate(h))
            for card in alive:
                values[card].append(_solved_value(sample, seat, after[card], rest))
            alive = race_survivors(alive, values, n_samples, zone)
            if len(alive) == 1:
                break
            continue
        for card in alive:
            trial = clone(sample)
            play_card(trial, card)
            while len(trial.trick) < rules.players:
                play_card(trial, heuristic_choice(trial))
            end_trick(trial, heuristic_declare)
            play_on(trial, max(deal.k + 1, total - exact) if exact else None)
            if trial.k < total:
                held = [hand_counts(h) for h in trial.hands]
                mine = endgame.value(held, trial.leader, [], trial.trump, card_points,
                                     rules.last_trick, ours)
                rest = rules.last_trick + sum(card_points[t] * n for h in held
                                              for t, n in enumerate(h))
                trial.card_points[seat] += mine
                trial.card_points[(seat + 1) % rules.players] += rest - mine
            values[card].append(side_value(trial, seat))
        alive = race_survivors(alive, values, n_samples, zone)
        if len(alive) == 1:
            break
    return race_leader(alive, values)


# --- whole deals ------------------------------------------------------------------------------

def new_deal(rules: Rules, counts: list[list[int]], talon: list[int], dealer: int,
             track: bool = False) -> Deal:
    """A deal as dealt (``counts`` per seat, ``talon`` its last card the turned card), the
    seat after ``dealer`` to lead, the turned card's bonus given to the dealer."""
    turned = talon[-1]
    deal = Deal(rules, [fresh_hand(h) for h in counts], list(talon), type_suit(turned),
                (dealer + 1) % rules.players, card_points=[0] * rules.players,
                meld_points=[0] * rules.players, track=track)
    if rules.turned_bonus_rank >= 0 and type_rank(turned) == rules.turned_bonus_rank:
        deal.meld_points[dealer] += rules.turned_bonus
    return deal


def choose_card(deal: Deal, policy: str, pick, n_samples: int, stream: Stream,
                inference: str = "full", exact: int = 0) -> int:
    """The card of the seat to play by ``policy``: ``random`` (one draw when two or more types
    are legal), ``heuristic``, or ``sampling`` (phase 1; phase 2 of three or four players, its
    deals respecting the play's inferences as ``inference`` says)."""
    legal = sorted(deal.legal())
    if policy == "random":
        return legal[pick(len(legal))] if len(legal) >= 2 else legal[0]
    if policy == "sampling" and deal.k < deal.phase1:
        return sampling_choice(deal, n_samples, stream)
    if policy == "sampling" and deal.rules.players > 2:
        return strict_sampling_choice(deal, n_samples, stream, inference, exact)
    return heuristic_choice(deal, expert=policy == "expert")


def play_deals(rules: Rules, policies: list[str], n_deals: int, seed: int, block_size: int,
               n_samples: int = 1, inference: str = "full", exact: int = 0) -> list[dict]:
    """Deals ``0 .. n_deals - 1`` (dealer ``d % players``) with ``policies[seat]`` on each seat,
    from the kernel's streams: records as :mod:`binokel_sim.records.talon` makes them (``deal``
    and the tricks; with a ``sampling`` seat of two players only phase 1's tricks)."""
    records = []
    sampling = "sampling" in policies
    for d, stream, work in block_streams(deck_cards(rules), n_deals, seed, block_size, 0):
        counts, talon = deal_talon_game(rules, work, stream)
        pick = stream_pick(stream)
        deal = new_deal(rules, counts, talon, d % rules.players, track=sampling)
        total = deal.phase1 if sampling and rules.players == 2 else deal.phase1 + rules.hand_size
        tricks = []
        while deal.k < total:
            while len(deal.trick) < rules.players:
                play_card(deal, choose_card(deal, policies[deal.seat()], pick, n_samples, stream,
                                            inference, exact))
            winner = (deal.leader + trick_winner(deal.trick, deal.trump)) % rules.players
            declare = random_declare(pick) if policies[winner] == "random" else \
                heuristic_declare
            tricks.append(end_trick(deal, declare))
        records.append({"deal": d, "hands": [format_counts(h) for h in counts],
                        "trump": SUITS[deal.trump], "tricks": tricks,
                        "card_points": deal.card_points, "meld_points": deal.meld_points})
    return records
