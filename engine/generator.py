"""The generator behind torch.rand: a Mersenne twister seeded as torch.manual_seed seeds it
(numpy's legacy seeding of an integer is the same init_genrand), its 32-bit outputs turned into
floats as PyTorch's uniform_real_distribution turns them (24 bits for a float, 53 bits from two
outputs for a double, then `low + x * (high - low)`), so `torch.rand` and a new layer's initial
weights are PyTorch's numbers for the same seed, within the last bit.

Only uniform draws follow PyTorch's generator: its normal draws go through another algorithm,
so randn and the rest (normal, poisson, multinomial, randint_like, exponential_, cauchy_, geometric_,
log_normal_, random_) keep numpy's generator -- which manual_seed seeds too, so they repeat for a seed.
"""
import math

import numpy

__all__ = ["Mersenne", "manual_seed", "numpy_draws", "uniform_draws", "numpy_generator", "uniform_generator"]


class Mersenne:
    """mt19937 with PyTorch's seeding (the low 32 bits of the seed, init_genrand)."""

    def __init__(self, seed):
        self.seed(seed)

    def seed(self, seed):
        _, key, pos, _, _ = numpy.random.RandomState(seed & 0xFFFFFFFF).get_state(legacy=True)
        self._bits = numpy.random.MT19937()
        self._bits.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": pos}}

    def uniform(self, n, low, high, np_dtype):
        """n draws in [low, high) in a floating `np_dtype`, as PyTorch's uniform_ makes them."""
        dtype = numpy.dtype(np_dtype)
        if dtype == numpy.float64:
            raw = self._bits.random_raw(2 * n)
            bits = (raw[0::2] << numpy.uint64(32)) | raw[1::2]   # the first output is the high half
            x = (bits & numpy.uint64((1 << 53) - 1)).astype(numpy.float64) * 2.0 ** -53
            lo, hi = numpy.float64(low), numpy.float64(high)
            return x * (hi - lo) + lo
        digits = 11 if dtype == numpy.float16 else 24   # float16 draws 11 bits, computes in float
        raw = self._bits.random_raw(n)
        x = (raw & numpy.uint64((1 << digits) - 1)).astype(numpy.float32) * numpy.float32(2.0 ** -digits)
        lo, hi = (numpy.float32(dtype.type(v)) for v in (low, high))
        return (x * (hi - lo) + lo).astype(dtype)


numpy_generator = [None]  # behind randn, randint, ...: made on first use (importing numpy.random costs every start)
uniform_generator = [None]  # PyTorch's generator for uniform draws (Mersenne); seeded at random until manual_seed


def manual_seed(seed):
    """Seed the generators behind rand/randn/randint: rand's draws are PyTorch's for the same
    seed (Mersenne); randn, randint and the rest come from numpy's and differ.

    As PyTorch: any whole number from -2**63 to 2**64-1; a negative seed is the
    same as that seed plus 2**64 (so -1 and 2**64-1 give the same numbers)."""
    seed = int(seed)
    if not -(1 << 63) <= seed < (1 << 64):
        raise ValueError("Overflow when unpacking long long")
    numpy_generator[0] = numpy.random.default_rng(seed % (1 << 64))
    uniform_generator[0] = Mersenne(seed % (1 << 64))


def numpy_draws():
    """numpy's generator for the draws that do not follow PyTorch's (seeded at random until manual_seed)."""
    if numpy_generator[0] is None:
        numpy_generator[0] = numpy.random.default_rng()
    return numpy_generator[0]


def uniform_draws(shape, low, high, np_dtype):
    """An array of `shape` drawn uniformly in [low, high) as PyTorch's uniform_ draws it (a
    floating dtype), from the generator torch.manual_seed seeds."""
    if uniform_generator[0] is None:
        uniform_generator[0] = Mersenne(int(numpy.random.SeedSequence().entropy) % (1 << 64))
    return uniform_generator[0].uniform(math.prod(shape), low, high, np_dtype).reshape(shape)
