"""The rules every replay checker reads the same way, written from SPEC.md alone ("Common to all
variants": the must-head obligation and the trick winner) and shared by ``talon_replay.py`` and
``widow_replay.py``. Nothing here imports the engine, its twins or the kernels."""

from __future__ import annotations

N_RANKS = 6


def suit_of(t: int) -> int:
    return t // N_RANKS


def rank_of(t: int) -> int:
    return t % N_RANKS


def hand_order(t: int) -> tuple[int, int]:
    """Records list cards S H D C, high to low within a suit."""
    return (suit_of(t), -rank_of(t))


def legal_types(held: set[int], played: list[int], trump: int) -> set[int]:
    """SPEC "Must-head obligation": the card types of ``held`` that may be played to a trick
    holding ``played`` (in play order; empty: the player leads, anything goes)."""
    if not played:
        return set(held)
    led = suit_of(played[0])
    trumps_in_trick = [rank_of(t) for t in played if suit_of(t) == trump]
    led_held = {t for t in held if suit_of(t) == led}
    if led_held:
        if led == trump:  # 1. a trump higher than the highest trump in the trick, else any trump
            top = max(trumps_in_trick)
            return {t for t in led_held if rank_of(t) > top} or led_held
        if not trumps_in_trick:  # 1. a led card higher than the highest led card, else any
            top = max(rank_of(t) for t in played if suit_of(t) == led)
            return {t for t in led_held if rank_of(t) > top} or led_held
        return led_held  # 1. the trick has been trumped: any card of the led suit
    trumps_held = {t for t in held if suit_of(t) == trump}
    if trumps_held:  # 2. void in the led suit: a higher trump if able, else any trump
        if not trumps_in_trick:
            return trumps_held
        top = max(trumps_in_trick)
        return {t for t in trumps_held if rank_of(t) > top} or trumps_held
    return set(held)  # 3. any card


def trick_winner_index(cards: list[int], trump: int) -> int:
    """SPEC "Trick winner": the highest trump, else the highest card of the led suit; of
    identical cards the one played first. Returns the position in play order."""
    led = suit_of(cards[0])
    pool = [i for i, t in enumerate(cards) if suit_of(t) == trump]
    if not pool:
        pool = [i for i, t in enumerate(cards) if suit_of(t) == led]
    return max(pool, key=lambda i: (rank_of(cards[i]), -i))
