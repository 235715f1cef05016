"""A derivative read back as a formula (`eval --formula`): `2*a*x + b`.

The derivative was computed with create_graph under `trace_inputs`, so its
graph is an expression in engine ops whose nodes remember all their
arguments. We rebuild that expression bottom-up (nodes in post-order, with a
stack: deep graphs are fine), simplifying as we go -- numbers folded, `x*1`,
`x + 0` and `0*x` gone, like factors and like terms gathered -- and print it
in the language's own syntax, so the formula evaluates to the derivative.

Expressions are hash-consed: each distinct expression exists once and is
compared by identity, so gathering like terms never walks a tree.
"""
import math
import re

import numpy

from .. import engine as E
from ..engine import graph as _graph
from ..engine.ops.activation_gradients import GELU_PDF, M_SQRT1_2, TANH_BETA, TANH_KAPPA
from ..engine.ops.activations import mse_norm

__all__ = ["formula_of"]

MAX_LENGTH = 20_000


class Expr:
    """kind: num, var, add, mul, pow, call, index, matmul, raw. `seq` orders
    factors canonically (expressions are interned, so it is stable); `size`
    bounds the length of its text."""

    __slots__ = ("kind", "a", "b", "c", "seq", "size", "__weakref__")

    def __init__(self, kind, a=None, b=None, c=None):
        self.kind = kind
        self.a = a
        self.b = b
        self.c = c
        self.seq = 0
        self.size = 0


class _TooLong(Exception):
    """The formula being built would be too long to show: building stops early."""


class _Builder:
    """Makes simplified expressions; identical ones are the same object."""

    def __init__(self):
        self.table = {}

    def _intern(self, key, make):
        e = self.table.get(key)
        if e is None:
            e = self.table[key] = make()
            e.seq = len(self.table)
            e.size = _size_of(e)
            if e.size > 2 * MAX_LENGTH:
                raise _TooLong()
        return e

    # ------------------------------------------------------------- atoms
    def num(self, v):
        v = float(v)
        if v == 0:
            v = 0.0  # one zero, not -0.0
        return self._intern(("num", v), lambda: Expr("num", v))

    def var(self, name):
        return self._intern(("var", name), lambda: Expr("var", name))

    def raw(self, text):
        return self._intern(("raw", text), lambda: Expr("raw", text))

    def call(self, name, args, extra="", row=None):
        args = tuple(args)
        folded = _fold_call(row, args, extra)
        if folded is not None:
            return self.num(folded)
        key = ("call", name, tuple(id(a) for a in args), extra)
        return self._intern(key, lambda: Expr("call", name, args, extra))

    def index(self, x, key_text):
        return self._intern(("index", id(x), key_text), lambda: Expr("index", x, key_text))

    def matmul(self, a, b):
        return self._intern(("matmul", id(a), id(b)), lambda: Expr("matmul", a, b))

    # -------------------------------------------------------- arithmetic
    def _factors(self, e):
        """(coefficient, {base: exponent}) of an expression seen as a product."""
        if e.kind == "num":
            return e.a, {}
        if e.kind == "mul":
            return e.a, dict(e.b)
        if e.kind == "pow" and e.b.kind == "num":
            return 1.0, {e.a: e.b.a}
        return 1.0, {e: 1.0}

    def mul(self, *operands):
        sums = [e for e in operands if e.kind == "add"]
        if sums:
            size = 1
            for e in sums:
                size *= len(e.b) + (e.a != 0)
            if size <= 16:  # multiply out small sums, so like terms can meet
                rest = [e for e in operands if e.kind != "add"]
                terms = [self.mul(*rest)] if rest else [self.num(1)]
                for e in sums:
                    parts = [self.mul(self.num(c), m) for c, m in e.b] + ([self.num(e.a)] if e.a != 0 else [])
                    terms = [self._mul_plain(t, q) for t in terms for q in parts]
                return self.add(*terms)
        return self._mul_plain(*operands)

    def _mul_plain(self, *operands):
        coef = 1.0
        factors = {}
        for e in operands:
            c, fs = self._factors(e)
            coef *= c
            for base, exp in fs.items():
                factors[base] = factors.get(base, 0.0) + exp
        if coef == 0 or not math.isfinite(coef) and not factors:
            return self.num(coef)
        factors = {b: p for b, p in factors.items() if p != 0}
        if not factors:
            return self.num(coef)
        items = tuple(sorted(factors.items(), key=lambda kv: _order(kv[0])))
        if coef == 1 and len(items) == 1:
            base, exp = items[0]
            return base if exp == 1 else self._pow_atom(base, exp)
        key = ("mul", coef, tuple((id(b), p) for b, p in items))
        return self._intern(key, lambda: Expr("mul", coef, items))

    def _pow_atom(self, base, exp):
        return self._intern(("pow", id(base), ("n", exp)), lambda: Expr("pow", base, self.num(exp)))

    def pow(self, base, exp):
        if exp.kind == "num":
            p = exp.a
            if base.kind == "num":
                try:
                    return self.num(base.a ** p)
                except (OverflowError, ZeroDivisionError, ValueError):
                    pass
            if p == 0:
                return self.num(1)
            if p == 1:
                return base
            if base.kind == "mul" and float(p).is_integer():
                coef, items = base.a, base.b
                return self.mul(self.num(coef ** p), *[self._pow_atom(b, e * p) for b, e in items])
            if base.kind == "pow" and base.b.kind == "num" and float(p).is_integer():
                return self.pow(base.a, self.num(base.b.a * p))
            return self._pow_atom(base, p)
        return self._intern(("pow", id(base), id(exp)), lambda: Expr("pow", base, exp))

    def _terms(self, e):
        """(constant, [(coefficient, monomial)]) of an expression seen as a sum."""
        if e.kind == "num":
            return e.a, []
        if e.kind == "add":
            return e.a, list(e.b)
        if e.kind == "mul":
            coef, items = e.a, e.b
            mono = self.mul(*[self._pow_atom(b, p) if p != 1 else b for b, p in items])
            return 0.0, [(coef, mono)]
        return 0.0, [(1.0, e)]

    def add(self, *operands):
        const = 0.0
        terms = {}
        for e in operands:
            c, ts = self._terms(e)
            const += c
            for coef, mono in ts:
                terms[mono] = terms.get(mono, 0.0) + coef
        items = tuple(sorted(((c, m) for m, c in terms.items() if c != 0), key=lambda cm: -_degree(cm[1])))
        if not items:
            return self.num(const)
        if const == 0 and len(items) == 1:
            c, m = items[0]
            return m if c == 1 else self.mul(self.num(c), m)
        key = ("add", const, tuple((c, id(m)) for c, m in items))
        return self._intern(key, lambda: Expr("add", const, items))

    def neg(self, e):
        return self.mul(self.num(-1), e)


def _order(e):
    """Factors print numbers first, then names (alphabetically), then the rest in a fixed order."""
    if e.kind == "var":
        return (0, e.a, 0)
    if e.kind == "pow" and e.a.kind == "var":
        return (0, e.a.a, 0)
    return (1, "", e.seq)


def _degree(mono):
    """A term's degree in the variables, for ordering terms like a polynomial (2*a*x + b)."""
    if mono.kind == "var":
        return 1.0
    if mono.kind == "pow" and mono.a.kind == "var" and mono.b.kind == "num":
        return mono.b.a
    if mono.kind == "mul":
        return sum(p for base, p in mono.b if base.kind == "var")
    return 0.0


def _one_tensor(row):
    """Whether a row's public function takes one tensor and nothing else (exp(Tensor input))."""
    parsed = getattr(row, "parsed", None)
    return parsed is not None and [p.type for p in parsed.params] == ["Tensor"]


def _fold_call(row, args, extra):
    """A unary elementwise call on a number, computed by the row's own forward."""
    if row is None or not _one_tensor(row) or not row.elementwise or extra or len(args) != 1 \
            or args[0].kind != "num":
        return None
    with numpy.errstate(all="ignore"):
        value = float(row.forward(numpy, numpy.float64(args[0].a)))
    return value if math.isfinite(value) else None


# ------------------------------------------------------------ graph to formula

def _constant(t, names, b, elementwise):
    """A tensor without a graph: its name if bound, its value if small. Where
    broadcasting makes it so (an elementwise use), an all-equal tensor is one number."""
    name = names.get(id(t))
    if name is not None:
        return b.var(name)
    if t.numel() == 1 and (elementwise or t.dim() == 0):
        return b.num(float(t.item()))
    values = numpy.asarray(t.detach()).reshape(-1)
    if values.size and (values == values[0]).all():
        if elementwise:
            return b.num(float(values[0]))
        return b.raw(f"full({_shape_text(tuple(t.shape))}, {_num_text(float(values[0]))})")
    if t.numel() <= 12:
        return b.raw("tensor(" + _list_text(numpy.asarray(t.detach())) + ")")
    return b.raw(f"<constant {list(t.shape)}>")


def _list_text(a):
    show = (lambda v: "True" if v else "False") if a.dtype == bool else (lambda v: _num_text(float(v)))
    return numpy.array2string(a, separator=", ", formatter={"all": show}).replace("\n", "")


def _key_text(key):
    parts = []
    for k in key:
        if k is None:
            parts.append("None")
        elif k is Ellipsis:
            parts.append("...")
        elif isinstance(k, slice):
            text = ("" if k.start is None else str(k.start)) + ":" + ("" if k.stop is None else str(k.stop))
            if k.step is not None:
                text += f":{k.step}"
            parts.append(text)
        elif isinstance(k, int):
            parts.append(str(k))
        else:
            parts.append(repr(k.tolist()))
    return ", ".join(parts)


def _shape_text(shape):
    return "(" + ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"


def _node_expr(node, args, b):
    """The expression one traced node computes, from its arguments' expressions,
    printed as its op-table row says (`formula`)."""
    return _row_expr(node, _graph.node_op(node), _graph.node_params(node), args, b)


def _row_expr(node, row, p, args, b):
    """_node_expr's expression, by `row` with parameters `p` (a copying view's: the view's)."""
    spec = row.formula
    kind = spec[0]
    if kind == "infix":
        _, symbol, left, right = spec
        operands = list(args)
        if left is not None:
            operands.insert(0, b.num(p[left] if isinstance(left, str) else left))
        if right is not None:
            operands.append(b.num(p[right] if isinstance(right, str) else right))
        return _INFIX[symbol](b, operands[0], operands[1])
    if kind == "prefix":
        return b.neg(args[0])
    if kind == "same":
        return args[0]
    if kind == "custom":
        return _CUSTOM[spec[1]](node, row, args, b, p)
    keywords = spec[1]
    if keywords is None:  # a row that says nothing: its parameters, elided
        extra = ", ".join(f"{k}=..." for k in p)
    else:
        extra = ", ".join(f"{k}={p[k]!r}" for k in keywords if p.get(k) is not None)
    return b.call(_public_name(row), args, extra, row=row)


def _public_name(row):
    return row.names[0] if row.names else row.name


_INFIX = {
    "+": lambda b, x, y: b.add(x, y),
    "-": lambda b, x, y: b.add(x, b.neg(y)),
    "*": lambda b, x, y: b.mul(x, y),
    "/": lambda b, x, y: b.mul(x, b.pow(y, b.num(-1))),
    "**": lambda b, x, y: b.pow(x, y),
    "@": lambda b, x, y: b.matmul(x, y),
}


def _scalar_input(node):
    shape = node.shapes[0]
    return shape is not None and _numel(shape) == 1


def _render_reshape(node, row, args, b, p):
    """reshape, view, squeeze, unsqueeze and expand: nothing to show for a single number."""
    if _scalar_input(node):
        return args[0]
    name = "expand" if row.name == "expand" else "reshape"
    shape = p["shape"] if row.name in ("reshape", "expand") else node.out_shape
    return b.call(name, args[:1], _shape_text(shape))


def _render_sum_to(node, row, args, b, p):
    shape, in_shape = p["shape"], node.shapes[0]
    if tuple(shape) == tuple(in_shape):
        return args[0]
    if len(shape) == 0:
        return b.call("sum", args[:1])
    lead = len(in_shape) - len(shape)
    dims = tuple(range(lead)) + tuple(i + lead for i, s in enumerate(shape) if s == 1 and in_shape[i + lead] != 1)
    return b.call("reshape", [b.call("sum", args[:1], f"dim={_shape_text(dims)}, keepdim=True")],
                  _shape_text(shape))


def _render_reduction(node, row, args, b, p):
    name = _public_name(row)
    if _scalar_input(node) and name != "logsumexp" and not p.get("keepdim"):
        return args[0]
    extra = []
    if p.get("dim") is not None:
        extra.append(f"dim={p['dim']!r}")
    if p.get("keepdim"):
        extra.append("keepdim=True")
    return b.call(name, args[:1], ", ".join(extra))


def _render_extreme(node, row, args, b, p):
    return args[0] if _scalar_input(node) else b.call(_public_name(row), args[:1])


def _render_norm(node, row, args, b, p):
    return b.call("norm", args[:1], f"p={p['p']!r}" + (f", dim={p['dim']!r}" if p.get("dim") is not None else "")
                  + (", keepdim=True" if p.get("keepdim") else ""))


def _render_where(node, row, args, b, p):
    cond = numpy.asarray(p["cond"])
    if cond.all():
        return args[0]
    if not cond.any():
        return args[1]
    text = _list_text(cond.astype(bool)) if cond.size <= 12 else "<mask>"
    return b.call("where", [b.raw(text), args[0], args[1]])


def _render_transpose(node, row, args, b, p):
    return b.call("transpose", args[:1], f"{p['dim0']}, {p['dim1']}")


def _render_permute(node, row, args, b, p):
    return b.call("permute", args[:1], _shape_text(p["dims"]))


def _render_index(node, row, args, b, p):
    return b.index(args[0], _key_text(p["key"]))


def _render_join(node, row, args, b, p):
    return b.call(row.name, [b.raw("[" + ", ".join(["{}"] * len(args)) + "]")] + list(args), f"dim={p['dim']}")


def _render_values_along(node, row, args, b, p):
    """max(x, dim) / min / median by dim: the values of the (values, indices) result."""
    fname = re.sub(r"Backward\d*$", "", p["name"]).lower() if "name" in p else _public_name(row)
    extra = f"dim={p['dim']}" + (", keepdim=True" if p.get("keepdim") else "")
    return b.index(b.call(fname, args[:1], extra), "0")


def _render_masked_gradient(node, row, args, b, p):
    """threshold_backward(g, x) as where(gt(x, t), g, 0); leaky_relu_backward's with slope*g;
    hardtanh_backward's as where(logical_or(le(x, lo), ge(x, hi)), 0, g)."""
    g, x = args
    if row.name == "threshold_backward":
        return b.call("where", [b.call("gt", [x, b.num(p.get("threshold", 0.0))]), g, b.num(0)])
    if row.name == "hardtanh_backward":
        outside = b.call("logical_or", [b.call("le", [x, b.num(p.get("min_val", -1.0))]),
                                        b.call("ge", [x, b.num(p.get("max_val", 1.0))])])
        return b.call("where", [outside, b.num(0), g])
    return b.call("where", [b.call("gt", [x, b.num(0)]), g, b.mul(b.num(p.get("negative_slope", 0.01)), g)])


def _render_activation_gradient(node, row, args, b, p):
    """An activation's gradient row as the expression it stands for: tanh_backward(g, y) as
    g*(1 - y**2), sigmoid_backward(g, y) as g*(1 - y)*y, softplus_backward(g, x) as
    where(gt(beta*x, threshold), g, g*sigmoid(beta*x)), and gelu's, elu's, logsigmoid's."""
    g, y = args
    one = b.num(1)
    if row.name == "tanh_backward":
        return b.mul(g, b.add(one, b.neg(b.pow(y, b.num(2)))))
    if row.name == "sigmoid_backward":
        return b.mul(g, b.add(one, b.neg(y)), y)
    x = y
    if row.name == "log_sigmoid_backward":
        return b.mul(g, b.call("sigmoid", [b.neg(x)]))
    if row.name == "softplus_backward":
        bx = b.mul(b.num(p.get("beta", 1.0)), x)
        return b.call("where", [b.call("gt", [bx, b.num(p.get("threshold", 20.0))]), g,
                                b.mul(g, b.call("sigmoid", [bx]))])
    if row.name == "elu_backward":
        scale, input_scale = p.get("scale", 1.0), p.get("input_scale", 1.0)
        negative = b.mul(g, b.num(input_scale * p.get("alpha", 1.0) * scale),
                         b.call("exp", [b.mul(b.num(input_scale), x)]))
        return b.call("where", [b.call("gt", [x, b.num(0)]), b.mul(b.num(scale), g), negative])
    half = b.num(0.5)
    if p.get("approximate", "none") == "tanh":  # gelu_backward: x/2 (1 + t), t = tanh(u)
        u_slope = b.mul(b.num(TANH_BETA), b.add(one, b.mul(b.num(3 * TANH_KAPPA), b.pow(x, b.num(2)))))
        t = b.call("tanh", [b.mul(b.num(TANH_BETA), b.add(x, b.mul(b.num(TANH_KAPPA), b.pow(x, b.num(3)))))])
        return b.mul(g, b.add(b.mul(half, b.add(one, t)),
                              b.mul(half, x, b.add(one, b.neg(b.pow(t, b.num(2)))), u_slope)))
    cdf = b.mul(half, b.add(one, b.call("erf", [b.mul(b.num(M_SQRT1_2), x)])))
    pdf = b.mul(b.num(GELU_PDF), b.call("exp", [b.mul(b.num(-0.5), b.pow(x, b.num(2)))]))
    return b.mul(g, b.add(cdf, b.mul(x, pdf)))


def _render_mse_gradient(node, row, args, b, p):
    """mse_loss_backward(g, x, t) as norm*(x - t)*g: norm 2, over the number of elements for 'mean'."""
    g, x, t = args
    return b.mul(b.num(mse_norm(node.shapes[1], p.get("reduction", "mean"))), b.add(x, b.neg(t)), g)


def _render_fill(node, row, args, b, p):
    return b.num(p["value"])


def _render_view_copy(node, row, args, b, p):
    """A view's copy (t_copy, permute_copy, unsafe_split, ...): the view it copies (the same values)."""
    return _row_expr(node, E.OPS[p["view"]], p["args"], args, b)


def _render_function_output(node, row, args, b, p):
    """Output k of a custom Function with several: F.apply(x)[k]."""
    return b.index(args[0], str(node.output_nr))


_CUSTOM = {"reshape": _render_reshape, "sum_to": _render_sum_to, "reduction": _render_reduction,
           "extreme": _render_extreme, "norm": _render_norm, "where": _render_where,
           "transpose": _render_transpose, "permute": _render_permute, "index": _render_index,
           "join": _render_join, "fill": _render_fill, "values_along": _render_values_along,
           "masked_gradient": _render_masked_gradient, "mse_gradient": _render_mse_gradient,
           "activation_gradient": _render_activation_gradient, "function_output": _render_function_output,
           "view_copy": _render_view_copy}


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _graph_expr(t, names, b):
    """The expression of tensor `t`, built from its traced graph bottom-up."""
    root = t.grad_fn
    if root is None:
        return _constant(t, names, b, True) if not t.requires_grad else b.var(names.get(id(t), "x"))
    memo = {}
    stack = [(root, False)]
    while stack:
        node, expanded = stack.pop()
        if node in memo:
            continue
        args = _graph.node_args(node)
        if args is None:
            memo[node] = b.raw(f"<{node.name()}>")
            continue
        if not expanded:
            stack.append((node, True))
            for a in args:
                if isinstance(a, E.Tensor) and a.grad_fn is not None and a.grad_fn not in memo:
                    stack.append((a.grad_fn, False))
            continue
        exprs = []
        elementwise = _graph.node_op(node).elementwise
        for a in args:
            if isinstance(a, E.Tensor):
                if a.grad_fn is not None:
                    exprs.append(memo[a.grad_fn])
                else:
                    exprs.append(_constant(a, names, b, elementwise))
            elif a is None:
                exprs.append(b.num(0))
            else:
                exprs.append(b.num(float(a)))
        memo[node] = _node_expr(node, exprs, b)
    return memo[root]


# --------------------------------------------------------------------- printing

_PREC_ADD, _PREC_MUL, _PREC_UNARY, _PREC_POW, _PREC_ATOM = 1, 2, 3, 4, 5


def _num_text(v):
    if abs(v) < 1e16 and v == int(v):  # not inf or nan (int() of them raises): repr's inf, -inf, nan
        return str(int(v))
    return repr(v)


def render(expr, limit=None):
    """The text of an expression, with no more parentheses than the language needs;
    None as soon as a part of it is longer than `limit` characters. Each
    part's text is dropped once every expression using it is rendered, so a
    long chain needs memory for its longest text only."""
    users = {}  # how many renderings still need each part's text
    seen = {expr}
    stack = [expr]
    while stack:
        for k in _needs(stack.pop()):
            users[k] = users.get(k, 0) + 1
            if k not in seen:
                seen.add(k)
                stack.append(k)
    out = {}
    stack = [(expr, False)]
    while stack:
        e, ready = stack.pop()
        if e in out:
            continue
        kids = _children(e)
        if not ready and kids:
            stack.append((e, True))
            stack.extend((k, False) for k in kids if k not in out)
            continue
        out[e] = _render_one(e, out)
        if limit is not None and len(out[e][0]) > limit:
            return None
        for k in _needs(e):
            users[k] -= 1
            if users[k] == 0:
                del out[k]
    return out[expr][0]


def _size_of(e):
    """More than the length of e's text: its parts' sizes and a generous allowance for the rest."""
    own = 24 + 4 * len(_children(e))
    if e.kind in ("num", "var", "raw"):
        return own + len(str(e.a))
    if e.kind == "add":
        own += 24 * len(e.b)  # the coefficients shown with the terms
    elif e.kind == "call":
        own += len(e.a) + len(e.c or "")
    elif e.kind == "index":
        own += len(e.b)
    return own + sum(k.size for k in _children(e))


def _needs(e):
    """The parts whose text rendering `e` reads: its children, and for a sum the
    factors of its terms too (a term is shown with its coefficient)."""
    kids = _children(e)
    if e.kind == "add":
        for _, mono in e.b:
            if mono.kind == "mul":
                kids += [base for base, _ in mono.b]
            elif mono.kind == "pow" and mono.b.kind == "num":
                kids.append(mono.a)
    return kids


def _children(e):
    if e.kind == "add":
        return [m for _, m in e.b]
    if e.kind == "mul":
        return [base for base, _ in e.b]
    if e.kind == "pow":
        return [e.a, e.b]
    if e.kind == "call":
        return list(e.b)
    if e.kind == "index":
        return [e.a]
    if e.kind == "matmul":
        return [e.a, e.b]
    return []


def _wrap(text_prec, need):
    text, prec = text_prec
    return text if prec >= need else f"({text})"


def _render_one(e, out):
    k = e.kind
    if k == "num":
        text = _num_text(e.a)
        return text, (_PREC_UNARY if e.a < 0 else _PREC_ATOM)
    if k in ("var", "raw"):
        return e.a, _PREC_ATOM
    if k == "pow" and e.b.kind == "num" and e.b.a < 0:
        q = -e.b.a
        base = _wrap(out[e.a], _PREC_POW + 1 if q != 1 else _PREC_ATOM)
        return (f"1/{base}" if q == 1 else f"1/{base}**{_num_text(q)}"), _PREC_MUL
    if k == "pow":
        base = _wrap(out[e.a], _PREC_POW + 1)
        exp = _wrap(out[e.b], _PREC_POW) if e.b.kind != "num" or e.b.a >= 0 else f"({_num_text(e.b.a)})"
        return f"{base}**{exp}", _PREC_POW
    if k == "mul":
        coef, items = e.a, e.b
        top, bottom = [], []
        for base, p in items:
            target = top if p > 0 else bottom
            q = abs(p)
            if q == 1:
                target.append(_wrap(out[base], _PREC_MUL + 1 if target is top else _PREC_POW))
            else:
                target.append(f"{_wrap(out[base], _PREC_POW + 1)}**{_num_text(q)}")
        sign = "-" if coef < 0 else ""
        c = abs(coef)
        if c != 1 or not top:
            top.insert(0, _num_text(c))
        text = sign + "*".join(top)
        if bottom:
            text += "/" + (bottom[0] if len(bottom) == 1 else "(" + "*".join(bottom) + ")")
        return text, (_PREC_MUL if not sign else _PREC_UNARY - 1)
    if k == "add":
        const, items = e.a, e.b
        parts = []
        for coef, mono in items:
            term = _render_one(_Term(coef, mono), out) if coef != 1 else out[mono]
            text = _wrap(term, _PREC_ADD + 1) if term[1] <= _PREC_ADD else term[0]
            parts.append(text)
        if const != 0:
            parts.append(_num_text(const))
        text = parts[0]
        for part in parts[1:]:
            text += f" - {part[1:]}" if part.startswith("-") else f" + {part}"
        return text, _PREC_ADD
    if k == "call":
        name, args, extra = e.a, e.b, e.c
        if args and args[0].kind == "raw" and "{}" in args[0].a:
            inner = args[0].a.format(*[out[a][0] for a in args[1:]])
            texts = [inner]
        else:
            texts = [out[a][0] for a in args]
        if extra:
            texts.append(extra)
        return f"{name}({', '.join(texts)})", _PREC_ATOM
    if k == "index":
        return f"{_wrap(out[e.a], _PREC_ATOM)}[{e.b}]", _PREC_ATOM
    if k == "matmul":
        return f"{_wrap(out[e.a], _PREC_MUL)} @ {_wrap(out[e.b], _PREC_MUL + 1)}", _PREC_MUL
    return "?", _PREC_ATOM


class _Term:
    """A coefficient times a monomial, shown as a product (inside a sum)."""

    __slots__ = ("kind", "a", "b")

    def __init__(self, coef, mono):
        if mono.kind == "mul":
            self.kind, self.a, self.b = "mul", coef * mono.a, mono.b
        elif mono.kind == "pow" and mono.b.kind == "num":
            self.kind, self.a, self.b = "mul", coef, ((mono.a, mono.b.a),)
        else:
            self.kind, self.a, self.b = "mul", coef, ((mono, 1.0),)


def formula_of(t, names, source=None):
    """The formula of tensor `t` (a derivative computed under trace_inputs)."""
    b = _Builder()
    try:
        expr = _graph_expr(t, names or {}, b)
    except _TooLong:
        text = None
    else:
        text = render(expr, MAX_LENGTH)
    if text is None:
        return f"(a formula of more than {MAX_LENGTH:,} characters, too long to show)"
    return text
