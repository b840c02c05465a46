"""Distil the sampling policy's leads into the four-hand-80 expert's lead scorer (issue 28).

Two steps, each reproducible from its seed:

``collect``
    Plays deals with the expert on every seat. At every lead with two or more card types to
    choose from it also asks the sampling policy (``--samples`` deals of the unseen cards, the
    play-outs the heuristic's, or with ``--rollouts expert`` the expert's) and records the
    position (the 16 hand planes, seat, trick, trump, bidder, voids shown) with the sampling
    policy's totals per card type; with ``--follows`` every follow with a choice too. The
    expert's card is the one played, so the positions are the expert's own. Writes an ``.npz``.

``fit``
    Prints the expert's regret under sampling's totals at each place in the trick, then
    computes every candidate lead's features (:func:`features`, the expert's scorer
    ``kernels/partnership/heuristic.py:scored_lead``, ``W_*``), and fits integer weights that
    minimise the regret of the chosen card under the sampling totals (a softmax-smoothed regret,
    L-BFGS, then scaled and rounded). Prints the agreement with sampling and the regret of the
    expert's fitted weights and of the new ones on held-out positions (every fifth), and the new
    scorer knobs as JSON for ``scripts/fit_expert.py --start``. ``--extra`` adds features the
    kernel's scorer does not have (:data:`EXTRA`), to see what they would be worth; ``--duel N``
    plays the new scorer knobs against the heuristic on N deals of stream 11 (the expert's
    published duel stream) next to the shipped knobs, and ``--toward A ..`` the shipped weights
    moved part of the way to them. The regrets printed for "fitted int" are the rounded
    weights'; the held-out part is every fifth position.

What it found (docs/rules.md, "Expert policy"): fitted weights that cut the regret under
sampling's totals play worse, not better, in duels. The features are the scorer's before its
``lead_beaters`` weight (``W_BEATERS``) and the ``infer`` knob came: they reproduce the shipped
expert's lead in about 97% of the positions (``fit`` prints the share), and the fitted JSON has
no ``lead_beaters``, so ``fit_expert.py --start`` starts that knob where its own start does (0).

Example (the study of docs/rules.md ran ``collect --deals 15000 --samples 128`` with seeds 11
and 12, and with ``--rollouts expert`` 7,500 deals with seeds 21 and 22)::

    python scripts/distill_lead.py collect --deals 2000 --seed 11 --out /tmp/leads11.npz
    python scripts/distill_lead.py fit /tmp/leads11.npz --duel 20000 --toward 0.1 0.25 0.5
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from binokel_sim.kernels.bits import N_TYPES, popcount
from binokel_sim.kernels.deal import block_start, deal_seats
from binokel_sim.kernels.knowledge import INFER_FULL
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.partnership.deals import (
    bid_and_name,
    copy_planes,
    pair_melds,
    partner_margins,
)
from binokel_sim.kernels.partnership.heuristic import heuristic_follow, heuristic_lead
from binokel_sim.kernels.partnership.sampling import (
    Sampler,
    Spot,
    note_card,
    sampling_card,
    sampling_scratch,
    table_knowledge,
)
from binokel_sim.kernels.partnership.tricks import (
    N_SEATS,
    PlayTable,
    Trick,
    counter_mask,
    hand_cards,
    heuristic_knobs,
    others,
    seat_knobs,
)
from binokel_sim.kernels.play import beaters, legal_under, suit_block
from binokel_sim.kernels.policies import POLICY_EXPERT

# per row: the planes, (seat, trick, tricks, trump, bidder, voids, legal), the totals, (the
# expert's card, sampling's card), per seat the types excluded by its plays and the types of the
# meld it showed that it still holds, the position in the trick (0: the lead)
REC = 16 + 7 + 24 + 2 + 4 + 4 + 1


@njit
def collect_blocks(table, n_samples, expert_rollouts, follows, show_rows, seed, n_blocks,
                   block_size, out):
    """Play ``n_blocks`` blocks of deals, the expert on every seat, and write one row of ``out``
    (int64 (rows, REC)) per lead with two or more types; returns the rows written."""
    deck = table.deck
    min_meld = table.min_meld
    hand = deck.shape[0] // N_SEATS
    policies = np.full(N_SEATS, POLICY_EXPERT, dtype=np.int64)
    knobs = seat_knobs(policies, table.tune)
    rollout_knobs = knobs if expert_rollouts else heuristic_knobs()
    counters = counter_mask(table.card_points)
    play = PlayTable(table.card_points, table.last_trick, counters, knobs)
    rollout_play = PlayTable(table.card_points, table.last_trick, counters, rollout_knobs)
    deck_counts = np.zeros(N_TYPES, dtype=np.int64)
    for c in deck:
        deck_counts[c] += 1
    exact = np.zeros(N_SEATS, dtype=np.int64)  # play-outs to the end, as when it was fitted
    scratch = sampling_scratch(hand, True, exact)
    sampler = Sampler(n_samples, INFER_FULL, exact, deck_counts, scratch, None)
    hands = np.empty((N_SEATS, 4), dtype=np.uint32)
    melds = np.empty((N_SEATS, 4), dtype=np.int64)
    limits = np.empty(N_SEATS, dtype=np.int64)
    trumps = np.empty(N_SEATS, dtype=np.int64)
    calls_seats = np.empty(64, dtype=np.int64)
    calls_values = np.empty(64, dtype=np.int64)
    margins = partner_margins(knobs, np.empty(N_SEATS, dtype=np.int64))
    flat = np.empty(N_SEATS * 4, dtype=np.uint32)
    rows = 0
    for b in range(n_blocks):
        state, work = block_start(deck, seed, b)
        for d in range(b * block_size, (b + 1) * block_size):
            deal_seats(work, 0, hand, state, hands)
            bidder, _, trump, _ = bid_and_name(hands, d % N_SEATS, table, melds, limits, trumps,
                                               (calls_seats, calls_values), margins)
            pair_meld, _ = pair_melds(melds, bidder, trump)
            if trump < 0 or pair_meld < min_meld:
                continue
            copy_planes(hands, flat)
            rows = _play(flat, bidder, trump, play, rollout_play, sampler, state, show_rows,
                         follows, out, rows)
            if rows + N_SEATS * hand > out.shape[0]:
                return rows
    return rows


@njit
def _play(flat, bidder, trump, play, rollout_play, sampler, state, show_rows, follows, out, rows):
    """One deal as ``sampling.play_known`` plays it, every seat the expert (``play``), the
    sampling decisions' rollouts by ``rollout_play``, recording the leads (and with
    ``follows`` the follows) with a choice."""
    leader = bidder
    n_tricks = hand_cards(flat, leader)
    trump_block = suit_block(trump)
    wins_row = (trump & 3) * 24
    voids, knowledge = table_knowledge(flat, show_rows, trump)
    excluded = knowledge.excluded
    played_by = knowledge.played_by
    shown = knowledge.shown
    totals = sampler.scratch.totals
    counters = play.counters
    knobs = play.knobs
    zero = np.int64(0)
    for k in range(n_tricks):
        trick = Trick(leader, trump, trump_block, wins_row, zero, zero, zero, zero, leader, zero)
        for i in range(N_SEATS):
            seat = (leader + i) & 3
            row = 4 * seat
            h0 = np.int64(flat[row])
            beat = beaters(trick.win_card)
            legal = h0 if i == 0 else legal_under(h0, trick.led_block, trump_block, beat)
            if i == 0:
                c = heuristic_lead(h0, h0, flat[row + 1], flat[row + 2], flat[row + 3],
                                   others(flat, seat), voids, seat, k, n_tricks, trump,
                                   bidder, counters, knobs, False)
            else:
                c = heuristic_follow(legal, others(flat, seat), voids, seat, i, trick.led,
                                     trick.win_card, trick.win_seat, trick.wins, trump, counters,
                                     knobs, False)
            if popcount(legal) > 1 and (i == 0 or follows):
                s = sampling_card(flat, Spot(seat, leader, i, k, n_tricks, trump, bidder, voids),
                                  legal, knowledge, sampler, state, rollout_play)
                r = out[rows]
                for q in range(16):
                    r[q] = flat[q]
                r[16] = seat
                r[17] = k
                r[18] = n_tricks
                r[19] = trump
                r[20] = bidder
                r[21] = voids
                r[22] = legal
                for t in range(N_TYPES):
                    r[23 + t] = totals[t] if (legal >> t) & 1 else 0
                r[47] = c
                r[48] = s
                for q in range(N_SEATS):
                    r[49 + q] = excluded[q]
                    held = np.int64(0)
                    for t in range(N_TYPES):
                        if shown[q, t] > played_by[q, t]:
                            held |= np.int64(1) << t
                    r[53 + q] = held
                r[57] = i
                rows += 1
            voids, trick = note_card(flat, seat, i, c, h0, beat, knowledge, voids, trick)
        leader = trick.win_seat
    return rows


def collect(args) -> None:
    from binokel_sim.engines.partnership import family_tables
    from binokel_sim.engines.policies import show_rows
    from binokel_sim.variants import find_variant

    rules = find_variant(args.variant)
    block = 50
    n_blocks = -(-args.deals // block)
    out = np.zeros((n_blocks * block * (80 if args.follows else 20) + 64, REC), dtype=np.int64)
    t0 = time.perf_counter()
    n = collect_blocks(family_tables(rules), args.samples, args.rollouts == "expert",
                       args.follows, show_rows(rules), args.seed, n_blocks, block, out)
    np.savez_compressed(args.out, rows=out[:n], seed=args.seed, samples=args.samples,
                        rollouts=args.rollouts, variant=args.variant, deals=n_blocks * block)
    print(f"{n:,} decisions from {n_blocks * block:,} deals in {time.perf_counter() - t0:.0f} s "
          f"-> {args.out}")


# the expert's scorer's features, in the order of its weights (heuristic.py W_TRUMP_BID ..
# W_TRUMP_DRAWN), then the candidates this script tries beyond them
SCORER = ("lead_trump_bid", "lead_trump_def", "lead_trump_early", "lead_trump_len", "lead_master",
          "lead_master_trump", "lead_counter", "lead_rank", "lead_len", "lead_out",
          "lead_void_opp", "lead_void_partner", "lead_copies", "lead_singleton", "lead_trump_out",
          "lead_trump_drawn")
EXTRA = ("above_copies", "counter_beaten", "void_next", "master_counter", "trump_beaten",
         "lowest_held", "masters_in_suit", "late_master", "unseen_trumps_side", "trump_master_bid",
         "partner_void_trump_side", "suit_copies_out", "opp_master", "opp_master_trump",
         "counter_opp_beaten", "partner_above")
TYPES = np.arange(N_TYPES)
SUIT = TYPES // 6
RANK = TYPES % 6


def bits(x: np.ndarray) -> np.ndarray:
    """int64 (n,) masks -> bool (n, 24)."""
    return ((x[:, None] >> TYPES[None, :]) & 1).astype(bool)


def features(rows: np.ndarray, counters: int) -> np.ndarray:
    """float64 (n, 24, len(SCORER) + len(EXTRA)): every card type's features in each lead
    position of ``rows`` (:func:`collect_blocks`' layout). The first ``len(SCORER)`` are
    ``scored_lead``'s: :func:`fit` checks that with the expert's weights they pick the expert's
    recorded card in every row."""
    n = rows.shape[0]
    seat, k, n_tricks, trump, bidder, voids = (rows[:, 16 + i] for i in range(6))
    idx = np.arange(n)
    planes = np.stack([rows[idx, 4 * seat + q] for q in range(4)], axis=1)  # own (n, 4)
    own = sum(bits(planes[:, q]).astype(np.int64) for q in range(4))  # copies per type
    others_copies = np.zeros((n, N_TYPES), dtype=np.int64)
    for g in range(1, 4):
        s = (seat + g) & 3
        for q in range(4):
            others_copies += bits(rows[idx, 4 * s + q])
    unseen = others_copies > 0
    is_trump = SUIT[None, :] == trump[:, None]
    suit_len = np.zeros((n, 4), dtype=np.int64)
    suit_out = np.zeros((n, 4), dtype=np.int64)
    for su in range(4):
        suit_len[:, su] = own[:, 6 * su:6 * su + 6].sum(axis=1)
        suit_out[:, su] = unseen[:, 6 * su:6 * su + 6].sum(axis=1)
    length = suit_len[:, SUIT]
    out = suit_out[:, SUIT]
    # unseen copies strictly above each type within its suit
    above_copies = np.zeros((n, N_TYPES), dtype=np.int64)
    for t in range(N_TYPES):
        hi = (SUIT == SUIT[t]) & (RANK > RANK[t])
        above_copies[:, t] = others_copies[:, hi].sum(axis=1)
    beaten = above_copies > 0
    counter = bits(np.full(n, counters, dtype=np.int64))
    void = bits(voids)  # bit 4*seat + suit

    def void_of(who, suit):
        return void[idx[:, None], 4 * who[:, None] + suit]

    opp_a, opp_b, partner = (seat + 1) & 3, (seat + 3) & 3, seat ^ 2
    suits = np.broadcast_to(SUIT, (n, N_TYPES))
    trump_col = np.broadcast_to(trump[:, None], (n, N_TYPES))
    trumps_unseen = (unseen & is_trump).any(axis=1)[:, None]
    opp_trump_void = void_of(opp_a, trump_col) & void_of(opp_b, trump_col)
    bidding = ((seat & 1) == (bidder & 1))[:, None]
    early = (2 * k < n_tricks)[:, None]
    side = ~is_trump
    partner_may_trump = ~void_of(partner, trump_col)
    f = np.zeros((n, N_TYPES, len(SCORER) + len(EXTRA)))
    f[..., 0] = is_trump & bidding
    f[..., 1] = is_trump & ~bidding
    f[..., 2] = is_trump & early
    f[..., 3] = is_trump * length
    f[..., 4] = side & ~beaten
    f[..., 5] = is_trump & ~beaten
    f[..., 6] = counter
    f[..., 7] = RANK[None, :]
    f[..., 8] = length
    f[..., 9] = out
    f[..., 10] = side & trumps_unseen & (void_of(opp_a, suits) | void_of(opp_b, suits))
    f[..., 11] = side & partner_may_trump & void_of(partner, suits)
    f[..., 12] = np.maximum(own - 1, 0)
    f[..., 13] = side & (length == 1)
    f[..., 14] = is_trump * out
    f[..., 15] = is_trump & (~trumps_unseen | opp_trump_void)
    e = len(SCORER)
    f[..., e + 0] = above_copies
    f[..., e + 1] = counter & beaten
    f[..., e + 2] = side & trumps_unseen & void_of(opp_a, suits)
    f[..., e + 3] = counter & ~beaten
    f[..., e + 4] = is_trump & beaten
    lowest = np.zeros((n, N_TYPES), dtype=bool)
    masters_in = np.zeros((n, N_TYPES), dtype=np.int64)
    for t in range(N_TYPES):
        lo = (SUIT == SUIT[t]) & (RANK < RANK[t])
        lowest[:, t] = own[:, lo].sum(axis=1) == 0
        same = SUIT == SUIT[t]
        masters_in[:, t] = ((own[:, same] > 0) & ~beaten[:, same]).sum(axis=1)
    f[..., e + 5] = lowest
    f[..., e + 6] = masters_in
    f[..., e + 7] = (~beaten) * (k / n_tricks)[:, None]
    f[..., e + 8] = side * (others_copies * is_trump).sum(axis=1)[:, None]
    f[..., e + 9] = is_trump & bidding & ~beaten
    f[..., e + 10] = side & ~partner_may_trump
    suit_copies_out = np.stack([others_copies[:, 6 * su:6 * su + 6].sum(axis=1)
                                for su in range(4)], axis=1)
    f[..., e + 11] = suit_copies_out[:, SUIT]
    # what the table knows of who holds what (sampling's knowledge): an unseen type an opponent
    # may hold (not excluded by his plays, not known to be in the partner's hand)
    excluded = rows[:, 49:53]
    known = rows[:, 53:57]
    partner_known = bits(known[idx, partner])
    may_a = ~bits(excluded[idx, opp_a])
    may_b = ~bits(excluded[idx, opp_b])
    partner_only = unseen & ~may_a & ~may_b
    opp_may = unseen & (may_a | may_b) & ~(partner_known & (others_copies <= 1))
    opp_above = np.zeros((n, N_TYPES), dtype=bool)
    partner_above = np.zeros((n, N_TYPES), dtype=bool)
    for t in range(N_TYPES):
        hi = (SUIT == SUIT[t]) & (RANK > RANK[t])
        opp_above[:, t] = opp_may[:, hi].any(axis=1)
        partner_above[:, t] = (partner_only[:, hi] | partner_known[:, hi]).any(axis=1)
    f[..., e + 12] = side & ~opp_above
    f[..., e + 13] = is_trump & ~opp_above
    f[..., e + 14] = counter & opp_above
    f[..., e + 15] = partner_above & side
    return f


def pick(f: np.ndarray, legal: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The card of the highest score ``f @ w`` among ``legal`` (bool (n, 24)), the lowest type
    on a tie (as ``scored_lead``)."""
    score = np.where(legal, f @ w, -np.inf)
    return np.argmax(score, axis=1)


def smooth_regret(w, f, legal, regret, l2):
    """The softmax-weighted regret (and its gradient) of the linear scorer ``w``."""
    s = np.where(legal, f @ w, -np.inf)
    s -= s.max(axis=1, keepdims=True)
    p = np.exp(s)
    p /= p.sum(axis=1, keepdims=True)
    r = (p * regret).sum(axis=1)
    # d r / d s_c = p_c (regret_c - r)
    g = p * (regret - r[:, None])
    grad = np.einsum("nc,ncf->f", g, f) / len(r) + 2 * l2 * w
    return r.mean() + l2 * (w @ w), grad


def expert_regret(rows: np.ndarray, samples: int, deals: int) -> None:
    """The expert's regret under the sampling totals at each position in the trick: its card
    against the best one, a decision and a deal."""
    legal = bits(rows[:, 22])
    totals = np.where(legal, rows[:, 23:47] / samples, -np.inf)
    regret = totals.max(axis=1) - totals[np.arange(len(rows)), rows[:, 47]]
    for position in range(N_SEATS):
        m = rows[:, 57] == position
        if m.any():
            print(f"position {position}: {m.sum() / deals:.1f} decisions with a choice a deal, "
                  f"the expert's regret {regret[m].mean():.3f} points a decision, "
                  f"{regret[m].sum() / deals:.2f} a deal; agrees with sampling "
                  f"{(rows[m, 47] == rows[m, 48]).mean():.3f}")


def fit(args) -> None:
    from scipy.optimize import minimize

    from binokel_sim import expert_play
    from binokel_sim.kernels.partnership.heuristic import HEURISTIC_PTUNE
    from binokel_sim.kernels.partnership.tricks import counter_mask
    from binokel_sim.tables import compile_tables
    from binokel_sim.variants import find_variant

    data = []
    for path in args.files:
        try:
            data.append(np.load(path))
        except (OSError, ValueError) as e:
            raise SystemExit(f"distill_lead.py fit: cannot read {path} as a file of collect: "
                             f"{e}") from None
    if any(d["rows"].shape[1] != REC for d in data):
        raise SystemExit(f"distill_lead.py fit: a file of another layout ({REC} columns a row "
                         f"expected): collect it again")
    for key in ("samples", "rollouts", "variant"):
        if len({str(d[key]) for d in data}) > 1:
            raise SystemExit(f"distill_lead.py fit: the files differ in {key}")
    rows = np.concatenate([d["rows"] for d in data])
    samples = int(data[0]["samples"])
    deals = sum(int(d["deals"]) for d in data)
    expert_regret(rows, samples, deals)
    rows = rows[rows[:, 57] == 0]
    rules = find_variant(str(data[0]["variant"]))
    counters = int(counter_mask(compile_tables(rules).card_points))
    f = features(rows, counters)
    legal = bits(rows[:, 22])
    totals = rows[:, 23:47] / samples
    best = np.where(legal, totals, -np.inf).max(axis=1)
    regret = np.where(legal, best[:, None] - totals, 0.0)
    names = SCORER + EXTRA
    use = [i for i, name in enumerate(names) if name in SCORER or name in args.extra]
    fitted = expert_play.knobs(rules.name, dict(zip(expert_play.PARTNERSHIP_KNOBS,
                                                    HEURISTIC_PTUNE)))
    w0 = np.array([fitted.get(name, 0) for name in names], dtype=float)
    expert_pick = pick(f, legal, w0)
    agree = (expert_pick == rows[:, 47]).mean()
    print(f"{len(rows):,} leads; the features reproduce the expert's recorded lead in "
          f"{agree:.4%} of them")
    idx = np.arange(len(rows))
    held = idx % 5 == 0
    train = ~held

    def report(label, w):
        for part, m in (("train", train), ("held-out", held)):
            c = pick(f[m], legal[m], w)
            print(f"  {label:12s} {part:9s} regret {regret[m][idx[:m.sum()], c].mean():.4f} "
                  f"points a lead, agrees with sampling {(c == rows[m, 48]).mean():.3f}")

    report("expert", w0)
    fu, scale0 = f[..., use], 10.0
    x0 = w0[use] / scale0
    res = minimize(smooth_regret, x0, args=(fu[train], legal[train], regret[train], args.l2),
                   jac=True, method="L-BFGS-B", options={"maxiter": args.iters})
    w = np.zeros(len(names))
    w[use] = res.x
    w_int = np.round(w * args.scale / np.abs(w).max()).astype(np.int64)
    report("fitted", w)
    report("fitted int", w_int.astype(float))
    knobs = {name: int(v) for name, v in zip(names, w_int) if name in SCORER}
    print(json.dumps(knobs))
    extra = {name: int(v) for name, v in zip(names, w_int) if name in args.extra}
    if extra:
        print("features the kernel lacks:", json.dumps(extra))
    if args.duel:
        duel_gain(rules, fitted, knobs, args.duel, args.toward)


def duel_gain(rules, fitted: dict, knobs: dict, deals: int, toward: list[float]) -> None:
    """Expert minus heuristic with the shipped knobs, with the scorer's weights ``knobs``, and
    for each ``a`` of ``toward`` with the shipped weights moved the part ``a`` of the way to
    ``knobs`` brought to the shipped scale (the ratio of the two ``lead_master`` weights)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from fit_expert import gain

    trials = [("shipped", fitted), ("fitted", dict(fitted, **knobs))]
    scale = fitted["lead_master"] / knobs["lead_master"] if knobs["lead_master"] else 1.0
    for a in toward:
        trials.append((f"{a:g} way", dict(fitted, **{
            n: round(fitted[n] + a * (v * scale - fitted[n])) for n, v in knobs.items()})))
    for label, trial in trials:
        g, half = gain(rules, trial, deals, 11, 2)
        print(f"  duel {label:8s} expert - heuristic {g:+.2f} (+-{half:.2f}), {deals:,} deals, "
              f"seed 11")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--variant", default="four-hand-80")
    c.add_argument("--deals", type=int, default=2000)
    c.add_argument("--seed", type=int, default=11)
    c.add_argument("--samples", type=int, default=64)
    c.add_argument("--rollouts", choices=("heuristic", "expert"), default="heuristic",
                   help="who plays the sampling policy's play-outs")
    c.add_argument("--follows", action="store_true",
                   help="record the follows with a choice too (fit reports the expert's regret "
                        "at them and fits the leads)")
    c.add_argument("--out", required=True)
    f = sub.add_parser("fit")
    f.add_argument("files", nargs="+")
    f.add_argument("--extra", nargs="*", default=[], help=f"from {EXTRA}")
    f.add_argument("--l2", type=float, default=1e-4)
    f.add_argument("--iters", type=int, default=300)
    f.add_argument("--scale", type=float, default=200.0,
                   help="the largest fitted weight's size after rounding")
    f.add_argument("--duel", type=int, default=0, metavar="DEALS",
                   help="duel the fitted knobs against the heuristic on DEALS deals")
    f.add_argument("--toward", type=float, nargs="*", default=[], metavar="A",
                   help="with --duel: also the shipped weights moved the part A of the way to "
                        "the fitted ones")
    args = parser.parse_args()
    if args.command == "collect":
        collect(args)
    else:
        fit(args)


if __name__ == "__main__":
    main()
