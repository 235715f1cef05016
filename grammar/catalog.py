"""The catalogue of what a program can name: `autodiff functions` and the REPL's `help`.

Read-only and built from the same tables the language resolves names with
(grammar/names.py: the bare names, `torch.`, its namespaces and the Tensor
attributes a program may use), so it lists exactly what resolves and
nothing else. Each entry's group comes from the op table (the family module
of the row behind the name) or from where the engine defines the function;
its one-line summary from a short description written here for the names
whose docstring is missing or too terse, else from the first sentence of
the docstring (the function's, else its op-table row's).

An entry folds the forms of one function together: `sin` is also
`torch.sin`, the method `x.sin()` and the in-place `sin_` / `x.sin_()`;
those spellings are the entry's `also` (and a filter matches them too).
"""
import inspect
import re

from .. import engine as E
from ..engine import functions as _functions
from . import names as N

__all__ = ["Entry", "catalog", "lookup", "search", "GROUPS"]

# The groups, in the order they are listed.
GROUPS = ("Creation", "Arithmetic", "Elementwise maths", "Reductions and statistics", "Linear algebra",
          "Shapes, views and indexing", "Comparisons and logic (no gradient)", "Random", "Autograd",
          "Grad mode", "Optimisers", "Dtypes, devices and settings", "Printing", "Python built-ins", "Exceptions",
          "Constants", "Neural-network functions", "Neural-network layers and losses", "Testing", "Tensor methods", "Tensor attributes", "Namespaces",
          "Other")

# the op table's families (engine/ops/<module>.py) and the engine's function modules
_FAMILY = {"arithmetic": "Arithmetic", "unary": "Elementwise maths", "reductions": "Reductions and statistics",
           "linalg": "Linear algebra", "shapes": "Shapes, views and indexing",
           "views": "Shapes, views and indexing", "compare": "Comparisons and logic (no gradient)",
           "functions_linalg": "Linear algebra", "linalg_ns": "Linear algebra",
           "functions_shapes": "Shapes, views and indexing", "functions_stats": "Reductions and statistics",
           "indexing": "Shapes, views and indexing", "functions_indexing": "Shapes, views and indexing",
           "activations": "Neural-network functions", "functional": "Neural-network functions",
           "distances": "Linear algebra", "functions_distances": "Linear algebra",
           "normalization": "Neural-network functions", "functional_layers": "Neural-network functions",
           "modules_layers": "Neural-network layers and losses",
           "testing": "Testing", "gradcheck": "Autograd", "modules": "Neural-network layers and losses",
           "init": "Neural-network layers and losses", "functions_elem": "Arithmetic",
           "shrink": "Neural-network functions", "convolution": "Neural-network functions",
           "functional_conv": "Neural-network functions", "modules_conv": "Neural-network layers and losses"}
_FAMILY.update(special="Elementwise maths")  # engine/ops/special.py: lgamma, digamma, polygamma, i0, mvlgamma
_FAMILY.update(windows="Creation")  # engine/functions/windows.py: hann_window..., torch.signal.windows

_GROUP_OF = {}
for _group, _names in {
    "Creation": "tensor as_tensor zeros ones empty full zeros_like ones_like empty_like full_like eye arange "
                "linspace rand randn randint rand_like randn_like clone",
    "Random": "bernoulli rand randn randint randperm rand_like randn_like manual_seed normal poisson multinomial randint_like",
    "Arithmetic": "add sub subtract mul multiply div divide true_divide pow square lerp",
    "Elementwise maths": "clamp clip clamp_min clamp_max maximum minimum where round abs",
    "Reductions and statistics": "sum mean prod max min amax amin norm softmax log_softmax logsumexp",
    "Comparisons and logic (no gradient)": "argmax argmin all any equal allclose isclose is_tensor "
                                           "is_floating_point numel",
    "Shapes, views and indexing": "fill_ zero_ copy_ to",
    "Autograd": "grad backward jacobian hessian gradcheck gradgradcheck detach",
    "Grad mode": "no_grad enable_grad set_grad_enabled inference_mode is_grad_enabled "
                 "is_inference_mode_enabled is_inference",
    "Optimisers": "SGD Adam sgd adam",
    "Dtypes, devices and settings": "float16 float32 float64 int8 int16 int32 int64 uint8 bool_ half double long "
                                    "short device get_default_dtype set_default_dtype set_default_device "
                                    "get_default_device Size Tensor torch.float torch.int torch.bool "
                                    "torch.cuda.is_available",
    "Printing": "print set_printoptions str repr format",
    "Python built-ins": "range len list tuple float int bool enumerate zip sorted reversed id",
    "Constants": "pi inf nan torch.e",
}.items():
    for _n in _names.split():
        _GROUP_OF.setdefault(_n, _group)
_GROUP_OF.update({n: "Creation" for n in ("BoolTensor", "ByteTensor", "CharTensor", "DoubleTensor", "FloatTensor",
                                            "HalfTensor", "IntTensor", "LongTensor", "ShortTensor")})
_GROUP_OF.update({"torch.autograd.Variable": "Autograd"})
_GROUP_OF.update({n: "Autograd" for n in ("torch.autograd.Function", "torch.autograd.function.FunctionCtx",
                                          "torch.autograd.function.once_differentiable")})
_GROUP_OF.update({f"torch.optim.{n}": "Optimisers" for n in E.optim.__all__})
_GROUP_OF.update({f"torch.optim.lr_scheduler.{n}": "Optimisers" for n in E.lr_scheduler.__all__})
_GROUP_OF.update({"assert_close": "Testing", "clone": "Shapes, views and indexing", "rand": "Random", "randn": "Random",
                  "randint": "Random", "rand_like": "Random", "randn_like": "Random", "abs": "Elementwise maths",
                  "gather": "Shapes, views and indexing", "floor_divide": "Arithmetic"})

# Names reachable in the language that are the engine's plumbing, not functions to offer.
_HIDDEN = frozenset({"run_op", "getitem", "setitem"})

# Python's own built-ins the interpreter adds to the tables (grammar/modules.py, vm.py), in our words
PYTHON_EXTRAS = {
    "type": "the type of a value (a class of the program, or Python's for a number, string, list...)",
    "isinstance": "whether a value is an instance of a class (or of one in a tuple of classes)",
    "dict": "a new dictionary, from pairs or keywords",
    "set": "a new set of distinct values",
    "frozenset": "a new set that cannot change",
    "map": "a function applied to each item of one or more iterables, lazily",
    "filter": "the items of an iterable for which a function is true, lazily",
    "divmod": "the pair (a // b, a % b)",
    "hex": "a whole number written in base 16 ('0xff')",
    "oct": "a whole number written in base 8 ('0o10')",
    "bin": "a whole number written in base 2 ('0b101')",
    "chr": "the one-character string of a Unicode code point",
    "ord": "the Unicode code point of a one-character string",
    "hash": "a value's hash (equal values hash alike)",
    "getattr": "an attribute by name, as obj.name reads it; a default instead of AttributeError if given",
    "hasattr": "whether obj.name can be read",
    "callable": "whether a value can be called",
    "iter": "an iterator over a list, tuple, string, range, tensor, DataLoader... (an iterator gives itself)",
    "next": "an iterator's next item; a default instead of StopIteration once it is used up, if given",
    "staticmethod": "in a class body: a method that takes no instance",
    "classmethod": "in a class body: a method that takes the class",
    "property": "in a class body: a method read as an attribute (read-only)",
}

# Short descriptions, for the names whose docstring is missing or says too little.
SUMMARIES = {
    # memory formats (accepted; values never depend on them)
    "memory_format": "the type of the memory formats (contiguous_format, preserve_format, channels_last...)",
    "contiguous_format": "a memory format: row-major, as every tensor made here is",
    "preserve_format": "a memory format: the input's (a copy here is row-major)",
    "channels_last": "a memory format of 4-d tensors (accepted: values do not depend on it)",
    "channels_last_3d": "a memory format of 5-d tensors (accepted: values do not depend on it)",
    # creation
    "tensor": "a new leaf tensor from numbers or nested lists (copies the data)",
    "as_tensor": "a tensor from data, reusing it when it already is one of the right dtype and device",
    "zeros": "a tensor of zeros of the given shape",
    "ones": "a tensor of ones of the given shape",
    "empty": "a tensor of the given shape with unspecified values",
    "full": "a tensor of the given shape filled with one value",
    "zeros_like": "zeros with the shape (and dtype, device) of a tensor",
    "ones_like": "ones with the shape (and dtype, device) of a tensor",
    "empty_like": "an uninitialised tensor with the shape (and dtype, device) of a tensor",
    "full_like": "a tensor filled with one value, with the shape of another",
    "eye": "the identity matrix (n x n, or n x m)",
    "arange": "evenly spaced values in [start, end) with a step",
    "linspace": "`steps` evenly spaced values from start to end, both included",
    "rand": "uniform random numbers in [0, 1) of the given shape",
    "randn": "standard normal random numbers of the given shape",
    "randint": "random whole numbers in [low, high) of the given shape",
    "randperm": "the whole numbers 0 .. n-1 in a random order",
    "rand_like": "uniform random numbers in [0, 1) with the shape of a tensor",
    "randn_like": "standard normal random numbers with the shape of a tensor",
    "manual_seed": "seed the random generator (the numbers differ from PyTorch's for the same seed)",
    # arithmetic
    "pow": "input ** exponent (tensors or numbers, broadcasting)",
    "float_power": "input ** exponent computed in float64",
    "positive": "+input: the tensor itself",
    # elementwise maths
    "abs": "the absolute value, elementwise (for plain numbers, Python's abs)",
    "round": "rounded to the nearest whole number, halves to even (decimals= for digits)",
    # reductions
    "sum": "the sum of all elements, or along dim (for a list of numbers, Python's sum)",
    "max": "the largest element; max(x, dim) gives (values, indices); max(x, y) is elementwise",
    "min": "the smallest element; min(x, dim) gives (values, indices); min(x, y) is elementwise",
    "nanmean": "the mean of the elements that are not NaN (of all, or along dim)",
    "aminmax": "(min, max) of all elements or along dim",
    # linear algebra
    "outer": "the outer product of two vectors",
    "ger": "the same as outer: the outer product of two vectors",
    "torch.linalg.det": "the determinant of a square matrix (or a batch of them)",
    "torch.linalg.inv": "the inverse of a square matrix (or a batch of them)",
    "torch.linalg.solve": "X with A @ X = B (left=False: X @ A = B)",
    "torch.linalg.cross": "the cross product of 3-vectors along dim (-1 by default)",
    "torch.linalg.norm": "a vector norm, or a matrix norm when ord is given for a matrix",
    "torch.linalg.vector_norm": "the ord-norm of the elements (all, or along dim)",
    "torch.linalg.matrix_norm": "a matrix norm over two dims: 'fro', 'nuc', 2, -2, 1, -1, inf or -inf",
    "inner": "sums of products over the last dims of two tensors (a dot product for vectors)",
    "matrix_power": "a square matrix (or a batch) to an integer power; negative: of the inverse",
    "logdet": "log det A of a square matrix (NaN where det < 0, -inf where singular)",
    "torch.linalg.matrix_power": "a square matrix (or a batch) to an integer power; negative: of the inverse",
    "torch.linalg.slogdet": "(sign, logabsdet): the sign of det A and log |det A|",
    "torch.linalg.solve_triangular": "X with A @ X = B (left=False: X @ A = B) for a triangular A",
    "torch.linalg.lu_solve": "X with A @ X = B for A given by lu_factor's (LU, pivots)",
    "pairwise_distance": "the p-norm of x1 - x2 + eps along the last dim",
    # shapes, views and indexing
    "fill_": "every element set to a value, in place",
    "zero_": "every element set to zero, in place",
    "copy_": "the values of src copied into the tensor, in place (the gradient flows to src)",
    "to": "converted to a device and/or dtype (to('cuda'), to(float32), to(other))",
    # comparisons and logic
    "argsort": "the indices that sort input along dim (NaN last; descending=, stable=)",
    "nonzero": "the indices of the nonzero elements, one row each (as_tuple=: one tensor per dim)",
    "count_nonzero": "how many elements are nonzero (of all, or along dim)",
    "equal": "true when both tensors have the same shape and values",
    "allclose": "true when all elements are close: |a - b| <= atol + rtol * |b|",
    "isclose": "elementwise |a - b| <= atol + rtol * |b| (bool)",
    "is_tensor": "true for a tensor",
    "is_floating_point": "true when the tensor's dtype is a floating-point one",
    "numel": "the number of elements",
    # autograd
    "grad": "grad(outputs, inputs): the gradients of outputs with respect to inputs, as a tuple",
    "backward": "backward(tensors): accumulate the gradients into the leaves' .grad",
    "jacobian": "jacobian(f, x): the full Jacobian, of shape f.shape + x.shape",
    "hessian": "hessian(f, x): the second derivatives of a scalar f",
    "gradcheck": "check a function's gradients against finite differences",
    "gradgradcheck": "check a function's second derivatives against finite differences",
    "detach": "the same values, cut from the graph (shares memory)",
    # grad mode
    "no_grad": "with no_grad(): results record no graph and do not require grad",
    "enable_grad": "with enable_grad(): recording on again, even inside no_grad",
    "set_grad_enabled": "set_grad_enabled(flag): recording on or off (also as a `with` block)",
    "inference_mode": "with inference_mode(): no graph, and tensors made there never join one",
    "is_grad_enabled": "whether results record a graph now",
    "is_inference_mode_enabled": "whether inference mode is on",
    "is_inference": "whether a tensor was made in inference mode",
    # optimisers
    "SGD": "the stochastic gradient descent optimiser (lr, momentum, weight_decay, nesterov)",
    "Adam": "the Adam optimiser (lr, betas, eps, weight_decay)",
    "sgd": "the same as SGD: stochastic gradient descent",
    "adam": "the same as Adam",
    # dtypes, devices, settings
    "float16": "the 16-bit floating-point dtype", "half": "the same as float16",
    "float32": "the 32-bit floating-point dtype", "torch.float": "the same as float32",
    "float64": "the 64-bit floating-point dtype (the default here)", "double": "the same as float64",
    "int8": "the 8-bit integer dtype", "int16": "the 16-bit integer dtype", "short": "the same as int16",
    "int32": "the 32-bit integer dtype", "torch.int": "the same as int32",
    "int64": "the 64-bit integer dtype", "long": "the same as int64",
    "uint8": "the 8-bit unsigned integer dtype",
    "bool_": "the boolean dtype", "torch.bool": "the boolean dtype",
    "device": "a device: 'cpu', 'cuda' or 'cuda:N'",
    "get_default_dtype": "the dtype floating-point tensors get when none is given",
    "set_default_dtype": "set the dtype floating-point tensors get when none is given",
    "get_default_device": "the device tensors are made on when none is given",
    "set_default_device": "set the device tensors are made on when none is given",
    "Size": "a tensor shape (a tuple of whole numbers)",
    "Tensor": "the tensor type",
    "torch.cuda.is_available": "whether a CUDA GPU (with CuPy) can be used",
    # printing
    "print": "print values (tensors in PyTorch's format)",
    "set_printoptions": "how tensors print: precision, threshold, edgeitems, linewidth, sci_mode",
    "str": "a value as text", "repr": "a value as text, as its repr", "format": "a value formatted by a spec",
    # Python built-ins
    "range": "the whole numbers from start to stop (excluded) by step",
    "len": "the number of items (a tensor's first dim)",
    "list": "a list of the items", "tuple": "a tuple of the items",
    "float": "a number as a Python float (a one-element tensor too)",
    "int": "a number as a whole number (a one-element tensor too)",
    "bool": "the truth value", "enumerate": "(index, item) pairs", "zip": "items of several sequences in step",
    "sorted": "a sorted list of the items", "reversed": "the items in reverse order",
    "id": "a number identifying an object",
    # constants
    "pi": "3.14159...", "inf": "floating-point infinity", "nan": "not a number (NaN)", "torch.e": "2.71828...",
    # namespaces
    "torch": "PyTorch's names: torch.sin(x) is sin(x); `import torch` lines are accepted",
    "torch.autograd": "grad, backward, jacobian, hessian, gradcheck and the grad-mode managers",
    "torch.autograd.functional": "jacobian, hessian and the products vjp, jvp, vhp, hvp",
    "torch.autograd.graph": "the graph's Node, saved-tensor hooks, GradientEdge, multi-grad hooks, "
                            "allow_mutation_on_saved_tensors",
    "torch.autograd.forward_ad": "forward-mode AD: with dual_level(): make_dual(x, tangent), unpack_dual(y) -> "
                                 "(primal, tangent)",
    "torch.autograd.function": "Function (custom autograd functions), FunctionCtx, once_differentiable",
    "torch.autograd.Function": "class F(torch.autograd.Function) with static forward and backward; F.apply(x) runs it",
    "torch.autograd.function.FunctionCtx": "the context a custom Function's forward saves tensors and values on",
    "torch.autograd.function.once_differentiable": "decorates a custom Function's backward: run without a graph, "
                                                   "not differentiable again",
    "torch.autograd.grad_mode": "no_grad, enable_grad, set_grad_enabled, inference_mode and the backward's switches",
    "torch.autograd.anomaly_mode": "anomaly detection: detect_anomaly() (a backward returning NaN raises), "
                                   "set_detect_anomaly(mode)",
    "torch.optim": "the optimisers: SGD, Adam, AdamW, RMSprop, Adagrad, Adamax, NAdam, RAdam, Adadelta; lr_scheduler",
    "torch.optim.lr_scheduler": "learning-rate schedules: StepLR, MultiStepLR, ExponentialLR, CosineAnnealingLR, ...",
    "torch.nn": "layers (Linear, Dropout, Sequential, ModuleList, Module to derive from), losses, and torch.nn.functional",
    "torch.utils": "holds torch.utils.data",
    "torch.nn.init": "fill a layer's weights in place: uniform_, xavier_uniform_, kaiming_uniform_, zeros_, ...",
    "torch.utils.data": "Dataset, TensorDataset and DataLoader (batches of a dataset, in order or shuffled)",
    "torch.nn.functional": "the functions of torch (linear, relu, sigmoid, softmax, ...); also F",
    "torch.linalg": "linear algebra: det, inv, solve, cross, norm, vector_norm, matrix_norm, matrix_power, slogdet",
    "torch.special": "special functions: gammaln, digamma, polygamma, zeta, erfcx, i0e, i1, ndtr, ndtri, ...",
    "torch.signal": "signal processing: its namespace windows",
    "torch.signal.windows": "window functions of M points: hann, hamming, kaiser, gaussian, ... (sym=False: periodic)",
    "torch.masked": "reductions and normalizations that skip masked-out elements: sum, mean, amax, softmax, var, ... (mask=)",
    "torch.nn.functional.elu_": "elu in place (x is overwritten)",
    "torch.nn.functional.leaky_relu_": "leaky_relu in place (x is overwritten)",
    "torch.nn.functional.hardtanh_": "hardtanh in place (x is overwritten)",
    "from_numpy": "a tensor that shares a numpy array's memory (np arrays from `import numpy as np`)",
    "torch.from_numpy": "a tensor that shares a numpy array's memory (np arrays from `import numpy as np`)",
    "\u03c0": "the constant pi (3.14159...), as typed on a calculator",
    "e": "the constant e (2.71828...); a name you assign (e = ..., except ... as e) hides it",
    "torch.testing": "testing helpers: assert_close (PyTorch's tolerances and failure message)",
    "assert_close": "AssertionError unless actual and expected are close (PyTorch's tolerances and message)",
    "torch.cuda": "is_available()",
    "autograd": "the same as torch.autograd",
    "optim": "the same as torch.optim",
    "nn": "the same as torch.nn",
    "F": "the same as torch.nn.functional",
    # Tensor methods and attributes
    "Tensor.T": "the tensor with its dims reversed (a matrix's transpose)",
    "Tensor.mT": "the last two dims swapped (the transpose of each matrix)",
    "Tensor.H": "the conjugate transpose of a matrix (for real tensors its transpose, a view)",
    "Tensor.mH": "the conjugate transpose of each matrix in the last two dims (for real tensors, .mT)",
    "Tensor.real": "the real part: for a real tensor, the tensor itself",
    "Tensor._version": "how many times the tensor was changed in place",
    "Tensor.shape": "the shape, a torch.Size",
    "Tensor.dtype": "the dtype",
    "Tensor.device": "the device the tensor lives on",
    "Tensor.ndim": "the number of dims",
    "Tensor.grad": "the gradient accumulated by backward (None until then)",
    "Tensor.grad_fn": "the backward node that made the tensor (None for a leaf)",
    "Tensor.is_leaf": "whether the tensor was made by the user, not by an op that records",
    "Tensor.requires_grad": "whether gradients are computed for the tensor (settable)",
    "Tensor.retains_grad": "whether retain_grad() was called on this non-leaf",
    "Tensor.is_cuda": "whether the tensor is on a CUDA device",
    "Tensor.data": "the same values with no history (setting it replaces the values)",
    "Tensor.item": "the value of a one-element tensor as a Python number",
    "Tensor.tolist": "the values as (nested) Python lists",
    "Tensor.numpy": "the values as a numpy array sharing the tensor's memory (detach() first if it requires grad)",
    "Tensor.size": "the shape, or the size of one dim",
    "Tensor.dim": "the number of dims",
    "Tensor.element_size": "the size of one element in bytes",
    "Tensor.contiguous": "the tensor with its elements in order in memory",
    "Tensor.cpu": "a copy on the CPU (the tensor itself when there already)",
    "Tensor.cuda": "a copy on the GPU",
    "Tensor.type": "the type name, or a copy converted to a dtype",
    "Tensor.float": "converted to float32",
    "Tensor.double": "converted to float64",
    "Tensor.half": "converted to float16",
    "Tensor.int": "converted to int32",
    "Tensor.long": "converted to int64",
    "Tensor.bool": "converted to bool",
    "Tensor.backward": "compute the gradients of this tensor into the leaves' .grad",
    "Tensor.detach_": "cut the tensor from the graph, in place",
    "Tensor.requires_grad_": "set requires_grad in place (on a leaf); returns the tensor",
    "Tensor.retain_grad": "keep this non-leaf's gradient in .grad after backward",
    "Tensor.register_hook": "call hook(grad) when the tensor's gradient is computed",
    "Tensor.is_inference": "whether the tensor was made in inference mode",
    "Tensor.expand_as": "expanded to another tensor's shape",
    "Tensor.reshape_as": "reshaped to another tensor's shape",
    "Tensor.view_as": "viewed with another tensor's shape",
    "Tensor.new_tensor": "a new leaf from data, with this tensor's dtype and device",
    "Tensor.new_zeros": "zeros of a shape, with this tensor's dtype and device",
    "Tensor.new_ones": "ones of a shape, with this tensor's dtype and device",
    "Tensor.new_full": "a filled tensor of a shape, with this tensor's dtype and device",
    "Tensor.new_empty": "an uninitialised tensor of a shape, with this tensor's dtype and device",
}

# Signatures inspect cannot read (or reads as *args).
SIGNATURES = {
    "Tensor.random_": "random_(from=0, to=None, *, generator=None)",
    "print": "print(*values, sep=' ', end='\\n')", "range": "range([start,] stop[, step])", "len": "len(x)",
    "list": "list(items=())", "tuple": "tuple(items=())", "float": "float(x=0.0)", "int": "int(x=0, base=None)",
    "bool": "bool(x=False)", "str": "str(x='')", "repr": "repr(x)", "format": "format(value, spec='')",
    "enumerate": "enumerate(items, start=0)", "zip": "zip(*sequences)",
    "sorted": "sorted(items, key=None, reverse=False)",
    "reversed": "reversed(items)", "id": "id(x)", "is_grad_enabled": "is_grad_enabled()",
    "is_inference_mode_enabled": "is_inference_mode_enabled()", "einsum": "einsum(equation, *operands)",
    "sum": "sum(input, dim=None, keepdim=False)", "abs": "abs(input)", "min": "min(input, dim=None, keepdim=False)",
    "max": "max(input, dim=None, keepdim=False)", "pow": "pow(input, exponent)",
    "all": "all(input, dim=None, keepdim=False)", "any": "any(input, dim=None, keepdim=False)",
    "round": "round(input, decimals=None)", "Size": "Size(sizes)", "Tensor": None,
}


class Entry:
    """One name of the language: `name` as a program writes it, its `kind` and
    `group`, a `signature` (or None), a one-line `summary`, and `also`: the
    other spellings of the same thing (torch.sin, Tensor.sin, sin_, ...)."""

    __slots__ = ("name", "kind", "group", "signature", "summary", "also")

    def __init__(self, name, kind, group, signature, summary, also=()):
        self.name, self.kind, self.group = name, kind, group
        self.signature, self.summary, self.also = signature, summary, tuple(also)

    def as_json(self):
        out = {"name": self.name, "kind": self.kind, "group": self.group}
        if self.signature:
            out["signature"] = self.signature
        out["summary"] = self.summary
        if self.also:
            out["also"] = list(self.also)
        return out

    def spellings(self):
        return (self.name,) + self.also

    def __repr__(self):
        return f"Entry({self.name!r}, {self.kind!r})"


# ------------------------------------------------------------------ summaries

_GENERIC = re.compile(r"^(In-place \w+: the result is written into input\.|\w+\(input(, other)?\)(: elementwise \w+)?, "
                      r"as torch\.\w+\.?( \(tensors or numbers; they broadcast\)\.)?)$")
_LEAKS = re.compile(r"\bself\b|autodiff\.|\bengine\b|\bnumpy\.|\bcupy\b|__\w+|\bapply\(|\bctx\b|\bxp\b|"
                    r"LinAlgError|\bpython\b", re.IGNORECASE)


_SIGNATURES_ONLY = re.compile(r"^(\w+\(.*\) -> .*(\n|$))+$")  # a function made from a row opens with its signatures


def _first_sentence(doc):
    """The first sentence of a docstring's first paragraph, on one line; None if there is none."""
    if not doc:
        return None
    paragraphs = [p for p in inspect.cleandoc(doc).split("\n\n") if not _SIGNATURES_ONLY.match(p)]
    if not paragraphs:
        return None
    paragraph = " ".join(paragraphs[0].split())
    match = re.search(r"\.(\s|$)", paragraph)
    text = paragraph[:match.start()] if match else paragraph
    if len(text) > 100:
        text = text[:97].rsplit(" ", 1)[0] + "..."
    return text or None


def _doc_summary(*objects):
    for obj in objects:
        if obj is None:
            continue
        doc = obj.__doc__ if isinstance(obj, type) or callable(obj) else None
        text = _first_sentence(doc)
        if text and not _GENERIC.match(text + ".") and not _GENERIC.match(text) and not _LEAKS.search(text):
            first_word = text.split()[0]
            return text[0].lower() + text[1:] if first_word[:1].isupper() and (first_word[1:].islower() or len(first_word) == 1) else text
    return None


def _signature(name, value, drop_first=False):
    """`name(params)` as inspect reads it (for a method, without its first parameter); None if unreadable."""
    if name in SIGNATURES:
        return SIGNATURES[name]
    short = name.rsplit(".", 1)[-1]
    if not callable(value) or isinstance(value, N.Namespace):
        return None
    try:
        sig = inspect.signature(value)
    except (TypeError, ValueError):
        return None
    params = list(sig.parameters.values())
    if hasattr(value, "__signature_text__"):  # made from a row: without numpy's aliases (axis=, keepdims=)
        params = [p for p in params if p.name not in ("axis", "keepdims")]
        params = [p.replace(default=inspect.Parameter.empty) if p.default.__class__ is object else p for p in params]
    if drop_first and params:
        params = params[1:]
    if any(p.kind == p.VAR_KEYWORD for p in params) and any(p.kind == p.VAR_POSITIONAL for p in params):
        return None  # (*args, **kwargs) says nothing
    shown = short if name.startswith("Tensor.") else name  # a method's is written x.NAME(...)
    text = f"{shown}({str(sig.replace(parameters=params))[1:-1]})"
    if "<" in text or "self" in text:
        return None
    return text


# ------------------------------------------------------------------ building

def _row_of():
    """Each public name of the op table -> its row."""
    rows = {}
    for row in E.OPS.values():
        for n in row.names:
            rows.setdefault(n, row)
    return rows


def _group(name, value, rows):
    if name in _GROUP_OF:
        return _GROUP_OF[name]
    row = rows.get(name)
    if row is not None:
        return _FAMILY.get(row.__module__.rsplit(".", 1)[-1], "Other")
    module = getattr(value, "__module__", "") or ""
    return _FAMILY.get(module.rsplit(".", 1)[-1], "Other")


def _kind(value):
    if isinstance(value, N.Namespace):
        return "namespace"
    if isinstance(value, type(E.float32)):
        return "dtype"
    if isinstance(value, (int, float, E.memory_format)) and not isinstance(value, bool):
        return "constant"
    if N.is_context_manager(value) or value in (E.no_grad, E.enable_grad, E.set_grad_enabled, E.inference_mode):
        return "context manager"
    if isinstance(value, type):
        return "class"
    return "function"


def _summary(name, *sources):
    first = _ALIAS_OF.get(name)
    if first is not None:  # a row's second name: the same function as its first
        return f"the same as {first}: {_summary(first, getattr(_functions, first))}"
    return SUMMARIES.get(name) or _doc_summary(*sources) or "(no description)"


# each row's other names -> its first, where they are one function
_ALIAS_OF = {name: op.names[0] for op in E.OPS.values() for name in op.names[1:]
             if name != op.names[0] and getattr(_functions, name, None) is getattr(_functions, op.names[0], None)}
_ALIAS_OF["moveaxis"] = "movedim"  # (numpy's name; both are a hand-written function of the permute row)


def _build():
    """Every entry: the bare names, Python's extras and exceptions, the namespaces' members, the
    namespaces, Tensor's own members -- by group, then name."""
    rows = _row_of()
    engine_functions = {n: getattr(_functions, n) for n in _functions.__all__}
    folded_methods = set()
    entries = _bare_entries(rows, engine_functions, folded_methods)
    entries += _python_entries()
    spellings = {}
    namespace_entries, listed_namespaces = _namespace_entries(rows, engine_functions, spellings)
    for entry in entries:
        entry.also += tuple(spellings.get(entry.name, ()))
    entries += namespace_entries
    # the namespaces themselves (and their bare aliases: F, autograd, optim, nn)
    aliases = {}
    for name, value in N.BUILTINS.items():
        if isinstance(value, N.Namespace) and id(value) in listed_namespaces and name != "torch":
            aliases.setdefault(id(value), []).append(name)
    for key, path in listed_namespaces.items():
        entries.append(Entry(path, "namespace", "Namespaces", None, _summary(path), sorted(aliases.get(key, ()))))
    entries += _tensor_entries(folded_methods)
    order = {g: i for i, g in enumerate(GROUPS)}
    entries.sort(key=lambda e: (order.get(e.group, len(order)), e.name.lower().lstrip("_")))
    return tuple(entries)


def _bare_entries(rows, engine_functions, folded_methods):
    """The bare names (each also torch.NAME when torch has the same thing), with their methods and
    in-place forms folded in (those are added to `folded_methods`)."""
    tensor_members = N.TENSOR_ATTRIBUTES
    entries = []
    folded_functions = set()
    for name in sorted(N.BUILTINS, key=str.lower):
        if name in _HIDDEN or name in folded_functions:
            continue
        value = N.BUILTINS[name]
        if isinstance(value, N.Namespace):
            continue  # listed below, as the namespace it stands for
        engine = N.TORCH.get(name)
        if engine is not None and engine is not value and name not in engine_functions:
            engine = None  # `float` bare is Python's conversion, torch.float a dtype: two entries
        also = []
        if name in N.TORCH and (N.TORCH[name] is value or engine is not None):
            also.append(f"torch.{name}")
        target = engine if engine is not None else value
        if name in engine_functions and callable(getattr(E.Tensor, name, None)) and name in tensor_members:
            also.append(f"Tensor.{name}")
            folded_methods.add(name)
        inplace = name + "_"
        if name in engine_functions and (inplace in N.BUILTINS or inplace in tensor_members) \
                and not name.endswith("_"):
            if inplace in N.BUILTINS:
                also += [inplace, f"torch.{inplace}"] if inplace in N.TORCH else [inplace]
                folded_functions.add(inplace)
            if inplace in tensor_members:
                also.append(f"Tensor.{inplace}")
                folded_methods.add(inplace)
        kind = _kind(value)
        if kind == "function" and name in engine_functions and name.endswith("_"):
            kind = "in-place function"
        group = _group(name, target, rows)
        if group == "Python built-ins":
            kind = "function"
        entries.append(Entry(name, kind, group, _signature(name, target), _summary(name, target, rows.get(name)),
                             also))
    return entries


def _python_entries():
    """Python's built-ins and exception classes the interpreter adds (grammar/modules.py, vm.py)."""
    import importlib
    importlib.import_module(__package__ + ".vm")  # the interpreter registers getattr, hasattr and callable
    from .modules import EXTRA_BUILTINS, EXCEPTIONS
    entries = [Entry(name, "function", "Python built-ins", None, PYTHON_EXTRAS[name], [])
               for name in sorted(PYTHON_EXTRAS, key=str.lower) if name in EXTRA_BUILTINS]
    entries += [Entry(name, "class", "Exceptions", None,
                      f"Python's {name}: raise it, catch it with except, or subclass it", []) for name in sorted(EXCEPTIONS)]
    return entries


def _namespace_entries(rows, engine_functions, spellings):
    """torch-only names and the namespaces' own members, breadth-first (no recursion); and the
    namespaces listed, id -> path. torch.special's members that are a bare function of the same
    name go into `spellings` (bare name -> [torch.special.NAME]) instead."""
    entries = []
    seen = {id(N.BUILTINS[n]) for n in N.BUILTINS if callable(N.BUILTINS[n])}
    seen |= {id(N.TORCH[n]) for n in N.TORCH if n in N.BUILTINS and callable(N.TORCH[n])}
    namespaces = [("torch", N.TORCH_NAMESPACE)]
    listed_namespaces = {}
    while namespaces:
        path, ns = namespaces.pop(0)
        if id(ns) in listed_namespaces:
            continue
        listed_namespaces[id(ns)] = path
        for member in sorted(ns.table, key=str.lower):
            value = ns.table[member]
            full = f"{path}.{member}"
            if isinstance(value, N.Namespace):
                namespaces.append((full, value))
                continue
            if path == "torch" and member in N.BUILTINS and full != "torch.float" and \
                    (N.BUILTINS[member] is value or member in engine_functions or
                     not isinstance(value, type(E.float32))):
                continue  # listed with the bare name
            if member in _HIDDEN or member.endswith("_") and member[:-1] in engine_functions:
                continue
            if callable(value) and id(value) in seen and path != "torch":
                alias = getattr(value, "__name__", member)
                if path == "torch.special" and alias != member:  # torch.special.psi: digamma's other name
                    text = f"the same as {alias}: {_summary(alias, value)}"
                    text = text if len(text) <= 110 else text[:106].rsplit(" ", 1)[0] + " ..."
                    entries.append(Entry(full, _kind(value), "Elementwise maths", _signature(full, value), text))
                elif path == "torch.special":  # torch.special.digamma is digamma: one of its spellings
                    spellings.setdefault(member, []).append(full)
                continue  # torch.autograd.grad is grad: listed there
            if path != "torch" and not callable(value):
                continue
            seen.add(id(value))
            group = "Linear algebra" if path == "torch.linalg" else "Elementwise maths" if path == "torch.special" \
                else "Reductions and statistics" if path == "torch.masked" else _group(full, value, rows)
            entries.append(Entry(full, _kind(value), group, _signature(full, value), _summary(full, value)))
    return entries, listed_namespaces


def _tensor_entries(folded_methods):
    """Tensor methods and attributes with no function of their own."""
    entries = []
    for name in sorted(N.TENSOR_ATTRIBUTES, key=str.lower):
        if name in folded_methods:
            continue
        member = getattr(E.Tensor, name, None)
        full = f"Tensor.{name}"
        if callable(member) and not isinstance(member, property):
            entries.append(Entry(full, "method", "Tensor methods", _signature(full, member, drop_first=True),
                                 _summary(full, member)))
        else:
            entries.append(Entry(full, "attribute", "Tensor attributes", None,
                                 _summary(full, member if isinstance(member, property) else None)))
    return entries


_CATALOG = []


def catalog():
    """Every entry, by group then name (built once)."""
    if not _CATALOG:
        _CATALOG.append(_build())
    return _CATALOG[0]


def _namespace_member(name):
    """`F.relu`, `torch.nn.functional.relu`: the bare name when that namespace holds the bare name's function."""
    path, _, tail = name.rpartition(".")
    ns = N.BUILTINS.get(path.split(".", 1)[0])
    for part in path.split(".")[1:]:
        ns = ns.table.get(part) if isinstance(ns, N.Namespace) else None
    if isinstance(ns, N.Namespace) and tail in ns.table and tail in N.BUILTINS:
        value = ns.table[tail]
        if value is N.BUILTINS[tail] or value is N.TORCH.get(tail):
            return tail
    return None


def lookup(name):
    """The entry a spelling names (`sin`, `torch.sin`, `x.sin`, `Tensor.sin`, `sin_`, `F.relu`), or None."""
    name = name.strip()
    if name.endswith("()"):
        name = name[:-2]
    candidates = [name]
    if "." in name:
        member = _namespace_member(name)
        if member:
            candidates.append(member)
        if not name.startswith(("torch.", "Tensor.")):
            head, _, tail = name.partition(".")
            candidates += [f"torch.{name}", f"Tensor.{tail}"]  # linalg.det -> torch.linalg.det; x.sin -> Tensor.sin
    else:
        candidates += [f"torch.{name}", f"Tensor.{name}"]  # e, item, shape
    for candidate in candidates:
        for entry in catalog():
            if candidate in entry.spellings():
                return entry
    return None


def search(text):
    """Entries one of whose spellings contains `text`; all for an empty text. Case matters
    only when `text` has a capital letter (`F`, `SGD`), as in a smart-case search."""
    needle = (text or "").strip()
    if not needle:
        return list(catalog())
    if needle == needle.lower():
        return [e for e in catalog() if any(needle in s.lower() for s in e.spellings())]
    return [e for e in catalog() if any(needle in s for s in e.spellings())]
