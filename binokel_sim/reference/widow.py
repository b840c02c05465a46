"""Slow, obvious pure-Python twin of the widow-game kernel (``kernels/widow/deals.py``).

For tests: whole deals of the widow games (``three-hand-auction-48``, ``four-hand-widow-48``, and
any rules file with a widow) with the random policy on every seat, or the heuristic on some
(its decisions are :mod:`binokel_sim.reference.widow_policy`'s), written the way SPEC.md
("Common to all variants", "Variant three-hand-auction-48", "Variant four-hand-widow-48") and
docs/rules.md ("Widow games") state them. No bit tricks and no numba: a hand is a list of 24
counts (copies held of each card type), a trick is a list of card types in play order.

The random choices are made by a ``pick(n)`` callable returning an integer in ``[0, n)``, called
only when there are at least two options, in the order the decisions are taken: the calls of the
auction (pass or the smallest bid above the current one), the soloist's demand ("no demand" or a
card type he holds no copy of), the card he gives back (only after a demand), his ``widow``
burials one by one, the trump (one draw of 4), then the cards of the play trick by trick. Every
list of options is in ascending card-type order. :func:`binokel_sim.reference.play.stream_pick`
makes such a callable from the deal's :class:`binokel_sim.reference.core.Stream`, which continues
after the shuffle, so a kernel deal and a reference deal with the same seed and block must agree
call for call and card for card.
"""

from __future__ import annotations

from typing import NamedTuple

from binokel_sim.cards import (
    N_SUITS,
    N_TYPES,
    SUITS,
    format_card,
    format_counts,
)
from binokel_sim.constants import DURCH_FIRST, DURCH_SALT, NO_TRUMP
from binokel_sim.reference import widow_policy as policy
from binokel_sim.reference import widow_sampling as sampling
from binokel_sim.reference.core import (
    M64,
    Stream,
    block_streams,
    deal_hand,
    deck_cards,
    meld_total,
    splitmix64,
)
from binokel_sim.reference.play import (
    Pick,
    legal_cards,
    next_bid,
    stream_pick,
    trick_winner,
)
from binokel_sim.reference.widow_score import (
    Trick,
    card_points_of,
    score_bettel,
    score_conceded,
    score_deal,
    score_durch,
    side_of,
    trick_card_points,
)
from binokel_sim.variants import Rules
from binokel_sim.widow_value import NEVER

RANDOM, HEURISTIC, SAMPLING, EXPERT = "random", "heuristic", "sampling", "expert"
TOP = "top"  # the Durch soloist's card play (widow_policy.durch_card), seated by play_deal
BOTTOM = "bottom"  # the Bettel soloist's (widow_policy.bettel_card)


def choose(options: list, pick: Pick):
    """The random policy's choice: ``options[pick(n)]``, without a draw when there is only one
    option (docs/rules.md "Widow games", "Policies": one bounded draw for ``n >= 2`` options)."""
    if len(options) > 1:
        return options[pick(len(options))]
    return options[0]


def held_types(hand: list[int]) -> list[int]:
    """The distinct card types of a hand, ascending."""
    return [t for t in range(N_TYPES) if hand[t] > 0]


# --- the deal -------------------------------------------------------------------------------------

def deal_widow_game(rules: Rules, work: list[int],
                    stream: Stream) -> tuple[list[list[int]], list[int]]:
    """The deal (docs/rules.md "Widow games", "The deal"): one partial Fisher-Yates over positions
    ``0 .. N-2`` of the block's carried permutation ``work``; seat ``s`` gets positions
    ``s*H .. s*H+H-1``, the widow is positions ``P*H .. N-1``. Returns the hands and the widow as
    counts per card type."""
    n = len(work)
    deal_hand(work, 0, n - 1, stream)
    size, players = rules.hand_size, rules.players
    hands = []
    for s in range(players):
        counts = [0] * N_TYPES
        for t in work[s * size:(s + 1) * size]:
            counts[t] += 1
        hands.append(counts)
    widow = [0] * N_TYPES
    for t in work[players * size:n]:
        widow[t] += 1
    return hands, widow


# --- the auction ----------------------------------------------------------------------------------

def auction(rules: Rules, dealer: int, pick: Pick, limits: list[int | None] | None = None,
            reserve: list[policy.Reserve | None] | None = None
            ) -> tuple[int, int, list[tuple[int, int | None]]]:
    """The auction (SPEC three-hand-auction-48; docs/rules.md "Widow games", "The auction") with
    the random policy on every seat: starting at seat ``dealer + 1``, the players still in take
    turns; each call is a pass (option 0, final) or the smallest ladder bid above the current one
    (option 1), one draw of 2. The auction ends as soon as one player is left; he makes no call.
    If nobody bid, the dealer is the soloist at the minimum bid; with ``all_pass =
    "vorhand_opens"`` the first call (Vorhand's) is never a pass (a pass drawn becomes the
    minimum bid). A seat with a limit in
    ``limits`` (the heuristic's) bids while the smallest bid is within it and reads no draw;
    one with a ``reserve`` (an expert's knobs ``bid_open`` and ``bid_partner``) passes besides
    where :func:`~binokel_sim.reference.widow_policy.holds_back` says.

    Returns ``(soloist, bid, calls)``, calls as ``(seat, bid or None for a pass)`` in order.
    Under ``order = "skat"``: :func:`skat_auction`.
    """
    if rules.bid_order == "skat":
        return skat_auction(rules, dealer, pick, limits, reserve)
    players = rules.players
    still_in = [True] * players
    calls: list[tuple[int, int | None]] = []
    current, holder = None, None
    seat = (dealer + 1) % players
    while sum(still_in) > 1:
        if still_in[seat]:
            # whoever holds the bid never gets a turn: all the others would have passed since
            assert seat != holder
            offer = next_bid(rules.bid_ladder, current)
            limit = None if limits is None else limits[seat]
            held = None if reserve is None else reserve[seat]
            call = choose([None, offer], pick) if limit is None else (
                offer if policy.willing(rules, limit, held, seat, offer, len(calls) < players,
                                        holder, still_in) else None)
            if call is None and not calls and rules.all_pass == "vorhand_opens":
                call = offer  # Vorhand, the first to call, may not pass: he opens
            if call is None:
                still_in[seat] = False
                calls.append((seat, None))
            else:
                current, holder = offer, seat
                calls.append((seat, offer))
        seat = (seat + 1) % players
    last = still_in.index(True)
    if holder is None:
        # all the others passed in the first round before anyone bid: the dealer, who calls last
        # in that round, is the one left ("the dealer is the soloist at the minimum bid")
        assert last == dealer, (last, dealer)
        return dealer, rules.bid_ladder[0][0], calls
    assert last == holder, (last, holder)  # the soloist is the last one in
    return holder, current, calls


def skat_auction(rules: Rules, dealer: int, pick: Pick, limits: list[int | None] | None = None,
                 reserve: list[policy.Reserve | None] | None = None
                 ) -> tuple[int, int, list[tuple[int, int | None]]]:
    """The auction Skat-style (``[bidding] order = "skat"``, SPEC "Today's practice";
    docs/rules.md "Widow games", "The auction"), as :func:`auction` returns it. Vorhand (the
    dealer's left) listens; the next seat says bids to him, each the smallest bid above the
    current one, and he holds each (a call of the same value) or passes; the one of them who
    did not pass then listens to the next seat, and so on, the dealer saying last. A pass is
    final. When nobody said a bid, Vorhand calls last: the minimum or pass (never a pass under
    ``all_pass = "vorhand_opens"``); if he passes too, the all-pass rule decides as in
    :func:`auction` (the dealer at the minimum, or a void deal). Every call, a say or a hold,
    is one draw of 2 for a random seat (pass first) and :func:`policy.willing` for one with a
    limit (its first call: its first in the auction; the standing bid's holder: the one who
    said it, when holding)."""
    players = rules.players
    still_in = [True] * players
    calls: list[tuple[int, int | None]] = []
    current, holder = None, None

    def call(seat: int, offer: int, first: bool) -> bool:
        limit = None if limits is None else limits[seat]
        held = None if reserve is None else reserve[seat]
        if limit is None:
            return choose([False, True], pick)
        return policy.willing(rules, limit, held, seat, offer, first, holder, still_in)

    def first(seat: int) -> bool:
        return all(s != seat for s, _ in calls)

    vorhand = (dealer + 1) % players
    hearer = vorhand
    for i in range(1, players):
        sayer = (vorhand + i) % players
        while True:
            offer = next_bid(rules.bid_ladder, current)
            says = call(sayer, offer, first(sayer))
            calls.append((sayer, offer if says else None))
            if not says:
                still_in[sayer] = False
                break
            current, holder = offer, sayer
            holds = call(hearer, offer, first(hearer))
            calls.append((hearer, offer if holds else None))
            if not holds:
                still_in[hearer] = False
                hearer = sayer
                break
            holder = hearer
    if holder is None:  # nobody said a bid: Vorhand calls the minimum or passes
        offer = rules.bid_ladder[0][0]
        opens = call(vorhand, offer, True) or rules.all_pass == "vorhand_opens"
        calls.append((vorhand, offer if opens else None))
        if not opens:
            return dealer, offer, calls
        return vorhand, offer, calls
    return holder, current, calls


def bidders(rules: Rules, hands: list[list[int]], policies: list[str]
            ) -> tuple[list[int | None], list[policy.Reserve | None]]:
    """Per seat its bid limit (None for a random seat; an expert's read with its knob
    ``bid_shift``) and its :class:`~binokel_sim.reference.widow_policy.Reserve` (an expert's
    only), from its hand in ``hands``."""
    expert = policy.expert_knobs(rules) if EXPERT in policies else policy.HEURISTIC_KNOBS
    limits = [None if p == RANDOM else policy.bid_limit(rules, h, expert["bid_shift"]
                                                        if p == EXPERT else 0)
              for h, p in zip(hands, policies)]
    reserves = [policy.reserve(rules, h, expert) if p == EXPERT else None
                for h, p in zip(hands, policies)]
    return limits, reserves


def fits_auction(rules: Rules, hands: list[list[int]], policies: list[str],
                 calls: list[tuple[int, int | None]]) -> bool:
    """Whether seats 1.. holding ``hands[1..]`` would have made their ``calls`` (``(seat, bid or
    None for a pass)`` in order; seat 0's are the hand's own and not checked) under
    ``policies``, as :func:`auction` makes them: a seat with a bid limit passes where the offer
    is above its limit or its reserve holds it back, and bids the offer otherwise; a jump reads
    as willing at the offer with a limit at least the jump; Vorhand's forced opening at the
    minimum tells nothing; a random seat's calls say nothing of its hand (``bid-odds
    --auction``)."""
    limits, reserves = bidders(rules, hands, policies)
    players = rules.players
    still_in = [True] * players
    current, holder = None, None
    skat = rules.bid_order == "skat"
    # Skat-style: Vorhand, the seat before the first to call, listens first; a call right
    # after a bid said is the listener's hold (the same value) or pass
    vorhand = (calls[0][0] - 1) % players if calls else 0
    holding = False
    for k, (seat, bid) in enumerate(calls):
        if seat > 0 and policies[seat] != RANDOM:
            limit = limits[seat]
            offer = current if holding else next_bid(rules.bid_ladder, current)
            first = all(s != seat for s, _ in calls[:k]) if skat else k < players
            bids = policy.willing(rules, limit, reserves[seat], seat, offer, first, holder,
                                  still_in)
            opens = seat == vorhand if skat else k == 0
            forced = (opens and current is None and rules.all_pass == "vorhand_opens"
                      and bid == offer)
            if bid is None and bids:
                return False
            if bid is not None and not forced and not (bids and limit >= bid):
                return False
        if bid is None:
            still_in[seat] = False
        else:
            current, holder = bid, seat
        holding = skat and not holding and bid is not None
    return True


# --- the widow, the demand, burying and trump -----------------------------------------------------

def demand_options(rules: Rules, cards: list[int]) -> list[int | None]:
    """The demand choices of the soloist holding ``cards`` (hand + widow), docs/rules.md "The
    widow, the demand, burying and trump", step 2: ``None`` (no demand, option 0), then every card
    type of the deck he holds no copy of, ascending; only ``None`` where the rules have no
    demand."""
    if not rules.widow_demand:  # [widow] demand = false: no demand, no draw
        return [None]
    deck = rules.deck_counts()
    return [None] + [t for t in range(N_TYPES) if deck[t] > 0 and cards[t] == 0]


def demand_holder(rules: Rules, hands: list[list[int]], soloist: int, card: int) -> int:
    """The seat that hands the demanded card over: the first seat clockwise from the soloist,
    ``(soloist + j) % P`` for ``j = 1 ..``, holding a copy (the partner included; SPEC
    three-hand-auction-48, "The card demand may be answered by any other seat")."""
    for j in range(1, rules.players):
        seat = (soloist + j) % rules.players
        if hands[seat][card] > 0:
            return seat
    raise AssertionError(f"nobody holds the demanded {format_card(card)}")


def give_back_options(cards: list[int], demanded: int) -> list[int]:
    """The cards the soloist may give back (step 2): the distinct card types in his hand after
    the demanded copy arrived, other than the demanded type, ascending."""
    return [t for t in held_types(cards) if t != demanded]


def bury(rules: Rules, cards: list[int], pick: Pick) -> list[int]:
    """Step 3: the soloist buries ``rules.widow`` cards, one at a time, each uniform over the
    distinct card types he holds (ascending). Removes them from ``cards``; returns the buried
    cards as counts per card type."""
    buried = [0] * N_TYPES
    for _ in range(rules.widow):
        t = choose(held_types(cards), pick)
        cards[t] -= 1
        buried[t] += 1
    return buried


def choose_trump(pick: Pick) -> int:
    """Step 4: the soloist names any suit, uniform over S H D C (always one draw of 4)."""
    return choose(list(range(N_SUITS)), pick)


class WidowHandling(NamedTuple):
    """The soloist's widow handling: the demand (``None`` or ``(card, from seat, card given
    back)``), the buried cards (counts per card type) and the trump suit."""

    demand: tuple[int, int, int] | None
    buried: list[int]
    trump: int


def handle_widow(rules: Rules, hands: list[list[int]], widow: list[int], soloist: int,
                 pick: Pick, heuristic: bool = False, aces_last: bool = False,
                 void: int = 0) -> WidowHandling:
    """Steps 1-4 of docs/rules.md "The widow, the demand, burying and trump", random policy:
    the soloist takes the widow, may demand a card (its holder gets a card of the soloist's
    choice back), buries ``rules.widow`` cards and names trump. ``hands`` is changed in place
    (every seat ends with ``rules.hand_size`` cards). A ``heuristic`` soloist decides as
    :mod:`binokel_sim.reference.widow_policy` says, naming trump before he buries (his side
    aces last with ``aces_last``, a short side suit first with ``void``: the expert's knobs
    ``bury_aces_last`` and ``bury_void``)."""
    own = hands[soloist]
    for t in range(N_TYPES):
        own[t] += widow[t]  # 1. the widow joins the hand
    if heuristic:
        return heuristic_widow(rules, hands, soloist, aces_last, void)
    demand = None
    card = choose(demand_options(rules, own), pick)  # 2. the demand
    if card is not None:
        holder = demand_holder(rules, hands, soloist, card)
        hands[holder][card] -= 1
        own[card] += 1
        given = choose(give_back_options(own, card), pick)
        own[given] -= 1
        hands[holder][given] += 1
        demand = (card, holder, given)
    buried = bury(rules, own, pick)  # 3. burying
    trump = choose_trump(pick)  # 4. trump
    return WidowHandling(demand, buried, trump)


def heuristic_widow(rules: Rules, hands: list[list[int]], soloist: int,
                    aces_last: bool = False, void: int = 0) -> WidowHandling:
    """Steps 2-4 for a heuristic soloist (the widow already in his hand): the demand and the
    card given back, the trump, then the burials one by one."""
    own = hands[soloist]
    demand = None
    card = policy.demand(rules, own)
    if card is not None:
        holder = demand_holder(rules, hands, soloist, card)
        hands[holder][card] -= 1
        own[card] += 1
        given = policy.give_back(rules, own, card)
        own[given] -= 1
        hands[holder][given] += 1
        demand = (card, holder, given)
    trump = policy.trump(rules, own)
    buried = [0] * N_TYPES
    for _ in range(rules.widow):
        t = policy.burial(rules, own, trump, aces_last, void)
        own[t] -= 1
        buried[t] += 1
    return WidowHandling(demand, buried, trump)


# --- play -----------------------------------------------------------------------------------------

def play_tricks(rules: Rules, hands: list[list[int]], leader: int, trump: int,
                pick: Pick, policies: list[str] | None = None, table=None, n_samples: int = 0,
                stream: Stream | None = None, soloist: int = -1) -> list[Trick]:
    """Every trick under the must-head obligation (SPEC "Must-head obligation", strict on every
    trick): each seat in turn ``(leader + i) % P`` plays, by the random policy, one of the
    distinct legal card types, ascending, by the heuristic its card
    (:func:`binokel_sim.reference.widow_policy.card`), or by the sampling policy
    (:func:`binokel_sim.reference.widow_sampling.sampling_card`, with ``table`` what the table
    knows, which every card then updates, ``n_samples`` deals a decision drawn from
    ``stream``). The trick winner leads the next. ``hands`` is consumed. The card types the deck
    lacks (the nines of a 40-card deck) count as played from the start."""
    players = rules.players
    tricks = []
    deck = rules.deck_counts()
    played = [rules.copies - int(deck[t]) for t in range(N_TYPES)]
    for _ in range(rules.hand_size):
        cards: list[int] = []
        for i in range(players):
            seat = (leader + i) % players
            if policies is not None and policies[seat] == TOP:
                card = policy.durch_card(legal_cards(hands[seat], cards, trump))
            elif policies is not None and policies[seat] == BOTTOM:
                card = policy.bettel_card(legal_cards(hands[seat], cards, trump))
            elif policies is not None and policies[seat] in (HEURISTIC, EXPERT):
                card = policy.card(rules, hands[seat], cards, leader, played, trump,
                                   policies[seat] == EXPERT, soloist)
            elif policies is not None and policies[seat] == SAMPLING:
                card = sampling.sampling_card(table, hands, seat, cards, leader, played,
                                              n_samples, stream)
            else:
                card = choose(legal_cards(hands[seat], cards, trump), pick)
            if table is not None:
                sampling.note_card(table, seat, card, cards)
            hands[seat][card] -= 1
            cards.append(card)
        for card in cards:
            played[card] += 1
        winner = (leader + trick_winner(cards, trump)) % players
        tricks.append(Trick(leader, cards, winner))
        if table is not None:
            table.tricks.append(tricks[-1])
        leader = winner
    return tricks


def durch_playouts(rules: Rules, hands: list[list[int]], soloist: int, leader: int, worlds: int,
                   stream: Stream | None, misere: bool = False) -> tuple[int, int]:
    """``(wins, tried)``: of ``tried`` play-outs of a Durch by the soloist (at most ``worlds``;
    after ``DURCH_FIRST`` of them no more when at most half took every trick), how many his side
    won every trick of (docs/rules.md "Policies", *Durch*). Each deals the cards the other seats
    hold between them afresh to them (each its count) by a Fisher-Yates shuffle of their types
    in ascending order, on a stream of its own seeded from ``stream``'s state (which is left as
    it is), and plays without trump: the soloist his top card, every other seat the
    heuristic's. With ``misere``, of a Bettel: the soloist plays his bottom card, a play-out is
    won when he took no trick, and there is no early stop."""
    if stream is None:
        raise ValueError("a Durch's play-outs need the deal's stream")
    players = rules.players
    pool = [t for t in range(N_TYPES) for seat in range(players) if seat != soloist
            for _ in range(hands[seat][t])]
    x = splitmix64(stream.s[0] ^ stream.s[2] ^ DURCH_SALT)
    own = Stream(0, 0)
    own.s = [splitmix64((x + i) & M64) for i in range(4)]
    card = BOTTOM if misere else TOP
    seats = [card if seat == soloist else HEURISTIC for seat in range(players)]
    side = [seat for seat in range(players) if side_of(rules, seat) == side_of(rules, soloist)]
    wins = tried = 0
    for w in range(worlds):
        if not misere and w == DURCH_FIRST and 2 * wins <= DURCH_FIRST:
            break
        for i in range(len(pool) - 1, 0, -1):
            j = own.bounded(own.next_u64() >> 32, i + 1)
            pool[i], pool[j] = pool[j], pool[i]
        world, at = [], 0
        for seat in range(players):
            if seat == soloist:
                world.append(list(hands[seat]))
                continue
            size = sum(hands[seat])
            world.append([pool[at:at + size].count(t) for t in range(N_TYPES)])
            at += size
        tricks = play_tricks(rules, world, leader, NO_TRUMP, None, seats, soloist=soloist)
        if misere:
            wins += all(trick.winner != soloist for trick in tricks)
        else:
            wins += all(trick.winner in side for trick in tricks)
        tried += 1
    return wins, tried


# --- whole deals ----------------------------------------------------------------------------------

def play_deal(rules: Rules, hands: list[list[int]], widow: list[int], dealer: int,
              pick: Pick, sample: bool = False, policies: list[str] | None = None,
              stream: Stream | None = None, n_samples: int = 0, inference: str = "full") -> dict:
    """One widow-game deal from the given hands and widow (counts per card type, seat 0 first),
    with ``policies[seat]`` (``random``, ``heuristic``, ``expert``, which buries by its knob
    ``bury_aces_last`` and plays with its knobs, or ``sampling``, which decides the
    auction and the widow as the heuristic and plays its cards by ``n_samples`` deals a
    decision from ``stream``, the stream ``pick`` reads, respecting what the play excluded as
    ``inference`` says: ``reference.core.inferring``; default random on every seat). Returns
    the record of docs/rules.md "Widow games", "Records" without ``deal``: ``variant``,
    ``dealer``, ``hands``, ``widow``, ``bids``, ``soloist``, ``bid``, ``demand``, ``buried``,
    ``trump``, ``melds``, ``tricks``, ``card_points``, ``bonus``, ``made``, ``conceded``,
    ``durch``, ``bettel``, ``scores`` and, with partnerships, ``pair_scores`` (a sample also
    ``concede_from``, the smallest bid at which the soloist would give up, and ``sure_bettel``).

    Auction, widow handling (demand, give back, burying, trump), melds with that trump from each
    seat's cards after the exchange and burying, the soloist's Durch (no trump, no meld) or
    Abgehen (no tricks then, and no card points), else the play led by the soloist (by the player
    left of the dealer where ``rules.first_leader`` is ``non_dealer``), then scoring.
    A ``sample`` (bid odds of seat 0's hand) has no auction: seat 0 is the soloist at bid 0.
    """
    dealt = [[int(c) for c in h] for h in hands]
    widow = [int(c) for c in widow]
    policies = policies or [RANDOM] * rules.players
    expert = policy.expert_knobs(rules) if EXPERT in policies else policy.HEURISTIC_KNOBS
    limits, reserve = bidders(rules, dealt, policies)
    soloist, bid, calls = (0, 0, []) if sample else auction(rules, dealer, pick, limits, reserve)
    cards = [list(h) for h in dealt]
    knobs = expert if policies[soloist] == EXPERT else policy.HEURISTIC_KNOBS
    handling = handle_widow(rules, cards, widow, soloist, pick, policies[soloist] != RANDOM,
                            knobs["bury_aces_last"] != 0, knobs["bury_void"])
    assert all(sum(h) == rules.hand_size for h in cards)
    trump = handling.trump
    melds = [int(meld_total(rules, h, trump)) for h in cards]
    # Durch: a heuristic or sampling soloist declares a sure one worth more than counting; else
    # Abgehen: he gives up at a bid his estimate does not reach (a random one does neither); a
    # sample (no bid yet) is played out whatever he would do at the bid
    concede_at = NEVER
    durch = bettel = sure_misere = False
    if policies[soloist] != RANDOM:
        others = [sum(cards[seat][t] for seat in range(rules.players) if seat != soloist)
                  for t in range(N_TYPES)]
        leads = rules.first_leader != "non_dealer" or (dealer + 1) % rules.players == soloist
        leader = (dealer + 1) % rules.players if rules.first_leader == "non_dealer" else soloist
        durch = policy.declares_durch(
            rules, cards[soloist], others, leads, melds[soloist], trump, handling.buried,
            knobs["durch_worlds"],
            lambda worlds: durch_playouts(rules, cards, soloist, leader, worlds, stream))
        if rules.widow_bettel and not durch:  # a sample is counted: it notes a sure Bettel
            sure_misere = policy.sure_bettel(rules, cards[soloist], others, leads)
            bettel = not sample and policy.declares_bettel(
                rules, cards[soloist], others, leads, melds[soloist], trump, handling.buried, bid,
                knobs["durch_worlds"],
                lambda worlds: durch_playouts(rules, cards, soloist, leader, worlds, stream,
                                              misere=True))
        if not durch and not bettel:
            concede_at = policy.concede_from(rules, cards[soloist], trump, melds[soloist],
                                             handling.buried)
    if durch or bettel:  # no trump, and no meld counts
        melds = [0] * rules.players
    conceded = not sample and bid >= concede_at
    if conceded:
        # he names the trump that leaves the others the fewest trump marriages (what he saw)
        trump = policy.concede_trump(rules, cards[soloist], handling.buried)
        melds = [int(meld_total(rules, h, trump)) for h in cards]
        tricks: list[Trick] = []
        card_points = [0] * rules.players
        score = score_conceded(rules, soloist, bid, melds)
    else:
        table = None
        seats = list(policies)
        if durch or bettel:  # the soloist plays his top (bottom) card, a sampling seat the
            # heuristic's card
            own = TOP if durch else BOTTOM
            seats = [own if seat == soloist else (HEURISTIC if p == SAMPLING else p)
                     for seat, p in enumerate(policies)]
        elif SAMPLING in policies:
            table = sampling.start_table(rules, cards, soloist, bid, trump, melds, widow,
                                         handling.demand, handling.buried, inference)
        leader = (dealer + 1) % rules.players if rules.first_leader == "non_dealer" else soloist
        tricks = play_tricks(rules, cards, leader, NO_TRUMP if durch or bettel else trump, pick,
                             seats, table, n_samples, stream, soloist)
        assert not any(any(h) for h in cards)
        card_points = trick_card_points(rules, tricks)
        card_points[soloist] += card_points_of(rules, [t for t in range(N_TYPES)
                                                       for _ in range(handling.buried[t])])
        if durch:
            score = score_durch(rules, soloist, tricks)
        elif bettel:
            score = score_bettel(rules, soloist, bid, tricks)
        else:
            score = score_deal(rules, soloist, bid, melds, card_points, tricks)
    demand = None
    if handling.demand is not None:
        card, holder, given = handling.demand
        demand = {"card": format_card(card), "from": holder, "given": format_card(given)}
    record: dict = {
        "variant": rules.name,
        "dealer": dealer,
        "hands": [format_counts(h) for h in dealt],
        "widow": format_counts(widow),
        "bids": [{"seat": seat, "bid": value} for seat, value in calls],
        "soloist": soloist,
        "bid": bid,
        "demand": demand,
        "buried": format_counts(handling.buried),
        "trump": None if durch or bettel else SUITS[trump],
        "melds": melds,
        "tricks": [{"leader": t.leader, "cards": [format_card(c) for c in t.cards],
                    "winner": t.winner} for t in tricks],
        "card_points": card_points,
        "bonus": score.bonus,
        "made": score.made,
        "conceded": conceded,
        "durch": durch,
        "durch_open": durch and rules.durch_open,  # an open Durch pays more: always laid down
        "bettel": bettel,
        "scores": score.scores,
    }
    if rules.partnerships:
        record["pair_scores"] = [score.side_scores[0], score.side_scores[1]]
    if rules.all_pass == "redeal":
        # nobody bid: the deal was played as the dealer's at the minimum (the stream as without
        # the option) and is void: no contract, nothing counts
        redealt = not sample and all(value is None for _, value in calls)
        record["redealt"] = redealt
        if redealt:
            zeros = [0] * rules.players
            record.update(soloist=None, bid=None, demand=None, buried=[], trump=None,
                          melds=zeros, tricks=[], card_points=zeros, bonus=0, made=False,
                          conceded=False, durch=False, durch_open=False, bettel=False,
                          scores=zeros)
            if rules.partnerships:
                record["pair_scores"] = [0, 0]
    if sample:
        record["concede_from"] = concede_at
        record["sure_bettel"] = sure_misere
    return record


def play_deals(rules: Rules, n_deals: int, seed: int, block_size: int, first_block: int = 0,
               first_deal: int = 0, policies: list[str] | None = None,
               n_samples: int = 0, inference: str = "full") -> list[dict]:
    """Twin of the widow kernel with ``policies[seat]`` on each seat (default random on every
    seat): one record a deal (docs/rules.md "Widow games", "Records"); ``n_samples`` and
    ``inference`` as :func:`play_deal` takes them.

    Deal ``d`` (number ``first_deal + d``, dealer ``(first_deal + d) % players``) reads the stream
    of block ``first_block + d // block_size``, the deck permutation carried within a block; the
    stream continues from the shuffle into the random policy's draws.
    """
    records = []
    for d, stream, work in block_streams(deck_cards(rules), n_deals, seed, block_size, first_block):
        hands, widow = deal_widow_game(rules, work, stream)
        dealer = (first_deal + d) % rules.players
        record = play_deal(rules, hands, widow, dealer, stream_pick(stream), policies=policies,
                           stream=stream, n_samples=n_samples, inference=inference)
        records.append({"deal": first_deal + d, **record})
    return records
