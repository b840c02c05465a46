"""The play policies as the engine families take them: a policy's kernel id checked against what
a variant lets it play, the seats' kinds that choose a driver's specialisation, and the options
of the sampling policy. Shared by every family; what differs by family is asked of the family's
module (:func:`binokel_sim.engines.engine`).
"""

from __future__ import annotations

import numpy as np

from binokel_sim import expert_play
from binokel_sim.constants import EXACT_TRICKS, MAX_EXACT_TRICKS, MAX_SAMPLES_PER_MOVE
from binokel_sim.engines import engine
from binokel_sim.errors import SimulationError
from binokel_sim.families import TALON, engine_family, supports
from binokel_sim.kernels.knowledge import INFER_DECLARER, INFER_FULL, INFERENCE
from binokel_sim.kernels.policies import (
    POLICY_EXPERT,
    POLICY_NAMES,
    POLICY_RANDOM,
    POLICY_SAMPLING,
    POLICY_SOLVER,
)
from binokel_sim.kernels.strict.solver import MAX_CARDS
from binokel_sim.variants import Rules


def policy_id(name: str, rules: Rules) -> int:
    """The kernels' id of policy ``name``, checked against what ``rules`` lets it play: the
    ``heuristic+solver`` policy needs a two-player talon game whose phase-2 hands the exact
    solver takes (two-hand-48)."""
    try:
        policy = POLICY_NAMES[name]
    except KeyError:
        raise SimulationError(f"unknown policy {name!r}; known: "
                              f"{', '.join(POLICY_NAMES)}") from None
    if policy == POLICY_SAMPLING and not sampling_plays(rules):
        raise SimulationError(f"variant {rules.name}: policy {name} does not play it (it plays "
                              f"four-hand-80, the widow games and the talon games with free "
                              f"play in phase 1, with two players hands of at most "
                              f"{MAX_CARDS} cards, and sixty-six); use heuristic")
    if policy == POLICY_EXPERT and not expert_plays(rules):
        raise SimulationError(f"variant {rules.name}: policy expert plays the variants its "
                              f"knobs are fitted for ({', '.join(expert_play.fitted_variants())}; "
                              f"scripts/fit_expert.py fits more); use heuristic")
    if policy == POLICY_SOLVER and not solver_plays(rules):
        raise SimulationError(f"variant {rules.name}: policy {name} solves phase 2 of a "
                              f"two-player talon game (hands of at most {MAX_CARDS} cards, as "
                              f"two-hand-48); use heuristic")
    return policy


def expert_plays(rules: Rules) -> bool:
    """Whether the ``expert`` policy plays ``rules``: asked of its engine family (its knobs are
    fitted for the variant, :mod:`binokel_sim.expert_play`)."""
    return engine(rules).expert_plays(rules)


def default_policy(rules: Rules) -> str:
    """The policy ``bid-odds``, ``deal-odds``, ``batch``, ``report``, ``calibrate`` and the
    page play when none is named: ``expert`` where it plays the variant, else ``heuristic``;
    the output names it."""
    return "expert" if expert_plays(rules) else "heuristic"


def solver_plays(rules: Rules) -> bool:
    """Whether the exact solver can play ``rules``' phase 2 (``solve`` and the
    ``heuristic+solver`` policy): two players, a talon, at most MAX_CARDS cards a hand."""
    return (engine_family(rules) == TALON and rules.players == 2 and supports(rules, "solve")
            and rules.hand_size <= MAX_CARDS)


def sampling_plays(rules: Rules) -> bool:
    """Whether the ``sampling`` policy plays ``rules``: asked of its engine family
    (``sampling_plays`` of :mod:`binokel_sim.engines.partnership`, ``.talon``, ``.widow``)."""
    return engine(rules).sampling_plays(rules)


def sampled(*policies: int) -> bool:
    """Whether one of ``policies`` (kernel ids) is the sampling policy."""
    return POLICY_SAMPLING in policies


def policy_kinds(*policies) -> tuple[np.int64 | None, np.int64 | None]:
    """The talon and widow drivers' ``smart`` and ``search`` for the seats' policies (kernel
    ids: arrays or single ids): ``smart`` None when every one is random (the item loop then
    runs without policy code), ``search`` None when none plays the solver or the sampling
    policy (neither is compiled in). Each pair is a specialisation of its own, compiled on its
    first use: a heuristic run does not wait for the sampling policy's compile."""
    ids = np.concatenate([np.atleast_1d(np.asarray(p, dtype=np.int64)) for p in policies])
    smart = None if bool((ids == POLICY_RANDOM).all()) else np.int64(1)
    search = (np.int64(1) if bool(((ids == POLICY_SOLVER) | (ids == POLICY_SAMPLING)).any())
              else None)
    return smart, search


def show_rows(rules: Rules) -> np.ndarray:
    """The meld sets a player shows (``kernels.knowledge.shown_of``), from the rules' meld table:
    int64 (n, 3), per row the card types of one set (mask), when it applies (-1 always, ``s``
    only when suit ``s`` is trump, ``4 + s`` only when it is not) and the most sets the table
    counts. A fixed meld (around, cards) is one row, a suit meld one row per suit."""
    rows = []
    for meld in rules.melds:
        if meld.scope in ("around", "cards"):
            rows.append((meld.type_mask, -1, meld.counted_sets))
            continue
        for suit in range(4):
            when = {"trump": suit, "non_trump": 4 + suit}.get(meld.scope, -1)
            rows.append((meld.type_mask << (6 * suit), when, meld.counted_sets))
    return np.array(rows, dtype=np.int64).reshape(-1, 3)


def shown_if_sampled(rules: Rules, *policies: int) -> np.ndarray | None:
    """The drivers' ``show_rows``: :func:`show_rows` when one of ``policies`` samples, else None,
    which leaves the sampling loop out of the compiled driver
    (``kernels.partnership.deals.sampler_of``)."""
    return show_rows(rules) if sampled(*policies) else None


def check_samples_per_move(samples_per_move: int) -> None:
    if not 1 <= samples_per_move <= MAX_SAMPLES_PER_MOVE:
        raise SimulationError(f"--samples-per-move must be 1 to {MAX_SAMPLES_PER_MOVE:,} "
                              f"(got {samples_per_move:,})")


def exact_tricks_of(exact_tricks: tuple[int, int] | None, a: int, b: int) -> np.ndarray:
    """``duel --exact-tricks``: A's and B's tricks left that their sampling play-outs solve
    exactly, int64 (2,) (:data:`~binokel_sim.constants.EXACT_TRICKS` each when None); refused
    out of range, or set for a side that does not play the sampling policy (it would change
    nothing)."""
    if exact_tricks is None:
        return np.full(2, EXACT_TRICKS, dtype=np.int64)
    for side, policy, k in (("A", a, exact_tricks[0]), ("B", b, exact_tricks[1])):
        if not 0 <= k <= MAX_EXACT_TRICKS:
            raise SimulationError(f"--exact-tricks: {k} for {side} is not 0..{MAX_EXACT_TRICKS}")
        if k != EXACT_TRICKS and policy != POLICY_SAMPLING:
            raise SimulationError(f"--exact-tricks: {side} does not play the sampling policy; "
                                  f"its {k} would change nothing")
    return np.array(exact_tricks, dtype=np.int64)


def sampling_options(rules: Rules, samples_per_move: int | None) -> dict:
    """The keyword a family's driver takes for the sampling policy: ``samples_per_move``, where
    the policy plays (:func:`sampling_plays`), checked
    (:func:`check_samples_per_move`); none when it is the default."""
    if samples_per_move is None:
        return {}
    if not sampling_plays(rules):
        raise SimulationError(f"variant {rules.name}: --samples-per-move is the sampling "
                              f"policy's, which does not play this variant")
    check_samples_per_move(samples_per_move)
    return {"samples_per_move": samples_per_move}


def inference_id(inference: str, rules: Rules, *policies: int) -> int:
    """The kernels' id of what the sampling policy's deals respect of the table's inferences
    (``duel --inference``: ``full``, ``declarer``, ``off``; ``kernels.knowledge.INFERENCE``),
    checked: other than ``full`` it needs a sampling seat among ``policies`` (kernel ids) and a
    game whose sampling seats infer (not a two-player talon game: its phase 1 infers nothing and
    its phase 2 is solved exactly), and ``declarer`` a game with one: the bid winner, the widow
    games' soloist (the talon games have none)."""
    try:
        infer = INFERENCE[inference]
    except KeyError:
        raise SimulationError(f"unknown --inference {inference!r}; known: "
                              f"{', '.join(INFERENCE)}") from None
    if infer == INFER_FULL:
        return infer
    if not sampled(*policies):
        raise SimulationError(f"--inference {inference} sets what the sampling policy infers; "
                              f"neither policy is sampling")
    if rules.players == 2:
        raise SimulationError(f"variant {rules.name}: the sampling policy infers nothing "
                              f"there (phase 1 is free play, phase 2 is solved exactly), so "
                              f"--inference {inference} would change nothing")
    if infer == INFER_DECLARER and engine_family(rules) == TALON:
        raise SimulationError(f"variant {rules.name}: no declarer (nobody wins a bid); use "
                              f"--inference full or off")
    return infer
