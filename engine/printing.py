"""`repr(tensor)` exactly as PyTorch 2.x prints it (torch/_tensor_str.py).

The rules, in the order PyTorch applies them:

* Formatting. One formatter per tensor looks at its nonzero finite values
  (those of the summarised data when the tensor is summarised). Floating
  tensors whose values are all integers print in *int mode* (`2.`, `-7.`);
  scientific notation is chosen when max/min of their magnitudes exceeds 1000,
  the max exceeds 1e8 or the min is below 1e-4 (unless `sci_mode` is forced);
  otherwise `precision` digits after the point. Every element is padded on the
  left to the widest formatted nonzero finite value, so columns line up;
  nan/inf/0 are not measured, only padded.
* Layout. A row holds `floor((linewidth - indent) / (width + 2))` elements (at
  least one) and wraps onto lines indented under its opening bracket. Rows of a
  d-dimensional slice are separated by `,` and d-1 newlines.
* Summarisation. Above `threshold` elements, every dimension longer than
  2*edgeitems shows its first and last `edgeitems` entries around `...`.
* Suffixes, in this order: `device='cuda:0'` (not cpu), `size=(0, 3)` (empty
  and not 1-d, or edgeitems == 0), `dtype=torch.float32` (not the default dtype,
  int64 or bool; an empty tensor shows any non-default dtype), then
  `grad_fn=<MulBackward0>` or else `requires_grad=True`. A suffix that would
  pass `linewidth` goes on its own line, indented by len("tensor(").

Only numpy, math and `.dtypes` are used, so any object with `array` (or
`__array__`), `dtype` (`.name`, `.is_floating_point`), `device`,
`requires_grad` and `grad_fn` (`.name()`) prints.
"""
import contextlib
import math

import numpy

from .dtypes import get_default_dtype
from .core.forward import tangent_of

__all__ = ["tensor_repr", "set_printoptions", "get_printoptions", "printoptions"]


class _PrintOptions:
    __slots__ = ("precision", "threshold", "edgeitems", "linewidth", "sci_mode")

    def __init__(self):
        self.precision = 4
        self.threshold = 1000
        self.edgeitems = 3
        self.linewidth = 80
        self.sci_mode = None


PRINT_OPTS = _PrintOptions()

_PROFILES = {
    "default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
    "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
    "full": dict(precision=4, threshold=math.inf, edgeitems=3, linewidth=80),
}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     profile=None, sci_mode=None):
    """PyTorch's `torch.set_printoptions`. As there, `sci_mode` is always set
    (to None, automatic, when not given); the other options keep their value."""
    if profile is not None:
        if profile not in _PROFILES:
            raise ValueError(f"unknown print profile {profile!r}; known: default, short, full")
        for key, value in _PROFILES[profile].items():
            setattr(PRINT_OPTS, key, value)
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions():
    """The current options, as keyword arguments for `set_printoptions`."""
    return {key: getattr(PRINT_OPTS, key) for key in _PrintOptions.__slots__}


@contextlib.contextmanager
def printoptions(**kwargs):
    """Temporarily changed print options (PyTorch's `torch.printoptions`)."""
    old = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old)


class _Formatter:
    """Width and style shared by every element of one tensor."""

    def __init__(self, values, floating):
        self.floating = floating
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        flat = values.reshape(-1)
        if not floating:
            if flat.size:
                if flat.dtype == numpy.bool_:
                    longest = "False" if not flat.all() else "True"
                else:
                    # the longest decimal of an integer array is its max or its min
                    longest = max(str(flat.min().item()), str(flat.max().item()), key=len)
                self.max_width = max(1, len(longest))
            return
        with numpy.errstate(all="ignore"):
            nonzero_finite = flat[numpy.isfinite(flat) & (flat != 0)]
            if nonzero_finite.size == 0:
                return
            magnitudes = numpy.abs(nonzero_finite).astype(numpy.float64)
            lo, hi = magnitudes.min(), magnitudes.max()
            self.int_mode = bool((nonzero_finite == numpy.ceil(nonzero_finite)).all())
            if PRINT_OPTS.sci_mode is None:
                self.sci_mode = bool(hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4)
            else:
                self.sci_mode = bool(PRINT_OPTS.sci_mode)
        p = PRINT_OPTS.precision
        values = nonzero_finite.tolist()
        if self.sci_mode:
            width = max(len(f"{v:.{p}e}") for v in values)
        elif self.int_mode:
            width = max(len(f"{v:.0f}") for v in values) + 1  # room for the "."
        else:
            width = max(len(f"{v:.{p}f}") for v in values)
        self.max_width = max(self.max_width, width)

    def format(self, value):
        if self.floating:
            if self.sci_mode:
                s = f"{value:{self.max_width}.{PRINT_OPTS.precision}e}"
            elif self.int_mode:
                s = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    s += "."
            else:
                s = f"{value:.{PRINT_OPTS.precision}f}"
        else:
            s = f"{value}"
        return (self.max_width - len(s)) * " " + s


def _summarized(a):
    """The values a summarised tensor shows (what its formatter measures)."""
    e = PRINT_OPTS.edgeitems
    if a.ndim == 0:
        return a
    if a.ndim == 1:
        # PyTorch concatenates a[:e] and a[-e:]; with e == 0 that is the whole row
        return numpy.concatenate((a[:e], a[-e:])) if a.shape[0] > 2 * e else a
    if not e:
        return a[tuple(slice(0, 0) for _ in range(a.ndim))]
    index = []
    for n in a.shape:
        index.append(numpy.r_[0:e, n - e:n] if n > 2 * e else numpy.arange(n))
    return a[numpy.ix_(*index)]


def _vector_str(a, indent, summarize, fmt):
    e = PRINT_OPTS.edgeitems
    per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / (fmt.max_width + 2)))
    if summarize and not e:
        data = ["..."]
    elif summarize and a.shape[0] > 2 * e:
        data = ([fmt.format(v) for v in a[:e].tolist()] + [" ..."]
                + [fmt.format(v) for v in a[-e:].tolist()])
    else:
        data = [fmt.format(v) for v in a.tolist()]
    lines = [", ".join(data[i:i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _nested_str(a, indent, summarize, fmt):
    """Recursion over dimensions only (at most a few dozen levels)."""
    if a.ndim == 0:
        return fmt.format(a.item())
    if a.ndim == 1:
        return _vector_str(a, indent, summarize, fmt)
    e = PRINT_OPTS.edgeitems
    n = a.shape[0]
    if summarize and n > 2 * e:
        rows = list(range(e)) + [None] + list(range(n - e, n))
    else:
        rows = range(n)
    slices = ["..." if i is None else _nested_str(a[i], indent + 1, summarize, fmt) for i in rows]
    return "[" + ("," + "\n" * (a.ndim - 1) + " " * (indent + 1)).join(slices) + "]"


def _tensor_str(a, floating, indent):
    if a.size == 0:
        return "[]"
    summarize = a.size > PRINT_OPTS.threshold
    fmt = _Formatter(_summarized(a) if summarize else a, floating)
    return _nested_str(a, indent, summarize, fmt)


def _add_suffixes(tensor_str, suffixes, indent):
    parts = [tensor_str]
    # as PyTorch counts it: two more than the last line's length
    last_line_len = len(tensor_str) - tensor_str.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def _host_array(t):
    a = getattr(t, "array", None)
    if isinstance(a, numpy.ndarray):
        return a
    return numpy.asarray(t)


def tensor_repr(t):
    """PyTorch's `repr` of tensor `t`."""
    prefix = "tensor("
    indent = len(prefix)
    suffixes = []

    device = t.device
    device_type = getattr(device, "type", None) or str(device).split(":")[0]
    if device_type != "cpu":
        suffixes.append(f"device='{device}'")

    a = _host_array(t)
    dtype = t.dtype
    default_name = get_default_dtype().name
    if a.size == 0:
        # an empty tensor shows its shape unless 1-d, and any non-default dtype
        if a.ndim != 1:
            suffixes.append("size=" + str(tuple(int(n) for n in a.shape)))
        if dtype.name != default_name:
            suffixes.append(f"dtype=torch.{dtype.name}")
        body = "[]"
    else:
        if not PRINT_OPTS.edgeitems:
            suffixes.append("size=" + str(tuple(int(n) for n in a.shape)))
        if dtype.name not in (default_name, "int64", "bool"):
            suffixes.append(f"dtype=torch.{dtype.name}")
        body = _tensor_str(a, bool(dtype.is_floating_point), indent)

    try:
        grad_fn = t.grad_fn
    except RuntimeError:  # a view made under no_grad whose base changed: its node can't be made (PyTorch)
        grad_fn, name = True, "Invalid"
    else:
        # PyTorch prints the node's class name: its name() without the C++ namespace
        name = grad_fn.name().rsplit("::", 1)[-1] if grad_fn is not None else None
    if grad_fn is not None:
        suffixes.append(f"grad_fn=<{name}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    tangent = tangent_of(t)
    if tangent is not None:  # a dual tensor (forward AD), as PyTorch prints one
        suffixes.append(f"tangent={tensor_repr(tangent)}")

    return _add_suffixes(prefix + body, suffixes, indent)
