"""No Python loop over the elements (or the vectors) of an array in engine/: every op computes
through its array module's vectorised calls. Checked by reading engine/'s source (ast): a loop or
comprehension over range(<an array's .shape[i] or .size>), numpy.ndindex, nditer, unravel_index,
an array's .flat or .tolist(), and any numpy.vectorize or frompyfunc, is an error -- unless it is
one of the few places below whose loop is over something else in truth, each with its reason.
(Loops over an array's dims -- `for n in x.shape` -- and over a kernel's polynomial terms are not
loops over its elements, and are not flagged.)"""
import ast

import locations

ENGINE = locations.ROOT / "engine"

# (file, function) -> why its loop is not numerics over an array's elements
ALLOWED = {
    ("householder.py", "reflect"): "the Householder reflectors applied in turn, each to the last one's result "
                                   "(LAPACK's orgqr/ormqr order), each a whole-matrix update vectorised over the batch",
    ("ctc.py", "alpha"): "the CTC alpha recursion: one step a time step (each needs the last), vectorised over batch "
                         "and states",
    ("ctc.py", "beta"): "the CTC beta recursion: the same, backwards in time",
    ("decomp.py", "cholesky_checked"): "only to word an error: the first batch element and leading minor that is not "
                                       "positive-definite",
    ("decomp.py", "matrix_exp_kernel"): "the squarings of scaling and squaring: log2 of the norm of them",
    ("decomp.py", "permutation_of"): "LU's pivots, one step a column (as the factorization), vectorized over the batch",
    ("decomp.py", "cholesky_ex_kernel"): "only for a matrix that is not positive-definite: its factor's columns up to "
                                         "the failing pivot (what linalg.cholesky_ex returns), one step a column, "
                                         "vectorized over the batch",
    ("derivative_check.py", "_numerical"): "finite differences perturb each input element in turn and call the function "
                                    "once per element: that is the method (PyTorch's gradcheck too)",
    ("derivative_check.py", "analytical_jacobian"): "one backward call per output element: the analytical Jacobian row by "
                                             "row (PyTorch's gradcheck too)",
    ("autograd.py", "_per_sample"): "a batched backward through a row with no batch rule: one call of its backward "
                                    "per batch element, as PyTorch's vmap fallback does",
    ("autograd.py", "_run_hooks_batched"): "user hooks in a batched backward see one batch element each, as under "
                                           "PyTorch's vmap",
    ("custom_function.py", "batched_backward"): "a custom Function's own Python backward, once per batch element",
    ("linalg.py", "singular"): "only to word an error: which batch element is singular",
    ("linalg.py", "_zero_pivot"): "only to word an error: LAPACK's index of the first zero pivot",
    ("functional.py", "_jacobian_rows"): "jacobian(vectorize=False): one backward per output element, as PyTorch's",
    ("functional_forward.py", "jacobian_forward"): "jacobian(strategy=\"forward-mode\"): one dual call per "
                                                    "input element (a column), as _jacobian_rows does a row",
    ("derivative_check.py", "_forward_jacobian"): "check_forward_ad: one dual call per input element (a unit tangent), "
                                           "as PyTorch's slow mode",
    ("derivative_check.py", "_unit_rows"): "the one-hot grad_outputs of the analytical Jacobian's rows, one per element",
    ("derivative_check.py", "numerical_jacobian"): "finite differences, one perturbed element at a time (the method)",
    ("shapes.py", "split"): "the pieces of a split (views), not its elements",
    ("linalg.py", "_tensordot_dims"): "tensordot's dims= given as a tensor: a few axis numbers",
    ("printing.py", "_vector_str"): "formatting numbers as text, as numpy's own printing does",
    ("testing.py", "_argmax"): "the one index (a tuple) named in an assertion's message",
    ("tensor_class.py", "__iter__"): "iterating a tensor yields its sub-tensors, as Python's protocol asks",
    ("arrange.py", "diff"): "the n-th difference: n passes, each vectorised",
}

_ELEMENT_CALLS = {"ndindex", "nditer", "unravel_index", "tolist"}


def _suspect_iterable(node, sizes=frozenset()):
    """Whether a loop's iterable walks an array's elements or vectors; `sizes` are the names the
    function assigned an array's length or size to (n = x.shape[0]; for i in range(n))."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            name = sub.func.attr if isinstance(sub.func, ast.Attribute) else getattr(sub.func, "id", "")
            if name in _ELEMENT_CALLS:
                return True
            if name == "range" and any(_reads_size(arg, sizes) for arg in sub.args):
                return True
        if isinstance(sub, ast.Attribute) and sub.attr == "flat":
            return True
    return False


def _reads_size(node, sizes=frozenset()):
    """An expression that reads an array's length along a dim or its size: x.shape[i], x.size, x.numel(),
    or a name holding one."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Subscript) and isinstance(sub.value, ast.Attribute) and sub.value.attr == "shape":
            return True
        if isinstance(sub, ast.Attribute) and sub.attr in ("size", "numel"):
            return True
        if isinstance(sub, ast.Name) and sub.id in sizes:
            return True
    return False


def _size_names(function):
    """The names a function assigns an array's length or size to."""
    return frozenset(target.id for node in ast.walk(function) if isinstance(node, ast.Assign) and _reads_size(node.value)
                     for target in node.targets if isinstance(target, ast.Name))


def _findings():
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        stack = [(tree, None, frozenset())]
        while stack:  # no recursion over the tree
            node, function, sizes = stack.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                function, sizes = node.name, _size_names(node)
            if isinstance(node, (ast.For, ast.comprehension)) and _suspect_iterable(node.iter, sizes):
                found.append((path.name, function, getattr(node, "lineno", node.iter.lineno)))
            if isinstance(node, ast.Call):
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                if name in ("vectorize", "frompyfunc"):
                    found.append((path.name, function, node.lineno))
            stack.extend((child, function, sizes) for child in ast.iter_child_nodes(node))
    return found


def test_no_loop_over_an_arrays_elements_in_the_engine():
    loops = [f"engine/.../{file}:{line} in {function}()" for file, function, line in _findings()
             if (file, function) not in ALLOWED]
    assert not loops, "a Python loop over an array's elements (vectorise it, or say why not in ALLOWED):\n" + \
        "\n".join(loops)


def test_every_allowed_place_still_has_its_loop():
    """The allow-list holds only what is there (a place that lost its loop leaves the list)."""
    places = {(file, function) for file, function, _ in _findings()}
    assert set(ALLOWED) <= places, set(ALLOWED) - places


def test_the_check_finds_such_a_loop():
    tree = ast.parse("def f(x):\n    n = x.shape[0]\n    for k in range(n):\n        x[k] += 1\n"
                     "    for i in range(x.shape[0]):\n        y[i] = f(x[i])\n    z = [v for v in x.tolist()]\n"
                     "    g = numpy.vectorize(math.erf)\n    for d in x.shape:\n        pass\n")
    sizes = _size_names(tree.body[0])
    loops = [n for n in ast.walk(tree) if isinstance(n, (ast.For, ast.comprehension)) and _suspect_iterable(n.iter, sizes)]
    assert sizes == {"n"} and len(loops) == 3  # the two element loops and the tolist comprehension; not the dims
