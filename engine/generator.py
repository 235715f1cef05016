"""The generator behind torch.rand: a Mersenne twister seeded as torch.manual_seed seeds it
(numpy's legacy seeding of an integer is the same init_genrand), its 32-bit outputs turned into
floats as PyTorch's uniform_real_distribution turns them (24 bits for a float, 53 bits from two
outputs for a double, then `low + x * (high - low)`), so `torch.rand` and a new layer's initial
weights are PyTorch's numbers for the same seed, within the last bit.

Only uniform draws follow PyTorch's generator: its normal draws go through another algorithm,
so randn and the rest keep numpy's generator.
"""
import numpy

__all__ = ["Mersenne"]


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
