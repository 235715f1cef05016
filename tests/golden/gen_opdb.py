"""Regenerate tests/golden/opdb/*.json.gz from PyTorch's own op database: for every OpInfo of
torch.testing._internal.common_methods_invocations.op_db, its sample inputs (float64 and float32,
requires_grad=True) with PyTorch's outputs, a vector-Jacobian product with a fixed cotangent and a
second-order product; plus copies of the first float64 samples with edge values (nan, +-inf,
+-0, ties) and PyTorch's outputs and VJP on them (or the error type it raises).

Run with a Python that has PyTorch 2.13 and expecttest (`pip install torch==2.13.0 expecttest`;
neither is a dependency of the test suite):

    python tests/golden/gen_opdb.py            # every op
    python tests/golden/gen_opdb.py abs addmm  # only these OpInfos (by name), others kept

Every op of op_db is recorded whether or not autodiff has it: tests/engine/test_opdb.py replays
the samples of each op it finds in our API (function, Tensor method or namespace) and skips the
rest, so an op added later is checked without regenerating. tests/golden/opdb/missing.txt (the
ops we lack) is written by the test (`python tests/engine/test_opdb.py --write-missing`).

The format (one file an OpInfo, named by `key`):
  {"name", "variant", "key", "aten_name", "calls": [call form, ...] (the first one we have is
   used: ["function", "torch.x.y"], ["function_swapped", "torch.where"] (the sample's first
   argument goes first, its input second), ["method", "name"], ["attribute", "T"]),
   "gradgrad": bool, "skipped": {reason: count}, "samples": [sample, ...]}
  sample = {"dtype", "index", "input", "args", "kwargs", "out", "vjp", "vjp2", "edge"?}
A value: a tensor is {"T": dtype, "s": shape, "v": flat values, "g": requires_grad}; a tuple
{"tuple": [...]}, a list a JSON list, a dtype {"dtype": name}, a float that JSON cannot spell
{"f": "nan"/"inf"/"-inf"}, and -0.0 {"f": "-0"}. "vjp" is the list, one per tensor of the
sample that requires grad (in the order of `leaves` below), of d<out, W>/d leaf with W from
`weights` (null where unused); "vjp2" the same of d<vjp, V>/d leaf, with V from `weights` too;
either may be {"error": type name} where PyTorch raised, or absent where PyTorch does not
differentiate the op (twice). Outputs and derivatives keep 12 significant digits (float64)
or 9 (float32), well inside the tolerances; inputs are exact.

Samples are capped per op and dtype (MAX_SAMPLES, first ones in op_db's order, with seed 0) and
those with a tensor of more than MAX_NUMEL elements are left out (counted in "skipped"; the one
20 x 20 sample of an elementwise unary op is cut to its first 5 rows first), so the
files stay a few MB.
"""
import gzip
import json
import math
import os
import sys
import warnings

import numpy
import torch
from torch.testing._internal.common_methods_invocations import op_db

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "opdb")
sys.path.insert(0, HERE)
import opdb_walk as walk  # noqa: E402  (the replay walks the samples with the same functions)
MAX_SAMPLES = {torch.float64: 10, torch.float32: 3}
MAX_EDGE = 2            # float64 samples copied with edge values (the first ones of 2 elements or more)
MAX_NUMEL = 300         # per tensor
BIG_NUMEL = 1200        # per tensor, for the one sample of an op (and dtype) whose samples are all larger
LIMIT = [MAX_NUMEL]     # the one in force
UNARY_ROWS = 5          # of an elementwise unary op's 20 x 20 sample
DIGITS = {torch.float64: 12, torch.float32: 9}

# Ops whose results are random or uninitialised memory: nothing to compare.
RANDOM = {"cauchy", "exponential", "geometric", "log_normal", "normal", "uniform", "randn",
          "randn_like", "rand_like", "randint", "randint_like", "multinomial", "bernoulli",
          "empty_like", "empty", "empty_strided", "empty_permuted", "new_empty", "new_empty_strided",
          "nn.functional.dropout", "nn.functional.dropout2d", "nn.functional.dropout3d",
          "nn.functional.alpha_dropout", "nn.functional.feature_alpha_dropout", "nn.functional.rrelu",
          "nn.functional.fractional_max_pool2d", "nn.functional.fractional_max_pool3d", "svd_lowrank",
          "pca_lowrank", "torch._scaled_mm", "torch._scaled_mm_v2", "hash_tensor"}
SWAPPED = {"where": "torch.where", "polygamma": "torch.polygamma", "special.polygamma": "torch.special.polygamma",
           "einsum": "torch.einsum", "nn.functional.embedding": "torch.nn.functional.embedding",
           "nn.functional.embedding_bag": "torch.nn.functional.embedding_bag"}
ATTRIBUTES = {"T", "H", "mT", "mH"}
METHODS = {"item"}  # OpInfos whose op is a lambda around the Tensor method


def weights(n, salt):
    """n fixed values in [-1, 1): the cotangent (salt 0) and the second-order vector (salt 1)
    of a flattened output or input; the test computes the same."""
    return (numpy.arange(n) * 0.6180339887498949 + 0.3 + 0.17 * salt) % 1.0 * 2.0 - 1.0


class Unserialisable(Exception):
    pass


def number(x, digits=None):
    if isinstance(x, float):
        if math.isnan(x):
            return {"f": "nan"}
        if math.isinf(x):
            return {"f": "inf" if x > 0 else "-inf"}
        if x == 0 and math.copysign(1, x) < 0:
            return {"f": "-0"}
        if digits:
            return float(f"{x:.{digits}g}")
    return x


def tensor_json(t, digits=None):
    if t.layout != torch.strided or t.is_complex() or t.is_quantized:
        raise Unserialisable("complex or sparse tensor")
    if t.dtype in (torch.float16, torch.bfloat16, torch.complex32):
        raise Unserialisable(f"{t.dtype} tensor")
    if t.numel() > LIMIT[0]:
        raise Unserialisable("tensor over MAX_NUMEL elements")
    if t._is_zerotensor():   # PyTorch's efficient zeros (a gradient known to be 0) have no storage
        t = torch.zeros(t.shape, dtype=t.dtype)
    values = t.detach().reshape(-1).tolist()
    if t.dtype.is_floating_point:
        values = [number(float(v), digits) for v in values]
    return {"T": str(t.dtype).replace("torch.", ""), "s": list(t.shape), "v": values, "g": bool(t.requires_grad)}


def to_json(x, digits=None):
    if isinstance(x, torch.Tensor):
        return tensor_json(x, digits)
    if x is None or isinstance(x, (bool, int, str)):
        return x
    if isinstance(x, float):
        return number(x, digits)
    if isinstance(x, torch.dtype):
        if x.is_complex:
            raise Unserialisable("complex dtype")
        return {"dtype": str(x).replace("torch.", "")}
    if isinstance(x, torch.Size):
        return {"tuple": list(x)}
    if isinstance(x, tuple):
        return {"tuple": [to_json(v, digits) for v in x]}
    if isinstance(x, list):
        return [to_json(v, digits) for v in x]
    if isinstance(x, dict):
        return {"dict": {k: to_json(v, digits) for k, v in x.items()}}
    if isinstance(x, torch.memory_format):
        return {"memory_format": str(x).replace("torch.", "")}
    if isinstance(x, torch.device):
        return {"device": str(x)}
    if x is Ellipsis:
        return {"ellipsis": True}
    if isinstance(x, slice):
        return {"slice": [to_json(x.start), to_json(x.stop), to_json(x.step)]}
    raise Unserialisable(f"argument of type {type(x).__name__}")


def calls(op):
    """The ways to call the op by name, best first."""
    name = op.name
    if name in SWAPPED:
        return [["function_swapped", SWAPPED[name]]]
    if name in ATTRIBUTES:
        return [["attribute", name]]
    if name in METHODS:
        return [["method", name]]
    forms = []
    target = torch
    for part in name.split("."):
        target = getattr(target, part, None)
    if target is not None and (target is op.op or "." in name or name.startswith("__")) and not name.startswith("_"):
        forms.append(["function", "torch." + name])
    elif target is not None and target is op.op:
        forms.append(["function", "torch." + name])
    if op.method_variant is not None and "." not in name:
        forms.append(["method", name])
    if name.startswith("__r"):
        forms = [["method", name]]
    return forms


def differentiate(op, sample, digits):
    """(vjp, vjp2) of one sample: JSON lists, or {"error": ...}, or None where not asked."""
    xs = walk.leaves([sample.input, list(sample.args), sample.kwargs], torch.Tensor)
    if not xs or not op.supports_autograd:
        return None, None
    y = op(sample.input, *sample.args, **sample.kwargs)
    ys = [t for t in walk.outputs(y, torch.Tensor) if t.requires_grad and t.dtype.is_floating_point]
    if not ys:
        return None, None
    ws = [torch.tensor(weights(t.numel(), 0), dtype=t.dtype).reshape(t.shape) for t in ys]
    try:
        gs = torch.autograd.grad(ys, xs, ws, create_graph=op.supports_gradgrad, allow_unused=True)
    except Exception as e:  # noqa: BLE001
        return {"error": type(e).__name__}, None
    vjp = [None if g is None else tensor_json(g, digits) for g in gs]
    if not op.supports_gradgrad:
        return vjp, None
    terms = [(g * torch.tensor(weights(g.numel(), 1), dtype=g.dtype).reshape(g.shape)).sum()
             for g in gs if g is not None and g.requires_grad]
    if not terms:
        return vjp, [None] * len(xs)
    try:
        gg = torch.autograd.grad(sum(terms), xs, allow_unused=True)
    except Exception as e:  # noqa: BLE001
        return vjp, {"error": type(e).__name__}
    return vjp, [None if g is None else tensor_json(g, digits) for g in gg]


def record(op, sample, dtype, index):
    item = {"dtype": str(dtype).replace("torch.", ""), "index": index,
            "input": to_json(sample.input), "args": to_json(list(sample.args)), "kwargs": to_json(dict(sample.kwargs))}
    y = op(sample.input, *sample.args, **sample.kwargs)
    item["out"] = to_json(y, DIGITS[dtype])
    vjp, vjp2 = differentiate(op, sample, DIGITS[dtype])
    if vjp is not None:
        item["vjp"] = vjp
    if vjp2 is not None:
        item["vjp2"] = vjp2
    return item


def edge_copies(sample):
    """Copies of a sample's first floating tensor (and of the others of its shape) with edge
    values: (name, sample)."""
    from torch.testing._internal.opinfo.core import SampleInput
    floats = [t for t in [sample.input, *sample.args, *sample.kwargs.values()]
              if isinstance(t, torch.Tensor) and t.dtype.is_floating_point]
    if not floats or floats[0].numel() < 2:
        return []
    first = floats[0]

    def copy(x, change):
        if isinstance(x, torch.Tensor):
            if x.dtype.is_floating_point and (x is first or x.shape == first.shape):
                v = x.detach().clone()
                change(v, x is first)
                return v.requires_grad_(x.requires_grad)
            return x
        if isinstance(x, (list, tuple)):
            return type(x)(copy(v, change) for v in x)
        return x

    def nonfinite(v, is_first):
        if is_first:
            flat = v.view(-1)
            for k, e in enumerate([math.nan, math.inf, -math.inf][:flat.numel()]):
                flat[k] = e

    def zeros(v, is_first):
        if is_first:
            flat = v.view(-1)
            flat[::2] = 0.0
            flat[1::4] = -0.0

    def ties(v, is_first):
        flat = v.view(-1)
        if is_first:
            flat[1] = flat[0]
        else:   # the other tensors of its shape equal it in their first half
            half = (flat.numel() + 1) // 2
            flat[:half] = first.detach().reshape(-1)[:half]

    out = []
    for name, change in (("nonfinite", nonfinite), ("zeros", zeros), ("ties", ties)):
        with torch.no_grad():
            args = copy(list(sample.args), change)
            kwargs = {k: copy(v, change) for k, v in sample.kwargs.items()}
            inp = copy(sample.input, change)
        out.append((name, SampleInput(inp, args=tuple(args), kwargs=kwargs)))
    return out


def record_edge(op, name, sample, index):
    item = {"dtype": "float64", "index": index, "edge": name, "input": to_json(sample.input),
            "args": to_json(list(sample.args)), "kwargs": to_json(dict(sample.kwargs))}
    try:
        y = op(sample.input, *sample.args, **sample.kwargs)
    except Exception as e:  # noqa: BLE001
        item["out"] = {"error": type(e).__name__}
        return item
    item["out"] = to_json(y, DIGITS[torch.float64])
    xs = walk.leaves([sample.input, list(sample.args), sample.kwargs], torch.Tensor)
    ys = [t for t in walk.outputs(y, torch.Tensor) if t.requires_grad and t.dtype.is_floating_point]
    if xs and ys and op.supports_autograd:
        ws = [torch.tensor(weights(t.numel(), 0), dtype=t.dtype).reshape(t.shape) for t in ys]
        try:
            gs = torch.autograd.grad(ys, xs, ws, allow_unused=True)
            item["vjp"] = [None if g is None else tensor_json(g, DIGITS[torch.float64]) for g in gs]
        except Exception as e:  # noqa: BLE001
            item["vjp"] = {"error": type(e).__name__}
    return item


def shrink(op, sample):
    """An elementwise unary op's one big sample (20 x 20) cut to its first UNARY_ROWS rows."""
    from torch.testing._internal.opinfo.core import SampleInput, UnaryUfuncInfo
    x = sample.input
    if isinstance(op, UnaryUfuncInfo) and isinstance(x, torch.Tensor) and x.dim() >= 1 and x.shape[0] > UNARY_ROWS:
        with torch.no_grad():
            x = x[:UNARY_ROWS].clone()
        return SampleInput(x.requires_grad_(sample.input.requires_grad), args=sample.args, kwargs=sample.kwargs)
    return sample


def key(op):
    return op.name + ("." + op.variant_test_name if op.variant_test_name else "")


def generate(op):
    entry = {"name": op.name, "variant": op.variant_test_name, "key": key(op), "aten_name": op.aten_name,
             "calls": calls(op), "gradgrad": bool(op.supports_gradgrad), "skipped": {}, "samples": []}
    skipped = entry["skipped"]

    def skip(reason):
        skipped[reason] = skipped.get(reason, 0) + 1

    if op.name in RANDOM:
        skip("random or uninitialised results")
        return entry
    supported = op.supported_dtypes("cpu")
    for dtype in (torch.float64, torch.float32):
        if dtype not in supported:
            skip(f"{dtype} not supported by PyTorch's op")
            continue
        before = len(entry["samples"])
        take(op, dtype, entry, skip, MAX_SAMPLES[dtype])
        if len(entry["samples"]) == before and skipped.get("tensor over MAX_NUMEL elements"):
            LIMIT[0] = BIG_NUMEL
            try:
                take(op, dtype, entry, lambda reason: None, 1)
            finally:
                LIMIT[0] = MAX_NUMEL
            if len(entry["samples"]) > before:
                skip("tensor over MAX_NUMEL elements, one sample under BIG_NUMEL taken instead")
    return entry


def random_sample(sample):
    """A sample whose results are random though its op's are not (scaled_dot_product_attention's
    with dropout_p > 0): nothing to compare."""
    p = sample.kwargs.get("dropout_p", 0.0)
    return isinstance(p, (int, float)) and p > 0


def take(op, dtype, entry, skip, most):
    """Record up to `most` samples of op in dtype into entry (and the edge copies of the first)."""
    torch.manual_seed(0)
    taken = edged = 0
    try:
        samples = op.sample_inputs("cpu", dtype, requires_grad=op.supports_autograd)
        for index, sample in enumerate(samples):
            if taken >= most or index >= 60:
                break
            sample = shrink(op, sample)
            if random_sample(sample):
                skip("random results (dropout_p > 0)")
                continue
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    item = record(op, sample, dtype, index)
            except Unserialisable as e:
                skip(str(e))
                continue
            except Exception as e:  # noqa: BLE001
                skip(f"PyTorch raises {type(e).__name__}")
                continue
            entry["samples"].append(item)
            taken += 1
            copies = edge_copies(sample) if dtype == torch.float64 and edged < MAX_EDGE else []
            edged += bool(copies)
            for name, edge in copies:
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        entry["samples"].append(record_edge(op, name, edge, index))
                except Unserialisable as e:
                    skip(str(e))
    except Exception as e:  # noqa: BLE001
        skip(f"sample_inputs raises {type(e).__name__}")


def main(only):
    os.makedirs(OUT, exist_ok=True)
    torch.set_num_threads(1)
    for op in op_db:
        if only and op.name not in only and key(op) not in only:
            continue
        entry = generate(op)
        path = os.path.join(OUT, key(op).replace("/", "_") + ".json.gz")
        text = json.dumps(entry, separators=(",", ":"), allow_nan=False).encode()
        with open(path, "wb") as f:   # mtime 0: the same bytes every run
            with gzip.GzipFile(fileobj=f, mode="wb", mtime=0, filename="") as z:
                z.write(text)
        print(f"{key(op)}: {len(entry['samples'])} samples, skipped {entry['skipped']}", flush=True)


if __name__ == "__main__":
    main(set(sys.argv[1:]))
