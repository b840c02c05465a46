"""The exact endgame of any strict-trick game from a position, every hand known.

:func:`solve_position` takes a :class:`~binokel_sim.positions.Position` (a ``play`` record cut
at a card: :func:`binokel_sim.positions.read_position`), runs the search of
:mod:`binokel_sim.kernels.strict.endgame` for the side of the seat to play, and returns plain
data: what that side takes from here with best play of both sides (card points, the cards on
the table and the last trick's bonus included; tricks for a Durch or a Bettel), every best card,
and what every card it may play is worth. The ``solve`` command prints it. This is the
double-dummy value: what is makeable with every card seen, not advice for a player who sees
only his own.
"""

from __future__ import annotations

import numpy as np

from binokel_sim.cards import SUITS, counts_to_planes, format_card, format_counts
from binokel_sim.constants import NO_TRUMP
from binokel_sim.errors import SimulationError
from binokel_sim.positions import Position, trick_winner
from binokel_sim.solver import card_points_of, display_order
from binokel_sim.variants import Rules

MAX_TRICKS = {2: 20, 3: 13, 4: 10}  # the most tricks searched from a position, by seats


def solve_position(rules: Rules, position: Position) -> dict:
    """Solve ``position`` for the side of the seat to play.

    Returns ``{"variant", "seat", "side", "contract", "trump", "tricks_done", "tricks_left",
    "table", "hands", "unit", "value", "total", "best", "moves", "made", "nodes"}``: ``value``
    what the side of the seat to play (``side``: its seats; for a Bettel the soloist alone,
    whose tricks are counted) takes from here with best play of both sides, in ``unit``
    (``"card points"``, the last trick's bonus and the cards on the table included, or
    ``"tricks"`` for a Durch or a Bettel), of ``total`` still to win; ``best`` every card of
    the seat to play that secures it; ``moves`` ``{"card", "value"}`` for every card it may
    play; ``made`` for a Durch or a Bettel whether the soloist makes it with best play (else
    None); ``nodes`` the positions the searches visited.
    """
    from binokel_sim.kernels.strict import endgame as kernel

    seat, left = position.seat, position.tricks_left
    hands, trick, table = search_inputs(rules, position)
    tricks, card_points = bool(table.tricks), table.card_points
    scratch = kernel.endgame_scratch()
    values = np.empty(24, dtype=np.int64)
    value = int(kernel.endgame_moves(hands, trick, np.int64(left), table, scratch, values))
    nodes = int(scratch.stats[kernel.STAT_NODES])
    total = left if tricks else (sum(int(card_points[c]) for c in position.table)
                                 + int(sum(int(h @ card_points) for h in position.hands))
                                 + rules.last_trick)
    moves = [(t, int(values[t])) for t in display_order(values >= 0)]
    made = None
    if position.contract == "durch":  # every trick to the soloist's side
        solo = position.sides[position.soloist]
        before = sum(w for s, w in enumerate(position.won) if position.sides[s] == solo)
        mine = value if position.sides[seat] == solo else left - value
        made = before == position.tricks_done and mine == left
    elif position.contract == "bettel":  # no trick to the soloist
        made = position.won[position.soloist] == 0 and value == 0
    return {
        "variant": rules.name,
        "seat": seat,
        "side": [s for s in range(len(position.hands)) if table.scored[s]],
        "contract": position.contract,
        "trump": None if position.trump == NO_TRUMP else SUITS[position.trump],
        "tricks_done": position.tricks_done,
        "tricks_left": left,
        "table": [format_card(c) for c in position.table],
        "hands": [format_counts(h) for h in position.hands],
        "unit": "tricks" if tricks else "card points",
        "value": value,
        "total": total,
        "best": [format_card(t) for t, v in moves if v == value],
        "moves": [{"card": format_card(t), "value": v} for t, v in moves],
        "made": made,
        "nodes": nodes,
    }


def search_inputs(rules: Rules, position: Position):
    """``(hands, trick, table)``: the kernel's arguments for ``position``, solved for the side
    of the seat to play (for a Bettel: the soloist's tricks, which his opponents maximise);
    after checking that the hands add up and the search takes that many tricks."""
    from binokel_sim.kernels.strict import endgame as kernel
    from binokel_sim.kernels.strict.tricks import Trick
    from binokel_sim.kernels.play import WINS_OVER

    n_seats = len(position.hands)
    left = position.tricks_left
    if left == 0:
        raise SimulationError("the deal is over: no trick left to solve")
    played = {(position.leader + i) % n_seats for i in range(len(position.table))}
    for s, hand in enumerate(position.hands):
        if int(hand.sum()) != left - (s in played):
            raise SimulationError(f"the hands do not add up: seat {s} holds {int(hand.sum())} "
                                  f"cards with {left} tricks to play")
    if left > MAX_TRICKS[n_seats]:
        raise SimulationError(
            f"{left} tricks to play: the exact search takes at most {MAX_TRICKS[n_seats]} with "
            f"{n_seats} seats; cut the record {left - MAX_TRICKS[n_seats]} tricks later")
    tricks = position.contract != "points"
    card_points = card_points_of(rules)
    if position.contract == "bettel":
        solo = position.sides[position.soloist]
        ours = [int(position.sides[s] != solo) for s in range(n_seats)]
        scored = [int(s == position.soloist) for s in range(n_seats)]
    else:
        side = position.sides[position.seat]
        ours = scored = [int(position.sides[s] == side) for s in range(n_seats)]
    table = kernel.EndgameTable(card_points, np.int64(rules.last_trick),
                                np.array(ours, dtype=np.int64), np.array(scored, dtype=np.int64),
                                tricks, np.int64(position.trump))
    i64 = np.int64
    if position.table:
        win_card, win_seat = trick_winner(position.table, position.leader, position.trump,
                                          n_seats)
        worth = 0 if tricks else sum(int(card_points[c]) for c in position.table)
        trick = Trick(i64(position.leader), i64(len(position.table)),
                      i64(position.table[0] // 6), i64(WINS_OVER[position.trump * 24 + win_card]),
                      i64(win_card), i64(win_seat), i64(worth), i64(position.tricks_done))
    else:
        trick = Trick(i64(position.leader), i64(0), i64(0), i64(0), i64(-1),
                      i64(position.leader), i64(0), i64(position.tricks_done))
    hands = np.stack([counts_to_planes(h) for h in position.hands]).astype(np.uint32)
    return hands, trick, table
