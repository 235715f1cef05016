"""The op table: every differentiable op, its forward and its backward, and
the public surface it gives -- all in one row.

How to read (and extend) this table
-----------------------------------
Each op is a class deriving from `Op`; defining it registers it in `TABLE`
under its ``name``. A row has:

``name``
    The table key: how backward formulas call the op (``F.exp``), and the
    name of the public function unless ``names`` says otherwise.

``node``
    The name of its backward node, as PyTorch names it (``MulBackward0``), or
    a function of the node returning the name when it depends on the
    arguments (``SumBackward0`` for a whole-tensor sum, ``SumBackward1`` with
    ``dim``).

``saves``
    What the backward needs, by position: input indices (``0``, ``1``) and/or
    ``"out"`` for the result. Only these are kept alive by the graph, and each
    is checked against the version it had when saved.

``save_for`` (optional)
    For each entry of ``saves``, the inputs whose gradient needs it: the
    entry is kept only when one of them wants a gradient (``a * x`` with a
    constant ``a`` keeps ``a`` but not ``x``), so the graph holds no more
    memory than its backward will use.

``forward(xp, *inputs, **params)``
    Computes the result on raw arrays with the array module ``xp`` (numpy or
    cupy). Inputs in tensor positions are arrays, or Python numbers where the
    user passed a number. ``params`` are the non-tensor arguments (``dim=``).

``backward(F, ctx, g, *saved, **params)``
    Returns one gradient per input (``None`` where there is none), given
    ``g``, the gradient of the result. It is written in the ops of this very
    table through ``F`` and the arithmetic operators: ``F`` is the raw array
    math for an ordinary backward and the differentiable engine ops under
    ``create_graph=True`` -- which is what gives second and higher
    derivatives for free. ``ctx`` is the node: ``ctx.shapes`` holds the
    input shapes, ``ctx.needs[i]`` says whether input ``i`` wants a gradient.

``jvp`` (optional)
    The row's forward-mode rule (engine/core/forward.py), used while a dual
    level is open: ``"linear"`` for a row linear in its float tensor inputs
    (views, sum, cat, indexing: the row applied to the tangents, so a view's
    tangent is a view), or ``jvp(F, ctx, tangents, *saved, **params)``
    returning the result's tangent J v (``tangents`` in input order, None
    where an input has none). Without one it is derived from ``backward``:
    an elementwise row's is its backward given g = the tangent, any other's
    its backward of the backward. tests/engine/ops/test_forward_rules.py
    checks every row's against its backward.

A gradient may come back with the *broadcast* shape, or in another float
dtype: the autograd core sums it back to the input's shape (``sum_to``) and
casts it to the input's dtype, in one place, for every op.

Flags
    ``elementwise = True``: the result has the broadcast shape of the inputs,
    and the formulas stay right when ``g`` is a single number (the core hands
    them that number when the gradient is the same everywhere -- the gradient
    of a sum, or weights of 1 -- so no full-size arrays of ones are made).
    ``differentiable = False``: results never require grad (comparisons); no
    backward. ``is_view = True``: the result may share memory with input 0
    (it then shares its version counter and can be written through).
    ``moves_device = True``: the result lives on ``params["device"]``.
    ``batched = True``: ``backward`` stays right when ``g`` has a leading batch
    dim -- (B,) + the result's shape, as a batched backward
    (``grad(..., is_grads_batched=True)``) hands it -- returning gradients with
    that leading dim (the default of elementwise rows: their formulas
    broadcast). Otherwise ``batched_backward(F, ctx, g, *saved, **params)`` is
    the row's batch rule (dims shifted by one, keys after a full slice, shapes
    with B in front); it may return ``NotImplemented``, and a row without one
    has its ``backward`` run once per batch element.
    ``ufunc = "multiply"``: for two tensors ``forward`` is exactly that
    ufunc of ``xp``, so a large result may be written with ``out=`` into a
    temporary operand's memory (engine/elision.py) -- the same bits, no new
    array.

The public surface (what users call)
    ``signature``: the public function, as PyTorch's native_functions.yaml
    writes it -- ``sum(Tensor input, int[1]? dim=None, bool keepdim=False) ->
    Tensor``; several named results (``-> (Tensor values, Tensor indices)``)
    make it return torch.return_types.<name>. engine/signature.py writes the
    function from it: Python binds the arguments (numpy's ``axis=`` and
    ``keepdims=`` too), numbers and lists become tensors where a Tensor goes,
    each type is checked with PyTorch's message, dims are wrapped (unless
    ``wrap_dims = False``), and then ``call(...)`` runs -- the row's own
    function of the bound arguments, for its checks and Python-level work --
    or, without one, the row itself on the tensors with the rest as
    parameters. An elementwise row's signature is ``name(Tensor input) ->
    Tensor`` unless it says otherwise. Where several rows' signatures share a
    name (``max(x)``, ``max(x, dim)``; ``max(x, y)`` is ``maximum``'s second
    name), the function is their overloads, picked by the argument types. The
    row's docstring is the function's summary (``autodiff functions`` and
    ``help`` show it).
    ``names``: the public names it stands behind (``torch.<name>`` in the
    language), the first being the signature's; ``()`` marks an internal row
    (reached only from other rows' formulas or from hand-written functions in
    engine/functions/, where the argument handling is too special for a
    signature: creation, indexing, ``to``...). ``method``: `Tensor` gets a
    method of each name (``x.exp()``). ``inplace``: and an in-place variant of
    each, ``exp_``, as a method and as a function. ``formula``: how ``eval
    --formula`` prints the op -- ``infix("+")``, ``prefix("-")``,
    ``call("dim")`` (a function call, with those parameters as keywords),
    ``SAME`` (it prints as its input) or ``custom("index")`` (a renderer in
    grammar/formula.py).

The rows live in this package by family (``arithmetic``, ``unary``,
``reductions``, ``linalg``, ``shapes``, ``views``, ``compare``, ``activations`` -- the
rows behind torch.nn.functional -- ``shrink``, its shrinking activations, ``distances``: cdist,
pdist, pairwise_distance's steps, ``normalization``: layer_norm, embedding, ``indexing``:
index_add, scatter_add, ..., ``convolution``: convolution, pooling, batch_norm, ``decomp``: the
matrix decompositions -- one row a result -- and matrix_exp, pinv, lstsq); ``table``
holds the base class and the helpers they share.

The families load when the table is first read from here (`from autodiff.engine.ops import
TABLE`: every row), or one by one where a module imports a family itself: `autodiff eval`'s lane
imports only `arithmetic`, and a row the registry has not met yet loads the rest
(core/op.py's TABLE), so no lookup ever misses a row.

Adding an op: one row in the module of its family and one case in
``tests/op_cases*.py`` -- nothing else. The function, the method, the
in-place variant, the language's name, its summary in the catalogue, the
named results the language may read (``.values``) and the formula printer all
come from the row (tests/test_op_surface.py checks that each part exists).
"""
import importlib
import importlib.util

# every family, in the order their rows register (the table's order: overloads are tried in it)
FAMILIES = ("arithmetic", "unary", "reductions", "linalg", "shapes", "views", "compare", "activation_gradients",
            "activations", "shrink", "distances", "normalization", "indexing", "convolution", "statistics",
            "nnlayers", "tensorops", "losses", "attention", "bags", "special", "decomp", "adaptive_pool", "numbers",
            "ctc", "fractional_pool", "householder", "strided")
_SHARED = ("TABLE", "Op", "Elementwise", "infix", "prefix", "call", "custom", "SAME", "is_basic_key")
_loaded = False


def load_all():
    """Import every family (each registers its rows) and bind the table's shared names here."""
    global _loaded
    if not _loaded:
        for family in FAMILIES:
            importlib.import_module("." + family, __name__)
        table = importlib.import_module(".table", __name__)
        globals().update({name: getattr(table, name) for name in _SHARED})
        _loaded = True


def __getattr__(name):
    """The table and its shared names (loading every family first); a family or helper module."""
    if name in _SHARED:
        _registry.complete()  # (load_all, through the registry: it then knows it is whole)
        return globals()[name]
    full = f"{__name__}.{name}"
    if name.startswith("__") or importlib.util.find_spec(full) is None:  # (as engine/__init__.py's _submodule)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return importlib.import_module(full)


from ..core.op import TABLE as _registry  # noqa: E402
_registry.load_all = load_all
