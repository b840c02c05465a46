"""Random streams for the kernels: splitmix64 seeding and the xoshiro256++ generator.

Every block of deals owns one stream, seeded from ``(seed, block index)``; no stream is shared
between threads, so the numbers a block sees never depend on the thread count (see docs/
architecture.md, "Reproducibility"). The state is a uint64 array of shape (4,).

Two bounded draws, both Lemire's multiply-shift with rejection (exactly uniform): the card
policies draw from 32 bits of an output (:func:`below_scalar`), the shuffles from 16 bits
(:func:`bounded16`, four draws an output: a deck has at most 96 cards, so a draw is rejected with
probability below 96 / 2**16, and a shuffle needs a quarter of the generator's outputs).
"""

import numpy as np

from binokel_sim.kernels.options import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
MASK32 = np.uint64(0xFFFFFFFF)
MASK16 = np.uint64(0xFFFF)


@njit
def splitmix64(x):
    """One splitmix64 output for the 64-bit input ``x`` (a bijective integer hash)."""
    z = x + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit
def seed_stream(state, seed, block):
    """Fill ``state`` (uint64[4]) with the stream of block ``block`` under ``seed``."""
    x = splitmix64(np.uint64(seed)) ^ splitmix64(np.uint64(block) + _MIX2)
    for i in range(4):
        x = splitmix64(x + np.uint64(i))
        state[i] = x
    if state[0] == 0 and state[1] == 0 and state[2] == 0 and state[3] == 0:
        state[0] = _GOLDEN  # the all-zero state is the one xoshiro cannot leave


@njit(inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(inline="always")
def xoshiro_step(s0, s1, s2, s3):
    """xoshiro256++ on a state held in four scalars: ``(64 random bits, s0, s1, s2, s3)``.
    Hot loops keep the state in registers this way (an array might alias the deck)."""
    result = _rotl(s0 + s3, 23) + s0
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@njit(inline="always")
def bounded_scalar(x32, n, s0, s1, s2, s3):
    """A uniform integer in ``[0, n)`` (``1 <= n < 2**32``) from the 32 random bits ``x32``:
    Lemire's multiply-shift; in the rare rejection case (probability below n / 2**32) fresh bits
    come from the state, so there is no bias. Returns ``(draw, s0, s1, s2, s3)``."""
    bound = np.uint64(n)
    m = np.uint64(x32) * bound
    low = m & MASK32
    if low < bound:
        threshold = (np.uint64(0x100000000) - bound) % bound
        while low < threshold:
            r, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
            m = (r >> np.uint64(32)) * bound
            low = m & MASK32
    return np.int64(m >> np.uint64(32)), s0, s1, s2, s3


@njit(inline="always")
def below_scalar(n, s0, s1, s2, s3):
    """A uniform integer in ``[0, n)`` from the high 32 bits of the next output, on a state held
    in four scalars (hot loops keep it in registers): ``(draw, s0, s1, s2, s3)``."""
    r, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
    return bounded_scalar(r >> np.uint64(32), n, s0, s1, s2, s3)


@njit(inline="always")
def bounded16(x16, bound, s0, s1, s2, s3):
    """A uniform integer in ``[0, bound)`` (``1 <= bound <= 2**16``, uint64) from the 16 random
    bits ``x16`` (uint64): Lemire's multiply-shift on 16 bits. When the low half of the product
    falls below ``2**16 mod bound`` the draw is rejected and redrawn from the top 16 bits of the
    next output (probability below bound / 2**16), so there is no bias. Everything is unsigned:
    the result indexes the deck without numba's negative-index fix-up.
    Returns ``(draw, s0, s1, s2, s3)`` (draw uint64)."""
    m = x16 * bound
    if (m & MASK16) < bound:
        threshold = (np.uint64(0x10000) - bound) % bound
        while (m & MASK16) < threshold:
            r, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
            m = (r >> np.uint64(48)) * bound
    return m >> np.uint64(16), s0, s1, s2, s3
