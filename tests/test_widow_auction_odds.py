"""Bid odds given the auction in the widow games (issue 52, item 4; docs/rules.md "Widow bid
odds"): ``bid-odds --auction`` deals the other hands again until their policy would have made
their calls. The kernel's test (``fits_auction``) against its twin, the true hands of played
deals always fitting their own auction, the odds moving with the calls, and the bad inputs.
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from conftest import assert_one_line_error, invoke, ok

from binokel_sim.bidding import parse_auction
from binokel_sim.cards import planes_to_counts
from binokel_sim.constants import NO_BID
from binokel_sim.engines import widow
from binokel_sim.engines.policies import policy_id
from binokel_sim.errors import AuctionTooRare, SimulationError
from binokel_sim.kernels.widow.deals import I_CALLS, AuctionScratch, fits_auction
from binokel_sim.reference import widow as twin
from binokel_sim.variants import find_variant

BIDDING = ["swabian-3-40", "kreuz-4-40", "three-hand-auction-48", "four-hand-widow-48"]


def kernel_fits(rules, hands, policy, calls):
    p = rules.players
    scratch = AuctionScratch(np.empty(4, np.int64), np.empty(p, np.int64),
                             np.empty(p, np.bool_), np.zeros((p, 4), np.int64))
    seats = np.full(p, policy_id(policy, rules), dtype=np.int64)
    return bool(fits_auction(hands, seats, widow.family_tables(rules), scratch,
                             widow.given_auction(calls)))


def cut_auctions(rules, policy, deals, seed):
    """Per played deal: the hands rotated so that the soloist is seat 0, and his auction's
    calls (seats rotated likewise) cut before the soloist's last call, ``(seat, bid)``."""
    played = widow.run_play(rules, deals, seed, policy)
    p = rules.players
    for d in range(deals):
        solo = int(played.info[d, 0])
        hands = np.array([played.hands[d, (solo + k) % p] for k in range(p)], dtype=np.uint32)
        calls = [((int(played.bid_seats[d, k]) - solo) % p, int(played.bid_values[d, k]))
                 for k in range(int(played.info[d, I_CALLS]))]
        mine = [k for k, (s, _) in enumerate(calls) if s == 0]
        yield d, hands, calls[:mine[-1]] if mine else calls


@pytest.mark.parametrize("name", BIDDING)
def test_the_true_hands_fit_their_own_auction(name):
    """300 expert and 300 heuristic deals: the other seats' real hands always fit the calls
    they made (kernel and twin), so conditioning never rules out the deal that happened."""
    rules = find_variant(name)
    for policy in ("expert", "heuristic"):
        n = 0
        for _, hands, calls in cut_auctions(rules, policy, 300, 4):
            if not calls:
                continue
            assert kernel_fits(rules, hands, policy, calls)
            counts = [list(planes_to_counts(h)) for h in hands]
            assert twin.fits_auction(rules, counts, [policy] * rules.players,
                                     [(s, None if b == NO_BID else b) for s, b in calls])
            n += 1
        assert n > 200


@pytest.mark.parametrize("name", BIDDING)
def test_fits_auction_kernel_equals_twin(name):
    """Each deal's hands against the calls of the next deal's auction: some fit, some do not,
    and the kernel says what the twin says."""
    rules = find_variant(name)
    cases = list(cut_auctions(rules, "expert", 200, 9))
    verdicts = []
    for (_, hands, _), (_, _, calls) in zip(cases, cases[1:] + cases[:1]):
        counts = [list(planes_to_counts(h)) for h in hands]
        kernel = kernel_fits(rules, hands, "expert", calls)
        assert kernel == twin.fits_auction(rules, counts, ["expert"] * rules.players,
                                           [(s, None if b == NO_BID else b) for s, b in calls])
        verdicts.append(kernel)
    assert 10 < sum(verdicts) < len(verdicts) - 10


def odds(args):
    return json.loads(ok("bid-odds", *args, "--format", "json").stdout)


def test_swabian_odds_given_the_auction():
    """An opponent who bid on to 290: each sample took several deals, the odds move (the
    same seed, other hands), and the provenance and the widow section say what was conditioned
    on."""
    hand = ["-v", "swabian-3-40", "--hand", "AS TS KS QS AH KH QH JD AC TC KD QD",
            "--deals", "1500", "--seed", "3"]
    calls = " ".join(["150", "pass"] + [str(v) for v in range(160, 300, 10)])
    plain = odds(hand)
    given = odds(hand + ["--auction", calls, "--dealer", "right"])
    assert given["provenance"]["auction"] == calls
    assert given["provenance"]["dealer"] == "right"
    assert given["deals_per_sample"] > 2 and "deals_per_sample" not in plain
    assert given["widow"]["given_auction"] is False
    assert given["widow"]["distribution"] == plain["widow"]["distribution"]  # exact, as said
    assert given["rows"] != plain["rows"]


def test_auction_input_errors():
    rules = find_variant("swabian-3-40")
    with pytest.raises(SimulationError, match="after the auction ended \\(2 passes\\)"):
        parse_auction(rules, "150 pass pass 160", 0)
    opens = dataclasses.replace(rules, all_pass="vorhand_opens")
    with pytest.raises(SimulationError, match="Vorhand .* must open"):
        parse_auction(opens, "weg", 0)
    assert parse_auction(rules, "weg 150", 0) == [(1, NO_BID), (2, 150)]
    hand = ["bid-odds", "-v", "kreuz-4-40", "--hand", "AC AC TC KC QC JC AS KS QH"]
    for extra, message in ((["--auction", "150"], "--auction and --dealer go together"),
                           (["--auction", "pass", "--dealer", "right"], "own seat passed"),
                           (["--auction", "155", "--dealer", "right"], "the next legal bid")):
        assert_one_line_error(invoke(*hand, *extra), message)


def test_an_unlikely_auction_is_refused():
    """Opponents who bid to 600 with the hand holding most of the deck's meld: no deal fits in
    a few tries, and the run says so instead of answering."""
    rules = find_variant("swabian-3-40")
    counts = np.zeros(24, dtype=np.int64)
    for card in (5, 5, 4, 3, 2, 1, 17, 17, 16, 15, 14, 13):  # spades and diamonds A K Q J x2
        counts[card] += 1
    calls = [(1, 150), (2, 600)]
    with pytest.raises(AuctionTooRare, match="in 5 tries"):
        widow.run_samples(rules, counts, 64, 1, "expert", auction=calls, max_draws=5,
                          dealer=0)
