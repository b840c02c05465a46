"""Slow, obvious pure-Python twin of the sixty-six kernel (``kernels/sixty_six/``).

Whole deals of sixty-six with the random, the heuristic or the sampling policy on each seat
(:func:`sampling_choice`, its play-outs :func:`rollout`), written the way
SPEC.md "Variant sixty-six" and docs/rules.md ("Sixty-six") state them, producing the records of
docs/rules.md "Sixty-six", "Records". No bit tricks and no numba: a hand is a set of card types,
the stock a list in draw order, a trick two card types (the leader's first).

The random choices are made by a ``pick(n)`` callable returning an integer in ``[0, n)``
(:func:`binokel_sim.reference.play.stream_pick` on the deal's stream, which continues after the
shuffle), called exactly where the kernel draws: a card when at least two are legal, a yes/no
decision with odds of one in ``n >= 2`` (:func:`one_in`). So a kernel deal and a twin deal with
the same seed and block agree card for card and decision for decision.

The policies' knobs are read by name from ``knobs`` (the kernel's ``SixtySixKnobs`` or any
object with its fields: ``random_exchange``, ``random_close``, ``random_announce``,
``random_claim``, ``close_margin``, ``take_at``).
"""

from __future__ import annotations

from binokel_sim.cards import (
    RANK_K,
    RANK_Q,
    SUITS,
    card_type,
    format_card,
    format_counts,
    type_rank,
    type_suit,
)
from binokel_sim.reference.core import Stream, block_streams, deal_hand, deck_cards
from binokel_sim.reference.play import Pick, stream_pick
from binokel_sim.variants import Rules

RANDOM, HEURISTIC, SAMPLING = 0, 1, 3  # the policy ids (kernels/policies.py)
HAND, STOCK = 6, 12


# --- the variant's numbers, read from the rules --------------------------------------------------

def card_points(rules: Rules, card: int) -> int:
    return rules.rank_points[type_rank(card)]


def marriage_points(rules: Rules, suit: int, trump: int) -> int:
    """A marriage's points: the ``per_set`` of the rules' K+Q meld of scope ``trump`` in trump,
    of scope ``non_trump`` elsewhere (SPEC: 20, in trump 40)."""
    scope = "trump" if suit == trump else "non_trump"
    for meld in rules.melds:
        if meld.scope == scope and sorted(meld.ranks) == [RANK_Q, RANK_K]:
            return meld.per_set
    raise ValueError(f"{rules.name}: no marriage of scope {scope}")


# --- the rules -----------------------------------------------------------------------------------

def beats(card: int, led: int, trump: int) -> bool:
    """The second card takes the trick: a higher card of the led suit, or a trump on another
    suit's lead."""
    if type_suit(card) == type_suit(led):
        return type_rank(card) > type_rank(led)
    return type_suit(card) == trump


def legal_follow(hand: set[int], led: int, trump: int, strict: bool) -> set[int]:
    """Open stock: any card. Closed or exhausted: follow suit and beat the lead if possible;
    with no card of the led suit, trump if possible; else any card."""
    if not strict:
        return set(hand)
    same = {c for c in hand if type_suit(c) == type_suit(led)}
    if same:
        return {c for c in same if type_rank(c) > type_rank(led)} or same
    trumps = {c for c in hand if type_suit(c) == trump}
    return trumps or set(hand)


def marriage_suits(hand: set[int]) -> list[int]:
    """The suits in which ``hand`` holds king and queen, ascending."""
    return [s for s in range(4) if card_type(RANK_K, s) in hand and card_type(RANK_Q, s) in hand]


def count(seat: dict) -> int:
    """Card points won, and the announced marriages once a trick is won."""
    return seat["card_points"] + (seat["marriages"] if seat["won"] else 0)


def one_in(n: int, pick: Pick) -> bool:
    """The random policy's yes: one chance in ``n``; 1 always, 0 never (no draw)."""
    if n <= 1:
        return n == 1
    return pick(n) == 0


def random_card(legal: set[int], pick: Pick) -> int:
    """Uniform among the legal card types in ascending order, one draw when two or more."""
    cards = sorted(legal)
    return cards[pick(len(cards))] if len(cards) > 1 else cards[0]


# --- the heuristic (docs/rules.md "Sixty-six", "Policies") ---------------------------------------

def lowest(cards) -> int:
    """The card of lowest rank, the lowest suit on a tie."""
    return min(cards, key=lambda c: (type_rank(c), type_suit(c)))


def highest(cards) -> int:
    """The card of highest rank, the lowest suit on a tie."""
    return min(cards, key=lambda c: (-type_rank(c), type_suit(c)))


def low_card(pool: set[int], trump: int) -> int:
    side = [c for c in pool if type_suit(c) != trump]
    return lowest(side or pool)


def unseen(hand: set[int], gone: set[int]) -> set[int]:
    return set(range(24)) - hand - gone


def is_master(card: int, hand: set[int], gone: set[int]) -> bool:
    """No unseen card of its suit ranks above it."""
    return not any(type_suit(c) == type_suit(card) and type_rank(c) > type_rank(card)
                   for c in unseen(hand, gone))


def heuristic_closes(rules: Rules, knobs, seat: dict, hand: set[int], gone: set[int],
                     trump: int) -> bool:
    """Closes when it has won a trick and its count plus its sure trumps' points (trumps no
    unseen trump can beat) reach the claim plus ``close_margin``."""
    sure = sum(card_points(rules, c) for c in hand
               if type_suit(c) == trump and is_master(c, hand, gone))
    return seat["won"] > 0 and count(seat) + sure >= rules.claim + knobs.close_margin


def heuristic_lead(hand: set[int], gone: set[int], trump: int, strict: bool) -> int:
    """A marriage's queen (trump's first, else the lowest suit's); else in strict play its
    highest master trump, else its highest master; else its lowest card (outside trump
    first)."""
    suits = marriage_suits(hand)
    if suits:
        suit = trump if trump in suits else suits[0]
        return card_type(RANK_Q, suit)
    if strict:
        mine = [c for c in hand if is_master(c, hand, gone)]
        trumps = [c for c in mine if type_suit(c) == trump]
        if trumps or mine:
            return highest(trumps or mine)
    return low_card(hand, trump)


def heuristic_follow(rules: Rules, knobs, seat: dict, hand: set[int], led: int, trump: int,
                     strict: bool) -> int:
    """Takes with its cheapest winner (a higher card of the led suit before a trump) in strict
    play, and in open play when the led card is worth ``take_at`` or more or the trick would
    bring it to the claim; else throws its lowest card, keeping its marriages."""
    legal = legal_follow(hand, led, trump, strict)
    winners = [c for c in legal if beats(c, led, trump)]
    if winners:
        same = [c for c in winners if type_suit(c) == type_suit(led)]
        w = lowest(same or winners)
        total = (seat["card_points"] + card_points(rules, led) + card_points(rules, w)
                 + seat["marriages"])
        if strict or card_points(rules, led) >= knobs.take_at or total >= rules.claim:
            return w
    married = {card_type(r, s) for s in marriage_suits(hand) for r in (RANK_Q, RANK_K)}
    return low_card(legal - married or legal, trump)


# --- the sampling policy (docs/rules.md "Sixty-six", "Sampling policy") -------------------------

EXCHANGE, CLOSE, LEAD, FOLLOW = range(4)  # a turn's decisions, in order


def partner(card: int) -> int:
    """The other card of the marriage of a king or queen."""
    other = RANK_K if type_rank(card) == RANK_Q else RANK_Q
    return card_type(other, type_suit(card))


def told_by(follow: int, led: int, trump: int) -> set[int]:
    """What a follow in strict play shows the follower does not hold: void in the led suit, all
    of it (and all trumps unless he trumped); under the lead in its suit, every higher card of
    it."""
    if type_suit(follow) != type_suit(led):
        suits = {type_suit(led)} | (set() if type_suit(follow) == trump else {trump})
        return {c for c in range(24) if type_suit(c) in suits}
    if not beats(follow, led, trump):
        return {c for c in range(24) if type_suit(c) == type_suit(led)
                and type_rank(c) > type_rank(led)}
    return set()


def candidates(rules: Rules, knobs, table: dict, seat: int, phase: int) -> list[int]:
    """The heuristic's choice first, then the others (1 yes, 0 no; cards ascending)."""
    hand, trump = table["hands"][seat], table["trump"]
    strict = table["closed"] or not table["stock"]
    if phase == EXCHANGE:
        return [1, 0]
    if phase == CLOSE:
        yes = int(heuristic_closes(rules, knobs, table["seats"][seat], hand, table["gone"],
                                   trump))
        return [yes, 1 - yes]
    if phase == LEAD:
        legal, first = hand, heuristic_lead(hand, table["gone"], trump, strict)
    else:
        legal = legal_follow(hand, table["led"], trump, strict)
        first = heuristic_follow(rules, knobs, table["seats"][seat], hand, table["led"], trump,
                                 strict)
    return [first] + sorted(legal - {first})


def sampling_choice(rules: Rules, knobs, table: dict, seat: int, phase: int, samples: int,
                    stream: Stream) -> int:
    """The sampling seat's choice at ``phase``. ``table`` is the whole deal as it stands (both
    hands, the stock, the tallies, ``trump``, ``closed``, ``closer``, ``at_close``, ``gone``, ``leader``,
    ``led``) with what the table knows (``shown``, ``excluded``); of it the seat reads its hand,
    the cards played, the stock's face-up bottom card, the cards seen going into the other hand
    and the other's strict-play follows, and the numbers of cards. It deals the rest: the other
    hand's hidden cards and the stock's hidden cards (ascending, then a partial Fisher-Yates on
    ``stream``), ``samples`` times, unless only one deal is consistent; plays every candidate on
    each deal with :func:`rollout`; the best total of game points, then of the count difference,
    the first candidate on a tie."""
    hands, stock = table["hands"], table["stock"]
    other = 1 - seat
    cands = candidates(rules, knobs, table, seat, phase)
    if len(cands) == 1:
        return cands[0]
    led = {table["led"]} if table["led"] is not None else set()
    known = table["shown"][other] - table["gone"] - led
    bottom = {stock[-1]} if stock else set()
    unseen = set(range(24)) - hands[seat] - table["gone"] - led - known - bottom
    strict = table["closed"] or not stock
    pool = sorted(unseen - table["excluded"][other] if strict else unseen)
    hidden = len(hands[other]) - len(known)
    determined = hidden in (0, len(pool)) if strict else len(pool) <= 1
    totals = [[0, 0] for _ in cands]
    for _ in range(1 if determined else samples):
        work = list(pool)
        if not determined:
            deal_hand(work, 0, hidden if strict else len(work) - 1, stream)
        world = dict(table, hands=[set(), set()], seats=[dict(x) for x in table["seats"]])
        world["hands"][seat] = set(hands[seat])
        world["hands"][other] = known | set(work[:hidden])
        world["stock"] = (work[hidden:hidden + len(stock) - 1] + [stock[-1]] if not strict
                          else list(stock))  # a strict stock is never drawn from
        for i, c in enumerate(cands):
            points, diff = rollout(rules, knobs, world, seat, phase, c)
            totals[i][0] += points
            totals[i][1] += diff
    best = max(range(len(cands)), key=lambda i: (totals[i][0], totals[i][1], -i))
    return cands[best]


def rollout(rules: Rules, knobs, world: dict, seat: int, phase: int, choice: int) -> tuple:
    """Play ``world`` on from ``phase`` of the turn, its decision taken as ``choice``, every
    later one by the heuristic on both seats; returns ``seat``'s game points (negative when the
    other scores) and its count less the other's."""
    hands = [set(h) for h in world["hands"]]
    stock = list(world["stock"])
    seats = [dict(x) for x in world["seats"]]
    trump = world["trump"]
    nine = card_type(rules.trump_exchange, trump)
    closed, closer, at_close = world["closed"], world["closer"], world["at_close"]
    gone, leader, led = set(world["gone"]), world["leader"], world["led"]
    winner, claimant, first = leader, -1, True
    while True:
        me, other = leader, 1 - leader
        if not (first and phase == FOLLOW):
            forced = first
            if ((not forced or phase == EXCHANGE) and nine in hands[me] and seats[me]["won"]
                    and len(stock) > 2 and not closed):
                if not (forced and choice == 0):
                    hands[me].remove(nine)
                    hands[me].add(stock[-1])
                    stock[-1] = nine
            if (not forced or phase <= CLOSE) and not closed and stock:
                if forced and phase == CLOSE:
                    yes = choice == 1
                else:
                    yes = heuristic_closes(rules, knobs, seats[me], hands[me], gone, trump)
                if yes:
                    closed, closer, at_close = True, me, seats[other]["won"]
            strict = closed or not stock
            led = (choice if forced and phase == LEAD
                   else heuristic_lead(hands[me], gone, trump, strict))
            if type_rank(led) in (RANK_Q, RANK_K) and type_suit(led) in marriage_suits(hands[me]):
                seats[me]["marriages"] += marriage_points(rules, type_suit(led), trump)
                if seats[me]["won"] and count(seats[me]) >= rules.claim:
                    claimant = me
                    break
            hands[me].remove(led)
        strict = closed or not stock
        follow = (choice if first and phase == FOLLOW
                  else heuristic_follow(rules, knobs, seats[other], hands[other], led, trump,
                                        strict))
        hands[other].remove(follow)
        winner = other if beats(follow, led, trump) else me
        gone |= {led, follow}
        seats[winner]["card_points"] += card_points(rules, led) + card_points(rules, follow)
        seats[winner]["won"] += 1
        if not closed and stock:
            hands[winner].add(stock.pop(0))
            hands[1 - winner].add(stock.pop(0))
        if not hands[0] and not hands[1] and not closed:
            seats[winner]["card_points"] += rules.last_trick
        if count(seats[winner]) >= rules.claim:
            claimant = winner
            break
        leader, first = winner, False
        if not hands[leader]:
            break
    counts = [count(x) for x in seats]
    result = outcome(rules, claimant, counts, seats, closer, at_close, winner)
    points = result["game_points"] if result["seat"] == seat else -result["game_points"]
    return points, counts[seat] - counts[1 - seat]


# --- one deal ------------------------------------------------------------------------------------

def deal_sixty_six(work: list[int], stream: Stream,
                   dealer: int) -> tuple[list[set[int]], list[int]]:
    """The shuffle (every position but the last of the block's carried permutation ``work``)
    and the deal: the non-dealer's six cards, the dealer's six, the turned trump, which goes
    under the other eleven: the stock in draw order."""
    deal_hand(work, 0, len(work) - 1, stream)
    hands: list[set[int]] = [set(), set()]
    hands[1 - dealer] = set(work[:HAND])
    hands[dealer] = set(work[HAND:2 * HAND])
    return hands, work[2 * HAND + 1:] + [work[2 * HAND]]


def decide(policy: int, odds: int, pick: Pick, heuristic: bool) -> bool:
    """A yes/no decision: the random policy's one in ``odds``, else the heuristic's answer."""
    return one_in(odds, pick) if policy == RANDOM else heuristic


def play_deal(rules: Rules, knobs, policies: list[int], hands: list[set[int]], stock: list[int],
              dealer: int, pick: Pick, stream: Stream | None = None, samples: int = 0) -> dict:
    """One deal from the given hands (seat 0 first) and stock (draw order, the turned trump
    last), ``policies[seat]`` playing each seat. Returns the record without ``deal``. A sampling
    seat (``SAMPLING``) deals ``samples`` times a decision from ``stream``, the stream ``pick``
    draws from (:func:`sampling_choice`)."""
    hands = [set(h) for h in hands]
    shown: list[set[int]] = [set(), set()]  # seen going into a seat's hand
    excluded: list[set[int]] = [set(), set()]  # known not to be in a seat's hand (strict play)

    def search(seat, phase, led=None):
        table = {"hands": hands, "stock": stock, "seats": seats, "trump": trump,
                 "closed": closed, "closer": closer, "at_close": opponent_won_at_close,
                 "gone": gone, "leader": leader, "led": led, "shown": shown, "excluded": excluded}
        return sampling_choice(rules, knobs, table, seat, phase, samples, stream)

    record = {"variant": rules.name, "dealer": dealer,
              "hands": [format_counts([int(t in h) for t in range(24)]) for h in hands],
              "stock": [format_card(t) for t in stock], "trump": SUITS[type_suit(stock[-1])],
              "tricks": [], "claim": None}
    stock = list(stock)
    trump = type_suit(stock[-1])
    nine = card_type(rules.trump_exchange, trump)
    seats = [{"card_points": 0, "marriages": 0, "won": 0} for _ in range(2)]
    closed, closer, opponent_won_at_close = False, -1, 0
    gone: set[int] = set()
    leader = winner = 1 - dealer
    claimant = -1
    while hands[leader]:
        me, other = leader, 1 - leader
        turn = {"exchange": False, "close": False}
        if nine in hands[me] and seats[me]["won"] and len(stock) > 2 and not closed:
            if (search(me, EXCHANGE) == 1 if policies[me] == SAMPLING
                    else decide(policies[me], knobs.random_exchange, pick, True)):
                shown[me].add(stock[-1])
                hands[me].remove(nine)
                hands[me].add(stock[-1])
                stock[-1] = nine
                turn["exchange"] = True
        if not closed and stock:
            if (search(me, CLOSE) == 1 if policies[me] == SAMPLING
                    else decide(policies[me], knobs.random_close, pick,
                                policies[me] == HEURISTIC
                                and heuristic_closes(rules, knobs, seats[me], hands[me], gone,
                                                     trump))):
                closed, closer, opponent_won_at_close = True, me, seats[other]["won"]
                turn["close"] = True
        strict = closed or not stock
        if policies[me] == SAMPLING:
            led = search(me, LEAD)
        elif policies[me] == RANDOM:
            led = random_card(hands[me], pick)
        else:
            led = heuristic_lead(hands[me], gone, trump, strict)
        marriage = None
        if type_rank(led) in (RANK_Q, RANK_K) and type_suit(led) in marriage_suits(hands[me]):
            if decide(policies[me], knobs.random_announce, pick, True):
                shown[me].add(partner(led))
                points = marriage_points(rules, type_suit(led), trump)
                marriage = {"suit": SUITS[type_suit(led)], "points": points}
                seats[me]["marriages"] += points
                if seats[me]["won"] and decide(policies[me], knobs.random_claim, pick,
                                               count(seats[me]) >= rules.claim):
                    claimant = me
                    record["claim"] = {"seat": me, "after": len(record["tricks"]) - 1,
                                       "marriage": marriage, **turn}
                    break
        hands[me].remove(led)
        if policies[other] == SAMPLING:
            follow = search(other, FOLLOW, led)
        elif policies[other] == RANDOM:
            follow = random_card(legal_follow(hands[other], led, trump, strict), pick)
        else:
            follow = heuristic_follow(rules, knobs, seats[other], hands[other], led, trump, strict)
        if strict:
            excluded[other] |= told_by(follow, led, trump)
        hands[other].remove(follow)
        winner = other if beats(follow, led, trump) else me
        gone |= {led, follow}
        seats[winner]["card_points"] += card_points(rules, led) + card_points(rules, follow)
        seats[winner]["won"] += 1
        draws = []
        if not closed and stock:
            if len(stock) == 2:
                shown[1 - winner].add(stock[-1])  # the face-up bottom card, drawn last
            draws = [stock.pop(0), stock.pop(0)]
            hands[winner].add(draws[0])
            hands[1 - winner].add(draws[1])
        if not hands[0] and not hands[1] and not closed:
            seats[winner]["card_points"] += rules.last_trick
        record["tricks"].append({"leader": me, **turn, "marriage": marriage,
                                 "cards": [format_card(led), format_card(follow)],
                                 "winner": winner, "draws": [format_card(t) for t in draws]})
        if decide(policies[winner], knobs.random_claim, pick, count(seats[winner]) >= rules.claim):
            claimant = winner
            record["claim"] = {"seat": winner, "after": len(record["tricks"]) - 1,
                               "marriage": None, "exchange": False, "close": False}
            break
        leader = winner
    counts = [count(s) for s in seats]
    record["points"] = counts
    record["tricks_won"] = [s["won"] for s in seats]
    record["result"] = outcome(rules, claimant, counts, seats, closer, opponent_won_at_close,
                               winner)
    return record


def outcome(rules: Rules, claimant: int, counts: list[int], seats: list[dict], closer: int,
            opponent_won_at_close: int, last_winner: int) -> dict:
    """The record's ``result``: a claim (correct at ``rules.claim``: 3 if the opponent has no
    trick, 2 if he has under half the claim (33), else 1; wrong: the opponent scores 2, 3 if the
    claimant has no trick), else a failed close (the opponent 2, 3 if he had no trick when it
    was closed), else the last trick's winner 1."""
    if claimant >= 0:
        other = 1 - claimant
        if counts[claimant] >= rules.claim:
            points = 3 if not seats[other]["won"] else (2 if counts[other] < rules.claim // 2
                                                        else 1)
            return {"seat": claimant, "game_points": points, "reason": "claim"}
        return {"seat": other, "game_points": 3 if not seats[claimant]["won"] else 2,
                "reason": "wrong_claim"}
    if closer >= 0:
        return {"seat": 1 - closer, "game_points": 3 if opponent_won_at_close == 0 else 2,
                "reason": "failed_close"}
    return {"seat": last_winner, "game_points": 1, "reason": "last_trick"}


# --- whole runs ----------------------------------------------------------------------------------

def play_deals(rules: Rules, knobs, policies: list[int], n_deals: int, seed: int,
               block_size: int, first_block: int = 0, first_deal: int = 0,
               samples: int = 0) -> list[dict]:
    """Twin of ``kernels.sixty_six.deals.sixty_six_blocks``: one record a deal. Deal ``d``
    (number ``first_deal + d``, dealer ``(first_deal + d) % 2``) reads the stream of block
    ``first_block + d // block_size``, the deck permutation carried within a block; the stream
    continues from the shuffle into the random seats' decisions."""
    records = []
    for d, stream, work in block_streams(deck_cards(rules), n_deals, seed, block_size,
                                         first_block):
        dealer = (first_deal + d) % 2
        hands, stock = deal_sixty_six(work, stream, dealer)
        record = play_deal(rules, knobs, policies, hands, stock, dealer, stream_pick(stream),
                           stream, samples)
        records.append({"deal": first_deal + d, **record})
    return records


# --- the contests and the samples (twin of kernels/sixty_six/games.py) ---------------------------

def play_duel(rules: Rules, knobs, policies: list[int], n_deals: int, seed: int,
              block_size: int, first_block: int = 0, first_deal: int = 0,
              samples: int = 0) -> list[float]:
    """Twin of ``sixty_six_duel_blocks``: per deal, A's game points minus B's, averaged over A
    on seat 0 then A on seat 1 (the same cards, the stream going on from one play to the next)."""
    diffs = []
    for d, stream, work in block_streams(deck_cards(rules), n_deals, seed, block_size,
                                         first_block):
        dealer = (first_deal + d) % 2
        hands, stock = deal_sixty_six(work, stream, dealer)
        total = 0
        for a_seat in range(2):
            seats = [policies[0], policies[1]] if a_seat == 0 else [policies[1], policies[0]]
            result = play_deal(rules, knobs, seats, hands, stock, dealer,
                               stream_pick(stream), stream, samples)["result"]
            total += result["game_points"] * (1 if result["seat"] == a_seat else -1)
        diffs.append(total / 2)
    return diffs


def play_match(rules: Rules, knobs, policy_a: int, policy_b: int, n_games: int, seed: int,
               block_size: int, target: int, max_deals: int, first_block: int = 0,
               first_game: int = 0, samples: int = 0) -> list[list[int]]:
    """Twin of ``sixty_six_match_blocks``: per game ``[A won (1/0, -1 unfinished), deals, A's
    game points, B's]``; game number ``n`` seats A on ``(n // 2) % 2``, its first dealer is
    ``n % 2`` and the deal alternates."""
    games = []
    for g, stream, work in block_streams(deck_cards(rules), n_games, seed, block_size,
                                         first_block):
        number = first_game + g
        a_seat = (number // 2) % 2
        seats = [policy_a, policy_b] if a_seat == 0 else [policy_b, policy_a]
        totals, deals, won = [0, 0], 0, -1
        while deals < max_deals:
            dealer = (number + deals) % 2
            hands, stock = deal_sixty_six(work, stream, dealer)
            result = play_deal(rules, knobs, seats, hands, stock, dealer,
                               stream_pick(stream), stream, samples)["result"]
            deals += 1
            side = 0 if result["seat"] == a_seat else 1
            totals[side] += result["game_points"]
            if totals[side] >= target:
                won = 1 - side
                break
        games.append([won, deals, totals[0], totals[1]])
    return games


def play_samples(rules: Rules, knobs, policies: list[int], hand: set[int], turned: int,
                 dealer: int, n_samples: int, seed: int, block_size: int,
                 first_block: int = 0, samples: int = 0) -> list[dict]:
    """Twin of ``sixty_six_sample_blocks``: deals around seat 0's ``hand`` and the ``turned``
    trump; the other cards (ascending) shuffled, the other seat takes the first six, the stock
    the next eleven then the turned card; one record a sample (``deal`` its index)."""
    unseen = [t for t in range(24) if t not in hand and t != turned]
    records = []
    for d, stream, work in block_streams(unseen, n_samples, seed, block_size, first_block):
        deal_hand(work, 0, len(work) - 1, stream)
        hands = [set(hand), set(work[:HAND])]
        stock = work[HAND:] + [turned]
        record = play_deal(rules, knobs, policies, hands, stock, dealer, stream_pick(stream),
                           stream, samples)
        records.append({"deal": d, **record})
    return records
