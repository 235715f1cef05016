"""Writes tests/golden/language_python.json: Python snippets of the kind
pasted from PyTorch autograd tutorials, each with the stdout that real
CPython (3.11) and PyTorch 2.13 print for it. tests/grammar/test_language_python.py
runs the same sources through the language and compares stdout exactly.

Run with a Python that has PyTorch 2.13 (`pip install torch==2.13.0`; not a dependency of the
test suite) -- CPython 3.11, as recorded, since the snippets' output is Python's as well:

    python tests/golden/gen_language_python.py

Every snippet runs in a fresh namespace, with torch's default dtype float32
(the test runs the language with --dtype float32 too)."""
import contextlib
import io
import json
import pathlib

SNIPPETS = {
    # ------------------------------------------------ 1. comprehensions
    "listcomp_filters": """
xs = [1, 2, 3, 4, 5]
print([x * x for x in xs if x % 2 == 1])
print([(i, j) for i in range(3) for j in range(i) if i + j > 1])
print([[i * j for j in range(3)] for i in range(3)])
print([x if x > 2 else -x for x in xs])
""",
    "comprehension_scope": """
x = 'outer'
ys = [x for x in range(3)]
print(x, ys)
def f():
    i = 10
    squares = [i * i for i in range(4)]
    return i, squares
print(f())
fns = [lambda: k for k in range(3)]
print([g() for g in fns])
fns = [lambda k=k: k for k in range(3)]
print([g() for g in fns])
n = 3
print([n * v for v in range(n)])
""",
    "genexp_builtins": """
import torch
xs = [1.0, 2.0, 3.0]
print(sum(x ** 2 for x in xs))
print(any(x > 2 for x in xs), all(x > 2 for x in xs))
print(max(x * 2 for x in xs), min((x for x in xs)))
print(list(x for x in range(4)), tuple(str(x) for x in range(3)))
print(sorted((-x for x in xs)))
g = (x for x in range(3))
print(list(g), list(g))
vs = [torch.tensor([1., 2.]), torch.tensor([3., 4.])]
print(torch.stack([v * 2 for v in vs]))
print(sum(v.sum() for v in vs))
""",
    "tensor_grads_comprehension": """
import torch
params = [torch.tensor([1., 2.], requires_grad=True), torch.tensor(3., requires_grad=True)]
loss = sum((p ** 2).sum() for p in params)
loss.backward()
print([p.grad for p in params])
print({i: p.grad.sum().item() for i, p in enumerate(params)})
print(all(p.grad is not None for p in params))
""",
    "dict_and_set_comprehensions": """
words = ['a', 'bb', 'cc', 'ddd']
print({w: len(w) for w in words})
print({len(w) for w in words})
print({k: v for k, v in zip('abc', range(3)) if v != 1})
print({1, 2, 3} == {3, 2, 1}, len({1, 1, 2}))
""",
    # ------------------------------------------------------- 2. dicts
    "dicts": """
d = {"a": 1, "b": 2}
e = {**d, "c": 3, "a": 0}
print(e, len(e), "a" in e, "z" in e, "z" not in e)
e["d"] = 4
print(e["d"], e.get("q"), e.get("q", -1), list(e.keys()), list(e.values()))
for k, v in e.items():
    print(k, v)
for k in e:
    print(k, end=" ")
print()
del e["a"]
print(e, e.pop("b"), e)
print(dict(x=1, y=2), dict([("p", 1)]), {})
e.update({"z": 26})
print(sorted(e.items()), e.setdefault("w", 0), e)
print(d == {"b": 2, "a": 1}, type(d).__name__)
try:
    d["missing"]
except KeyError as err:
    print("KeyError", err, repr(err))
""",
    "dict_of_tensors": """
import torch
state = {"w": torch.tensor([1., 2.]), "b": torch.tensor(0.5)}
for name, t in state.items():
    print(name, t * 2)
print(state)
print({k: v.shape for k, v in state.items()})
""",
    # ------------------------------------------------ 3. calls, *args, defaults
    "star_args_kwargs": """
def f(a, b=2, *args, c, d=4, **kw):
    return (a, b, args, c, d, kw)
print(f(1, c=3))
print(f(1, 5, 6, 7, c=3, e=9))
args = [10, 20]
opts = {"c": 0, "z": 1}
print(f(*args, **opts))
print(f(*args, 30, *[40], c=1, **{"d": 5}))
def g(*, key):
    return key
print(g(key="k"))
def h(x, y, /, z=0):
    return x + y + z
print(h(1, 2), h(1, 2, z=3))
print(max(*[3, 9, 4]), print(*["a", "b"], sep="-"))
""",
    "binding_errors": """
def f(a, b):
    return a + b
def g(a, b=1, *, c):
    return a
def h(x, /):
    return x
for call in (lambda: f(1), lambda: f(1, 2, 3), lambda: f(1, b=2, a=3), lambda: f(1, 2, c=3),
             lambda: g(1), lambda: g(1, 2, 3, c=4), lambda: h(x=1), lambda: f(), lambda: (lambda: 0)(1)):
    try:
        call()
    except TypeError as e:
        print(e)
""",
    "defaults_evaluated_once": """
calls = []
def make():
    calls.append(1)
    return []
def append(x, acc=make()):
    acc.append(x)
    return acc
print(append(1), append(2), len(calls))
k = 5
def fixed(v=k):
    return v
k = 6
print(fixed(), fixed(7))
add = lambda a, b=10: a + b
print(add(1), add(1, 2), (lambda *a, **kw: (a, kw))(1, x=2))
""",
    # --------------------------------------------- 4. loops and exceptions
    "loop_else": """
for i in range(3):
    if i == 5:
        break
else:
    print("no break", i)
for i in range(3):
    if i == 1:
        break
else:
    print("not printed")
print("broke at", i)
n = 0
while n < 3:
    n += 1
    if n == 2:
        continue
    print("n", n)
else:
    print("while done", n)
while True:
    break
else:
    print("not printed")
for i, (a, b) in enumerate([(1, 2), (3, 4)]):
    print(i, a, b)
""",
    "try_except_basics": """
def divide(a, b):
    try:
        r = a / b
    except ZeroDivisionError as e:
        print("caught:", e)
        return None
    else:
        print("no error")
        return r
    finally:
        print("finally", a, b)
print(divide(1, 2))
print(divide(1, 0))
try:
    [1, 2][5]
except (KeyError, IndexError) as e:
    print(type(e).__name__, e)
try:
    int("x")
except ValueError as e:
    print("ValueError:", e)
try:
    raise ValueError("bad value")
except Exception as e:
    print(type(e).__name__, str(e), repr(e), e.args)
try:
    undefined_name
except NameError as e:
    print(e)
try:
    raise RuntimeError
except RuntimeError as e:
    print(repr(e), str(e) == "")
try:
    assert 1 == 2, "one is not two"
except AssertionError as e:
    print("assert:", e)
""",
    "try_reraise_and_nesting": """
def risky(n):
    if n > 1:
        raise NotImplementedError(f"n={n}")
    return n
out = []
for n in range(4):
    try:
        try:
            out.append(risky(n))
        except NotImplementedError:
            out.append("inner")
            raise
    except Exception as e:
        out.append(type(e).__name__ + ":" + str(e))
    finally:
        out.append("f")
print(out)
try:
    try:
        raise KeyError("k")
    finally:
        print("cleanup")
except LookupError as e:
    print("outer", repr(e))
def early():
    for i in range(5):
        try:
            if i == 2:
                return i
        finally:
            print("leaving", i)
print(early())
for i in range(3):
    try:
        if i == 1:
            continue
        print("body", i)
    finally:
        print("fin", i)
try:
    raise ValueError("a") from KeyError("b")
except ValueError as e:
    print(e, type(e.__cause__).__name__ if False else "cause ok")
try:
    pass
except:
    print("no")
else:
    print("else runs")
try:
    raise StopIteration
except:
    print("bare except")
""",
    "exception_name_unbound_after_handler": """
try:
    1 / 0
except ZeroDivisionError as err:
    pass
try:
    print(err)
except NameError as e:
    print("NameError:", e)
""",
    "backward_twice_is_catchable": """
import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = (x * x).sum()
y.backward()
try:
    y.backward()
except RuntimeError as e:
    print(type(e).__name__)
    print(str(e)[:60])
print(x.grad)
""",
    "engine_errors_are_catchable": """
import torch
a = torch.ones(2, 3)
b = torch.ones(4, 5)
try:
    a @ b
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.ones(2)[5]
except IndexError as e:
    print("IndexError:", e)
x = torch.ones(2, requires_grad=True)
try:
    x.add_(1)
except RuntimeError as e:
    print(e)
""",
    "finally_control_flow_and_hooks": """
import torch
def f():
    try:
        raise ValueError("x")
    finally:
        return "swallowed"
print(f())
def g():
    for i in range(3):
        try:
            raise KeyError(i)
        finally:
            if i < 2:
                continue
            break
    return i
print(g())
try:
    try:
        raise ValueError("first")
    except ValueError:
        raise TypeError("second")
except TypeError as e:
    print("outer got", e)
x = torch.ones(2, requires_grad=True)
print(isinstance(x, torch.Tensor), isinstance(1, torch.Tensor))
with torch.no_grad() as g, torch.enable_grad():
    print(g, torch.is_grad_enabled())
def hook(grad):
    try:
        return grad * 2
    finally:
        print("hook ran")
x.register_hook(hook)
(x * 3).sum().backward()
print(x.grad)
def bad_hook(grad):
    raise ValueError("from hook")
y = torch.ones(2, requires_grad=True)
y.register_hook(bad_hook)
try:
    (y * 3).sum().backward()
except ValueError as e:
    print("caught hook error:", e)
print(torch.is_grad_enabled())
""",
    # ------------------------------------------------------ 5. decorators
    "decorators": """
import torch
@torch.no_grad()
def double(t):
    return t * 2
@torch.no_grad
def triple(t):
    return t * 3
x = torch.ones(2, requires_grad=True)
print(double(x).requires_grad, triple(x).requires_grad, (x * 2).requires_grad)
with torch.no_grad():
    @torch.enable_grad()
    def inside(t):
        return t * 2
    print(inside(x).requires_grad)
@torch.inference_mode()
def infer(t):
    return t + 1
print(infer(x).requires_grad, torch.is_inference_mode_enabled())
def logged(fn):
    def wrapper(*args, **kwargs):
        print("calling", len(args), sorted(kwargs))
        return fn(*args, **kwargs)
    return wrapper
def twice(fn):
    def wrapper(v):
        return fn(fn(v))
    return wrapper
@logged
@twice
def inc(v):
    return v + 1
print(inc(1))
def tag(label):
    def deco(fn):
        def wrapper(*a):
            return label + str(fn(*a))
        return wrapper
    return deco
@tag("result=")
def square(v):
    return v * v
print(square(4))
""",
    # --------------------------------------------------- 6. global, nonlocal
    "global_nonlocal": """
count = 0
def bump():
    global count
    count += 1
    return count
bump(); bump()
print(count)
def counter():
    n = 0
    def inc(step=1):
        nonlocal n
        n += step
        return n
    return inc
c = counter()
print(c(), c(), c(5))
def outer():
    v = "outer"
    def middle():
        def inner():
            nonlocal v
            v = "changed"
        inner()
        return v
    return middle(), v
print(outer())
def reads_global():
    return count * 10
print(reads_global())
def make_adders():
    return [lambda x, i=i: x + i for i in range(3)]
print([f(10) for f in make_adders()])
def late():
    fs = []
    for i in range(3):
        fs.append(lambda: i)
    return [f() for f in fs]
print(late())
""",
    "unbound_local": """
x = 1
def f():
    try:
        print(x)
    except UnboundLocalError as e:
        print(type(e).__name__, e)
    x = 2
    return x
print(f())
def g():
    def h():
        return y
    try:
        h()
    except NameError as e:
        print(e)
    y = 1
g()
""",
    # ---------------------------------------------------------- 7. imports
    "imports_torch": """
import torch
import torch.nn.functional as F
from torch import nn, autograd, tensor
from torch.autograd import grad
import torch as T
x = tensor([1., -2.], requires_grad=True)
y = F.relu(x).sum() + nn.functional.sigmoid(x).sum()
g, = grad(y, x)
print(g)
print(T.ones(2), autograd.grad(x.sum(), x)[0])
""",
    "import_math": """
import math
from math import sqrt, pi as PI
print(math.pi, math.e, math.tau, math.inf, math.nan)
print(math.sqrt(2), sqrt(16), PI)
print(math.exp(1), math.log(100, 10), math.log2(8), math.log10(1000))
print(math.sin(0.5), math.cos(0.5), math.tan(0.5), math.atan2(1, 2))
print(math.floor(2.7), math.ceil(2.1), math.fabs(-3), math.pow(2, 10), math.hypot(3, 4))
print(math.isclose(0.1 + 0.2, 0.3), math.isfinite(1.0), math.isnan(math.nan), math.isinf(-math.inf))
print(math.factorial(20), math.comb(10, 3), math.prod([1, 2, 3, 4]), math.fsum([0.1] * 10))
print(math.tanh(1.0), math.sinh(1.0), math.cosh(1.0), math.asin(0.5), math.acos(0.5), math.atan(1.0))
import torch
t = torch.tensor(2.25)
print(math.sqrt(t), math.floor(t), math.isclose(t, 2.25), math.exp(torch.tensor([0.5])))
""",
    "import_numpy": """
import numpy as np
import torch
a = np.array([1., 2., 3.])
print(a)
print(np.zeros(3), np.ones((2, 2)), np.eye(2))
print(np.linspace(0, 1, 5))
print(np.arange(5), np.arange(1, 2, 0.25))
print(np.sin(a), np.exp(np.zeros(2)), np.sqrt(a), np.abs(-a))
print(np.sum(a), np.mean(a), np.dot(a, a), np.matmul(np.eye(2), np.ones(2)))
print(np.allclose(a, a + 1e-9), np.isclose(a, [1, 2, 4]))
print(a.shape, a.dtype, a * 2, a[1], a[1:])
t = torch.tensor(a)
print(t, torch.from_numpy(a), torch.tensor(np.array([[1, 2]], dtype=np.int64)))
np.random.seed(0)
print(np.random.rand(3))
print(np.random.randn(2, 2))
print(np.pi, np.e, np.inf, np.full(2, 7.0), np.zeros(2, dtype=np.float32).dtype)
x = torch.tensor(np.array([0.5, 1.5], dtype=np.float32), requires_grad=True)
(x ** 2).sum().backward()
print(x.grad)
""",
    "import_numpy_forms": """
import numpy
from numpy import array, zeros
print(numpy.array([1, 2]), array([3.5]), zeros(2))
""",
    # ------------------------------------------------------- 8. formatting
    "string_formatting": """
import torch
x = 3.14159
t = torch.tensor(2.5)
print("%.3f" % x, "%s and %d" % ("a", 7), "%5.1f|" % 2.25, "%-4d|" % 3, "%x %o %e" % (255, 8, 12345.678))
print("%s" % [1, 2], "%r" % "q", "%(a)s-%(b)d" % {"a": "A", "b": 2}, "100%%" % ())
print("{:.4f}".format(x), "{} {}".format(1, "b"), "{0}{1}{0}".format("x", "y"))
print("{name}={val:>6.2f}".format(name="v", val=x), "{:,}".format(1234567), "{!r}".format("s"))
print(format(x, ".2f"), format(t, ".2f"), format(7, "03d"), format(0.5, "%"))
print(f"{x:.2f} {x!r} {'s'!r} {t!r} {t:.3f} {t.item():.1e} {x=}")
w = 8
print(f"[{x:>{w}.2f}]", f"{'c':^5}|", f"{3:+d}", f"{1e-5:g}")
print("%.3f" % t, "%s" % t, "%d" % torch.tensor(3), "{:.2f}".format(t))
print(f"{[1, 2]}", f"{(1,)}", f"{None}", f"{True:d}")
""",
    # a 0-d tensor formats as its number (Tensor.__format__); the engine's part, checked here too
    "tensor_format_empty_spec": """
import torch
t = torch.tensor(2.5)
print(f"{t}", "{}".format(t), format(t), f"{t!s}")
""",
    # ------------------------------------------------ bitwise operators (no ^: the language's ^ is **)
    "bitwise_masks": """
import torch
x = torch.tensor([-1.5, 0.25, 0.75, 2.0], requires_grad=True)
inside = (x > 0) & (x < 1)
outside = ~inside
print(inside, outside, inside | (x > 1))
loss = (x * inside).sum() + (x ** 2 * outside).sum()
loss.backward()
print(x.grad)
m = torch.tensor([5, 3, -2])
print(m & 6, m | 8, ~m, m << 2, m >> 1, 3 & m, torch.bitwise_xor(m, 1))
keep = torch.tensor([True, False, True])
keep &= torch.tensor([True, True, False])
print(keep)
""",
    # ------------------------------------------------ starred targets and displays, :=
    "starred_unpacking": """
first, *rest = [1, 2, 3]
*init, last = (1, 2, 3)
a, *mid, z = range(5)
[p, *q] = "x"
print(first, rest, init, last, a, mid, z, p, q)
xs = [1, 2]
print([*xs, 3, *range(2)], (*xs, 0), (*xs,), {*xs})
t = *xs, 5
print(t)
def f():
    return *xs, 8
print(f())
for v in *xs, 7:
    print(v)
import torch
head, *tail = torch.tensor([1.0, 2.0, 3.0])
print(head, tail)
""",
    "starred_targets_in_functions_and_loops": """
def f():
    first, *rest = [1, 2, 3]
    for a, *b in [(1, 2)]:
        pass
    return first, rest, b
print(f())
try:
    print(rest)
except NameError as e:
    print("NameError", e)
for a, *b in [(1, 2, 3), (4,)]:
    print(a, b)
print([(h, t) for h, *t in ["abc", "d"]])
""",
    "walrus": """
xs = [3, 1, 4, 1, 5]
if (n := len(xs)) > 2:
    print(n)
i = 0
while (i := i + 1) < 3:
    print("i", i)
print([y for x in xs if (y := x * 2) > 4], y)
def running(data):
    s = 0
    return [(s := s + v) for v in data], s
print(running([1, 2, 3]), (z := 10), z, max(w := 5, 2), w, [u := 1, u + 1], (k := 2, 3), k)
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
if (loss := (x ** 2).sum()) > 1:
    loss.backward()
print(loss, x.grad)
""",
    "number_builtins": """
q, r = divmod(17, 5)
print(q, r, divmod(-7.5, 2), hex(255), oct(8), bin(-5), chr(955), ord("a"), [chr(ord("a") + i) for i in range(3)])
""",
    "getattr_hasattr_callable": """
import torch
class P:
    k = 3
    def __init__(self, v):
        self.v = v
    def double(self):
        return 2 * self.v
class C:
    def __call__(self, x):
        return x + 1
p = P(5)
print(getattr(p, "v"), getattr(p, "k"), getattr(p, "w", "none"), getattr(p, "double")())
print(hasattr(p, "v"), hasattr(p, "w"), hasattr(P, "k"), hasattr(P, "double"))
t = torch.tensor([1.0, 2.0], requires_grad=True)
print(getattr(t, "shape"), hasattr(t, "grad"), hasattr(t, "nope"), getattr(t, "sum")())
print(callable(p), callable(C()), callable(P), callable(len), callable(3), callable(p.double), callable(lambda: 1))
print(getattr("ab", "upper")(), hasattr([], "append"), getattr(torch, "exp")(torch.tensor(0.0)))
for name in ["v", "w"]:
    try:
        print(getattr(p, name))
    except AttributeError as e:
        print("AttributeError", e)
try:
    getattr(p, 3)
except TypeError as e:
    print("TypeError", e)
""",
    "random_and_time": """
import random
import time
random.seed(42)
xs = list(range(10))
random.shuffle(xs)
print(random.random(), random.uniform(1, 2), random.randint(1, 6), random.choice("abc"), xs)
print(random.sample(xs, 3), random.gauss(0, 1), random.randrange(10))
start = time.time()
elapsed = time.time() - start
print(elapsed >= 0, time.perf_counter() > 0)
""",
    "tensor_numpy": """
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
a = x.detach().numpy()
print(a, a.shape, a.dtype)
a[0] = 5.0
print(x, torch.tensor(3.5).numpy(), x.numpy(force=True), torch.tensor([1, 2]).numpy().dtype)
try:
    x.numpy()
except RuntimeError as e:
    print("error:", e)
with torch.no_grad():
    print(x.numpy())
""",
    # ------------------------------------------------ classes
    "classes_model": """
import torch

class Linear:
    scale = 2.0

    def __init__(self, n_in, n_out):
        torch.manual_seed(0)
        self.w = torch.ones(n_in, n_out, requires_grad=True)
        self.b = torch.zeros(n_out, requires_grad=True)

    def __call__(self, x):
        return x @ self.w * self.scale + self.b

    def parameters(self):
        return [self.w, self.b]


class Scaled(Linear):
    def __init__(self, n_in, n_out, factor=3.0):
        super().__init__(n_in, n_out)
        self.factor = factor

    def __call__(self, x):
        return super().__call__(x) * self.factor


model = Scaled(2, 1)
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
y = model(x).sum()
y.backward()
print(y, model.w.grad, model.b.grad)
print(isinstance(model, Linear), isinstance(model, Scaled), type(model).__name__, Linear.scale, model.factor)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
opt.step()
print(model.w)

class Counter:
    count = 0
    def __init__(self):
        Counter.count += 1
        self._id = Counter.count
    def ident(self):
        return self._id

cs = [Counter() for _ in range(3)]
print([c.ident() for c in cs], Counter.count)
m = cs[0].ident
print(m())

class Empty:
    pass
e = Empty()
e.value = 5
print(e.value)
try:
    e.missing
except AttributeError as err:
    print("AttributeError:", err)
try:
    Empty(1)
except TypeError as err:
    print("TypeError:", err)
def make():
    k = 10
    class Local:
        def get(self):
            return k
    return Local()
print(make().get())
class A:
    def who(self): return "A"
class B(A):
    def who(self): return "B" + super().who()
class C(A):
    def who(self): return "C" + super().who()
class D(B, C):
    def who(self): return "D" + super().who()
print(D().who())
class Bad:
    def __init__(self):
        return 3
try:
    Bad()
except TypeError as err:
    print("TypeError:", err)
class NotCallable:
    pass
try:
    NotCallable()()
except TypeError as err:
    print("TypeError:", err)
class P:
    x = 1
    def f(self):
        return x
try:
    P().f()
except NameError as err:
    print("NameError:", err)
""",
    "classes_repr_hooks": """
import torch
class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y
    def __repr__(self):
        return f"Point({self.x}, {self.y})"
class Named(Point):
    def __str__(self):
        return "named " + repr(self)
p = Point(1, 2)
print(p, [p], str(p), repr(p), f"{p}", Named(3, 4), [Named(3, 4)])
print(type(p) == Point, type(p) is Point, Point, type(p))
class Model:
    def __init__(self):
        self.w = torch.tensor([1.0, 2.0], requires_grad=True)
        self.seen = []
        self.w.register_hook(self.hook)
    def hook(self, g):
        self.seen.append(g)
        return g * 2
    def forward(self, x):
        return (self.w * x).sum()
m = Model()
m.forward(3.0).backward()
print(m.w.grad, m.seen)
class Acc:
    total = 0
    def add(self, v):
        self.total += v
        return self
a = Acc()
a.add(1).add(2)
print(a.total, Acc.total)
""",
    "classes_decorators": """
class Temperature:
    unit = "C"
    def __init__(self, celsius):
        self._c = celsius
    @property
    def fahrenheit(self):
        return self._c * 9 / 5 + 32
    @staticmethod
    def describe(x):
        return f"{x} degrees"
    @classmethod
    def freezing(cls):
        return cls(0.0)
    @classmethod
    def which(cls):
        return cls.unit
class Kelvin(Temperature):
    unit = "K"
t = Temperature(100.0)
print(t.fahrenheit, Temperature.describe(5), t.describe(6), Temperature.freezing().fahrenheit, Kelvin.which(), Kelvin(1.0).which())
try:
    t.fahrenheit = 3
except AttributeError as e:
    print("AttributeError:", e)
print(type(Kelvin.freezing()).__name__)
""",
    "classes_from_builtins": """
class P:
    def __init__(self, v):
        self.v = v
    def get(self):
        return self.v
ps = list(map(P, [1, 2]))
print([p.get() for p in ps])
print(sorted(ps, key=P.get)[0].v, list(map(lambda p: p.get(), ps)))
print(ps[0] == ps[0], ps[0] == ps[1], len({ps[0], ps[1]}))
print(type(P), type(ps[0]))
""",
    "classes_operators_dual_numbers": """
import math
class Dual:
    '''Forward-mode automatic differentiation: a value and its derivative.'''
    def __init__(self, value, deriv=0.0):
        self.value, self.deriv = value, deriv
    def __add__(self, other):
        other = other if isinstance(other, Dual) else Dual(other)
        return Dual(self.value + other.value, self.deriv + other.deriv)
    __radd__ = __add__
    def __mul__(self, other):
        other = other if isinstance(other, Dual) else Dual(other)
        return Dual(self.value * other.value, self.value * other.deriv + self.deriv * other.value)
    __rmul__ = __mul__
    def __sub__(self, other):
        return self + (-1) * other
    def __neg__(self):
        return Dual(-self.value, -self.deriv)
    def __pow__(self, n):
        return Dual(self.value ** n, n * self.value ** (n - 1) * self.deriv)
    def __eq__(self, other):
        return isinstance(other, Dual) and self.value == other.value
    def __lt__(self, other):
        return self.value < other.value
    def __repr__(self):
        return f"Dual({self.value}, {self.deriv})"
def sin(d):
    return Dual(math.sin(d.value), math.cos(d.value) * d.deriv)
x = Dual(2.0, 1.0)
y = 3 * x ** 2 + 2 * x - 1 + sin(x)
print(y, -x, x == Dual(2.0), x != Dual(3.0), x < Dual(3.0), sorted([Dual(3.0), x]))
try:
    hash(x)
except TypeError as e:
    print("TypeError:", e)
class Bag:
    def __init__(self):
        self.items = []
    def __len__(self):
        return len(self.items)
    def __getitem__(self, i):
        return self.items[i]
    def __setitem__(self, i, v):
        self.items[i] = v
b = Bag()
print(len(b), bool(b))
b.items.append(5)
b[0] = 7
print(len(b), bool(b), b[0], b[-1])
class Plain:
    pass
for expr in (lambda: Plain() + 1, lambda: -Plain(), lambda: Plain() < Plain(), lambda: len(Plain()), lambda: Plain()[0]):
    try:
        expr()
    except TypeError as e:
        print("TypeError:", e)
print(Plain() == Plain(), len({Plain(), Plain()}))
""",
    "exception_classes": """
class ModelError(Exception):
    pass
class ShapeError(ModelError, ValueError):
    '''A shape that does not fit.'''
def check(n):
    if n < 0:
        raise ShapeError(f"negative: {n}")
    return n
try:
    check(-1)
except ValueError as e:
    print(type(e).__name__, e, e.args, isinstance(e, ModelError), isinstance(e, ShapeError))
try:
    check(-2)
except ModelError as e:
    print("model error:", e)
print(ShapeError.__name__, issubclass(ShapeError, ValueError) if False else "skip")
try:
    raise ModelError
except Exception as e:
    print(repr(e), type(e), ModelError)
""",
    "bitwise_numbers": """
n = 6
n &= 3
n |= 8
n <<= 2
n >>= 1
print(n, 1 + 2 << 1, 1 | 2 & 3, ~-1, ~5, -~2, 3 < 1 | 4, 12 >> 2 << 1, 5 & True)
""",
    # ------------------------------------------------ torch.nn layers (weights set by hand: our
    # generator is not PyTorch's, so only what does not depend on the initial draw is compared)
    "nn_linear_seed": """
import torch
import torch.nn as nn
net = nn.Linear(3, 4)
print(net, net.in_features, net.out_features, net.weight.shape, net.bias.shape)
print(net.weight.requires_grad, net.weight.is_leaf, isinstance(net.weight, nn.Parameter))
with torch.no_grad():
    net.weight.copy_(torch.arange(12.).reshape(4, 3) / 10)
    net.bias.copy_(torch.tensor([0.5, -0.5, 1., 0.]))
input = torch.tensor([[1., 2., 3.], [-1., 0., 2.]], requires_grad=True)
output = net(input)
print(output)
loss = torch.sum(output)
loss.backward(retain_graph=True)
loss.backward()
print(input.grad)
print(net.weight.grad)
print(net.bias.grad)
""",
    "nn_sequential_training": """
import torch
from torch import nn
model = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
print(model)
print(len(model), model[0], model[-1].out_features)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (i + 1))
for name, p in model.named_parameters():
    print(name, tuple(p.shape))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loss_fn = nn.MSELoss()
x = torch.tensor([[0., 1.], [1., 0.], [1., 1.], [0., 0.]])
y = torch.tensor([[1.], [1.], [0.], [0.]])
for step in range(5):
    opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 6))
print(model(x).detach())
""",
    "nn_module_api": """
import torch
import torch.nn as nn
seq = nn.Sequential(nn.Linear(4, 2, bias=False), nn.ReLU(), nn.Softmax(dim=1))
print(seq, [n for n, _ in seq.named_parameters()])
print(seq.training, seq.eval().training, seq[0].training, seq.train().training)
print(list(seq.state_dict().keys()), len(list(seq.children())), len(list(seq.modules())))
with torch.no_grad():
    seq[0].weight.copy_(torch.tensor([[1., -1., 0., 2.], [0.5, 0.5, -1., 0.]]))
out = seq(torch.tensor([[1., 2., 3., 4.]]))
print(out)
out[0, 0].backward()
print(seq[0].weight.grad)
seq.zero_grad()
print(seq[0].weight.grad)
print(nn.Parameter(torch.ones(2)))
print(nn.Parameter(torch.zeros(3), requires_grad=False))
print(nn.LeakyReLU(0.2), nn.GELU(approximate='tanh'), nn.Flatten(), nn.Identity(), nn.Sigmoid())
print(nn.CrossEntropyLoss(), nn.Softplus(), nn.ELU(), nn.ReLU(inplace=True), nn.LogSoftmax(dim=-1))
""",
    "nn_losses": """
import torch
import torch.nn as nn
logits = torch.tensor([[2., 0.5, -1.], [0.1, 0.2, 3.]], requires_grad=True)
target = torch.tensor([0, 2])
loss = nn.CrossEntropyLoss()(logits, target)
loss.backward()
print(loss, logits.grad)
p = torch.tensor([0.8, 0.3, 0.6], requires_grad=True)
t = torch.tensor([1., 0., 1.])
print(nn.BCELoss()(p, t), nn.BCELoss(reduction='sum')(p, t))
print(nn.BCEWithLogitsLoss()(p, t), nn.L1Loss()(p, t), nn.MSELoss(reduction='none')(p, t))
print(nn.NLLLoss()(torch.log_softmax(logits, dim=1), target))
""",
    "nn_subclass_training": """
import torch
import torch.nn as nn

class Net(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.fc1 = nn.Linear(2, hidden)
        self.act = nn.Tanh()
        self.fc2 = nn.Linear(hidden, 1)
        self.scale = 0.5

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x))) * self.scale

    def count(self):
        return sum(p.numel() for p in self.parameters())

net = Net(3)
print(net)
print(net.count(), isinstance(net, nn.Module), net.training, net.scale)
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (i + 1))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
x = torch.tensor([[0., 1.], [1., 0.], [1., 1.], [0., 0.]])
y = torch.tensor([[1.], [1.], [0.], [0.]])
for step in range(3):
    opt.zero_grad()
    loss = nn.MSELoss()(net(x), y)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 6))
model = nn.Sequential(net, nn.ReLU())
print(model)
print([n for n, _ in model.named_parameters()])
class Deeper(Net):
    def forward(self, x):
        return super().forward(x) + 1
d = Deeper(2)
print(d(torch.zeros(1, 2)).shape, type(d).__name__)
""",
    "nn_subclass_members": """
import torch
import torch.nn as nn
class Scaled(nn.Module):
    factor = 3.0
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(1, 1)
    @staticmethod
    def double(v):
        return v * 2
    @classmethod
    def make(cls):
        return cls()
    @property
    def size(self):
        return self.lin.in_features
    def __len__(self):
        return 7
    def __repr__(self):
        return "Scaled!"
    def forward(self, x):
        return self.double(self.lin(x)) * self.factor
s = Scaled.make()
with torch.no_grad():
    s.lin.weight.fill_(0.5)
    s.lin.bias.fill_(1.0)
print(s(torch.tensor([[2.0]])), s.size, len(s), s, Scaled.factor)
""",
    "nn_subclass_missing_attribute": """
import torch
import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 2)
    def forward(self, x):
        return self.fc3(x)
net = Net()
try:
    net(torch.ones(1, 2))
except AttributeError as e:
    print("caught:", e)
try:
    nn.Linear(2, 2).weights
except AttributeError as e:
    print("caught:", e)
net.fc1 = nn.Linear(2, 4)
net.extra = nn.Parameter(torch.zeros(1))
print([n for n, _ in net.named_parameters()], net)
""",
    "nn_tutorial_regression": """
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(42)
X = torch.linspace(-1, 1, 20).unsqueeze(1)
y = 3 * X + 0.5

class LinearRegression(nn.Module):
    def __init__(self):
        super(LinearRegression, self).__init__()
        self.linear = nn.Linear(1, 1)

    def forward(self, x):
        return self.linear(x)

model = LinearRegression()
with torch.no_grad():
    model.linear.weight.fill_(0.1)
    model.linear.bias.zero_()
criterion = nn.MSELoss()
optimizer = optim.SGD(model.parameters(), lr=0.1)
for epoch in range(100):
    optimizer.zero_grad()
    outputs = model(X)
    loss = criterion(outputs, y)
    loss.backward()
    optimizer.step()
    if (epoch + 1) % 25 == 0:
        print(f'Epoch [{epoch+1}/100], Loss: {loss.item():.4f}')
print(model.linear.weight.item(), model.linear.bias.item())
model.eval()
with torch.no_grad():
    predicted = model(X).detach().numpy()
print(predicted[:3])
for name, param in model.named_parameters():
    if param.requires_grad:
        print(name, param.data)
print(sum(p.numel() for p in model.parameters() if p.requires_grad))
""",
    "super_with_arguments": """
class Base:
    def __init__(self, n):
        self.n = n
    def describe(self):
        return f"Base({self.n})"
class Child(Base):
    def __init__(self, n):
        super(Child, self).__init__(n * 2)
    def describe(self):
        return "Child/" + super(Child, self).describe()
c = Child(3)
print(c.n, c.describe())
try:
    super(3, c)
except TypeError as e:
    print("TypeError:", e)
""",
    "ranges_as_pytorch": """
import torch
print(torch.linspace(-1, 1, 20).tolist())
print(torch.arange(0, 2, 0.1).tolist())
print(torch.arange(-3.3, 7.1, 0.37, dtype=torch.float64).tolist()[-5:])
print(torch.linspace(0, 10, 7, dtype=torch.int64), torch.linspace(-1, 1, 1), torch.linspace(0, 1, 0))
""",
    "nn_module_list_apply_double": """
import torch
import torch.nn as nn
class Deep(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(n)])
        self.head = nn.Linear(2, 1)
    def forward(self, x):
        for layer in self.layers:
            x = torch.tanh(layer(x))
        return self.head(x)
net = Deep(3)
print(net)
print(len(net.layers), [n for n, _ in net.named_parameters()][:4])
net.layers.append(nn.ReLU())
print(net.layers)
net.double()
print(net.head.weight.dtype, net(torch.ones(1, 2, dtype=torch.float64)).shape)
count = []
net.apply(lambda m: count.append(type(m).__name__))
print(count)
l = nn.Linear(2, 2)
try:
    l.weight = torch.ones(2, 2)
except TypeError as e:
    print("TypeError:", e)
l.bias = None
print(l, [n for n, _ in l.named_parameters()])
""",
    "data_loader": """
import torch
from torch.utils.data import DataLoader, TensorDataset, Dataset
X = torch.arange(10.).view(5, 2)
y = torch.tensor([0, 1, 0, 1, 1])
ds = TensorDataset(X, y)
print(len(ds), ds[1])
loader = DataLoader(ds, batch_size=2)
print(len(loader))
for xb, yb in loader:
    print(xb.tolist(), yb.tolist())
print(len(DataLoader(ds, batch_size=2, drop_last=True)))
class Squares(Dataset):
    def __init__(self, n):
        self.n = n
    def __len__(self):
        return self.n
    def __getitem__(self, i):
        return float(i), i * i
for a, b in DataLoader(Squares(5), batch_size=3):
    print(a, b)
total = 0
for xb, yb in DataLoader(ds, batch_size=2, shuffle=True):
    total += xb.shape[0]
print(total)
""",
    "iter_and_next": """
import torch
from torch.utils.data import DataLoader, TensorDataset
words = ["a", "b", "c"]
it = iter(words)
print(next(it), next(it))
print(next(it, "end"), next(it, "end"), next(it, None))
print(iter(it) is it, [v for v in iter(range(3))])
ti = iter(torch.tensor([1.5, 2.5]))
print(next(ti), next(ti).item())
ds = TensorDataset(torch.arange(8.).view(4, 2), torch.tensor([0, 1, 1, 0]))
xb, yb = next(iter(DataLoader(ds, batch_size=3)))
print(xb.tolist(), yb.tolist())
pairs = iter(zip("xy", (1, 2)))
print(next(pairs), list(pairs))
try:
    next(iter(()))
except StopIteration:
    print("StopIteration caught")
chars = iter("hi")
while True:
    c = next(chars, None)
    if c is None:
        break
    print(c)
""",
    "nn_tutorial_classifier": """
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

X = torch.stack([torch.linspace(-2, 2, 30), torch.linspace(1, -1, 30) ** 2], dim=1)
labels = (X[:, 0] > 0).long() + (X[:, 1] > 0.5).long()

class Classifier(nn.Module):
    def __init__(self, hidden=8):
        super().__init__()
        self.fc1 = nn.Linear(2, hidden)
        self.fc2 = nn.Linear(hidden, 3)
        self.dropout_p = 0.0

    def forward(self, x):
        x = F.relu(self.fc1(x))
        return self.fc2(x)

model = Classifier()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.3, 0.4, p.numel()).view(p.shape) * ((-1) ** i))
criterion = nn.CrossEntropyLoss()
optimizer = optim.Adam(model.parameters(), lr=0.05)
for epoch in range(60):
    optimizer.zero_grad()
    outputs = model(X)
    loss = criterion(outputs, labels)
    loss.backward()
    optimizer.step()
    if epoch % 20 == 19:
        _, predicted = torch.max(outputs, 1)
        correct = (predicted == labels).sum().item()
        print(f"epoch {epoch + 1}: loss {loss.item():.4f}, accuracy {correct / len(labels):.2%}")
model.eval()
with torch.no_grad():
    probs = F.softmax(model(X[:3]), dim=1)
    print(probs)
    print(probs.argmax(dim=1), labels[:3])
print(sum(p.numel() for p in model.parameters()), model.training)
state = model.state_dict()
print({k: tuple(v.shape) for k, v in state.items()})
""",
    "gradient_descent_by_hand": """
import torch
x = torch.linspace(0, 1, 11)
y = 2.5 * x - 0.7 + 0.1 * torch.sin(7 * x)
w = torch.tensor(0.0, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 0.5
for i in range(200):
    pred = w * x + b
    loss = ((pred - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b.data -= lr * b.grad.data
    w.grad.zero_()
    b.grad.data.zero_()
    if i % 50 == 0:
        print(i, loss.item(), w.item(), b.item())
print(w, b, loss)
print(torch.allclose(w, torch.tensor(2.5), atol=0.2), round(w.item(), 3))
z = torch.arange(6.).reshape(2, 3).requires_grad_()
out = (z.exp().sum(dim=1, keepdim=True) / z.norm()).prod()
out.backward()
print(out.item(), z.grad)
""",
    "seeded_rand_and_layer_init": """
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
print(model[0].weight, model[0].bias)
print(model[2].weight)
print(torch.rand(2, 3))
x = torch.rand(8, 2)
y = (x[:, :1] * 2 - x[:, 1:]).detach()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(30):
    opt.zero_grad()
    loss = nn.MSELoss()(model(x), y)
    loss.backward()
    opt.step()
print(f"{loss.item():.5f}")
torch.manual_seed(3)
print(torch.rand(3, dtype=torch.float64))
""",
    "nn_init": """
import torch
import torch.nn as nn
torch.manual_seed(1)
layer = nn.Linear(4, 3)
print(layer.weight)
nn.init.xavier_uniform_(layer.weight)
print(layer.weight)
nn.init.kaiming_uniform_(layer.weight, nonlinearity="relu")
print(layer.weight)
nn.init.zeros_(layer.bias)
nn.init.constant_(layer.bias, 0.25)
print(layer.bias, nn.init.calculate_gain("tanh"), nn.init.calculate_gain("leaky_relu", 0.2))
w = torch.empty(2, 5)
nn.init.uniform_(w, -0.1, 0.1)
print(w)
nn.init.ones_(w)
print(w.sum())
""",
    "tensor_uniform_normal": """
import torch
torch.manual_seed(0)
t = torch.empty(2, 3).uniform_(-1, 1)
print(t)
w = torch.zeros(4)
w.data.uniform_(-0.1, 0.1)
print(w)
bad = [lambda: torch.zeros(3, dtype=torch.long).uniform_(), lambda: torch.zeros(3).uniform_(1, 0),
       lambda: torch.zeros(3, requires_grad=True).uniform_(), lambda: torch.zeros(3).normal_(0, -1)]
for f in bad:
    try:
        f()
    except (RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, e)
print(torch.zeros(1000).normal_(2.0, 0.5).mean().round())
""",
    # ------------------------------------------------ type annotations, del of attributes (issue 31)
    "annotations_and_del_attr": """
import torch
import torch.nn as nn
x: int = 1
y: float
scale: list[float] = [0.5, 2.0]
def f(a: torch.Tensor, b: int = 2, *rest: int, c: float = 1.0, **kw: str) -> torch.Tensor:
    return a * b * c + sum(rest)
class Net(nn.Module):
    hidden: int = 3
    def __init__(self, n: int) -> None:
        super().__init__()
        self.lin: nn.Linear = nn.Linear(n, 1)
        self.note = 'tmp'
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.lin(x)
net = Net(2)
print(f(torch.tensor(2.0)), f(torch.tensor(1.0), 3, 4, 5, c=2.0), x, scale, Net.hidden)
print(net(torch.ones(1, 2)).shape, (lambda v: v + 1)(1))
del net.note
print(hasattr(net, 'note'))
del net.lin
print(hasattr(net, 'lin'), [n for n, _ in net.named_parameters()])
t = torch.tensor([1.0], requires_grad=True)
(t * 3).sum().backward()
print(t.grad)
del t.grad
print(t.grad)
class P:
    def __init__(self):
        self.k = 1
p = P()
del p.k
try:
    del p.k
except AttributeError as e:
    print(type(e).__name__, e)
try:
    y
except NameError as e:
    print(type(e).__name__, e)
""",    "pprint_layout": """
import torch
from pprint import pprint, pformat
pprint({'b': 1, 'a': [1, 2, 3]})
pprint(list(range(40)))
m = torch.nn.Linear(2, 1)
pprint({'lr': 0.1, 'w': torch.ones(2), 'layers': ['conv', 'relu'] * 12})
print(pformat((1, 'x')))
pprint(m.state_dict().keys())
class P:
    def __repr__(self):
        return 'P()'
pprint([P(), {'k': P()}])
""",
    "autograd_graph_nodes": """
import torch
a = torch.tensor([1., 2.], requires_grad=True)
b = a * 3
c = b.exp()
print(isinstance(c.grad_fn, torch.autograd.graph.Node), c.grad_fn._saved_result.detach(), b.grad_fn._saved_other, b.grad_fn._saved_self)
c.grad_fn.metadata['tag'] = 'exp'
print(c.grad_fn.metadata)
seen = []
def post(grad_inputs, grad_outputs):
    seen.append(('post', len(grad_inputs), grad_outputs[0].shape))
    return (grad_inputs[0] * 2,)
def pre(grad_outputs):
    seen.append('pre')
h = c.grad_fn.register_hook(post)
c.grad_fn.register_prehook(pre)
c.sum().backward()
print(seen, a.grad)
s = a.sum(dim=0, keepdim=True)
print(s.grad_fn._saved_dim, s.grad_fn._saved_keepdim)
try:
    c.grad_fn._saved_result
except RuntimeError as e:
    print('RuntimeError', str(e)[:40])
""",
    "saved_tensors_hooks": """
import torch
log = []
def pack(t):
    log.append(('pack', tuple(t.shape)))
    return t * 1
def unpack(t):
    log.append('unpack')
    return t
x = torch.tensor([1., 2., 3.], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = (x * x).sum()
    z = x.exp()
y.backward()
z.sum().backward()
print(log)
print(x.grad)
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * a
    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return 2 * a * g
log.clear()
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    w = Sq.apply(x).sum()
w.backward()
print(log, x.grad)
with torch.autograd.graph.save_on_cpu():
    q = (x.sin()).sum()
q.backward()
print(x.grad)
try:
    with torch.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
        with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
            pass
except RuntimeError as e:
    print('RuntimeError', e)
""",
    "functional_products": """
import torch
from torch.autograd.functional import vjp, jvp, vhp, hvp
def f(x, y):
    return (x ** 2 * y).sum(), x.sin() * y
x = torch.tensor([1., 2., 3.]); y = torch.tensor([0.5, -1., 2.])
def g(x): return x.exp() * x
out, r = vjp(g, x, torch.tensor([1., 0.5, 2.])); print(out, r)
out, r = jvp(g, x, torch.tensor([1., 0.5, 2.])); print(out, r)
out, r = jvp(f, (x, y), (torch.ones(3), torch.ones(3))); print(out, r)
out, r = vjp(f, (x, y), (torch.tensor(1.), torch.ones(3))); print(r)
def h(x, y): return (x ** 3 * y.exp()).sum()
out, r = vhp(h, (x, y), (torch.ones(3), torch.tensor([1., 0., -1.]))); print(out, r)
out, r = hvp(h, (x, y), (torch.ones(3), torch.tensor([1., 0., -1.]))); print(out, r)
print(jvp(lambda a: a * 2, torch.tensor([3.]))[1])
for bad in (lambda: vjp(g, x), lambda: jvp(g, x), lambda: jvp(g, x, torch.ones(2)), lambda: vhp(g, x, x), lambda: jvp(f, (x, y), (x,))):
    try: bad()
    except Exception as e: print(type(e).__name__, e)
xr = torch.tensor([1., 2.], requires_grad=True)
o, r = jvp(lambda a: a ** 3, xr, torch.ones(2), create_graph=True)
print(r, torch.autograd.grad(r.sum(), xr)[0])
print(jvp(lambda a: torch.zeros(2) + 1, x[:2], torch.ones(2))[1])
""",
    "dataclasses": """
import torch
from dataclasses import dataclass, field, fields, asdict, astuple, replace, is_dataclass
from typing import List

@dataclass
class Config:
    lr: float
    steps: int = 100
    layers: List[int] = field(default_factory=list)
    name: str = 'run'

c = Config(0.1)
print(c)
print(Config(0.01, 5, [1, 2], name='x'))
print(c == Config(0.1), c == Config(0.2), c.steps, [f.name for f in fields(c)])
print(asdict(Config(1.0, layers=[3])), astuple(c))
print(replace(c, steps=7), is_dataclass(c), is_dataclass(3))

@dataclass
class Point:
    x: float
    y: float = 0.0
    def norm(self):
        return (self.x ** 2 + self.y ** 2) ** 0.5
    def __post_init__(self):
        self.r = self.norm()

@dataclass
class Segment:
    a: Point
    b: Point

p = Point(3.0, 4.0)
print(p, p.r, p.norm())
s = Segment(Point(0.0), Point(1.0, 1.0))
print(s)
print(asdict(s))
t = Point(torch.tensor(1.0), torch.tensor(2.0))
print(t)
for bad in (lambda: Config(), lambda: Config(1, 2, 3, 4, 5), lambda: Config(1, lr=2), lambda: Config(1, foo=2)):
    try:
        bad()
    except TypeError as e:
        print('TypeError', e)
try:
    @dataclass
    class Bad:
        a: int = 1
        b: int
except TypeError as e:
    print('TypeError', e)
try:
    @dataclass
    class Bad2:
        a: list = []
except ValueError as e:
    print('ValueError', e)
""",
    "copy_collections_typing": """
import torch
import copy
from collections import OrderedDict, defaultdict, Counter
from typing import Optional, List, Tuple
Vector = List[float]
def f(x: Optional[torch.Tensor] = None) -> Tuple[int, int]:
    return (1, 2)
print(f(), Vector)
m = torch.nn.Sequential(OrderedDict([('lin', torch.nn.Linear(2, 1))]))
m2 = copy.deepcopy(m)
with torch.no_grad():
    m2.lin.weight.fill_(1.0)
print(m.lin.weight.sum().item() != 4.0, m2.lin.weight.sum().item())
sd = copy.deepcopy(m.state_dict())
sd['lin.bias'].fill_(5.0)
print(m.lin.bias.item() != 5.0, sd['lin.bias'])
class P:
    def __init__(self, v):
        self.v = [v]
    def get(self):
        return self.v
p = P(1)
q = copy.deepcopy(p)
q.v.append(2)
r = copy.copy(p)
print(p.get(), q.get(), r.v is p.v, type(q).__name__, isinstance(q, P))
d = defaultdict(list)
d['a'].append(1)
print(d, Counter('abca').most_common(1))
od = OrderedDict()
od['x'] = 1
od['y'] = 2
od.move_to_end('x')
print(od, OrderedDict())
print(torch.nn.Linear(1, 1).state_dict().keys())
""",
}


def run(source):
    import torch
    torch.set_default_dtype(torch.float32)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source.lstrip("\n"), "<snippet>", "exec"), {"__name__": "__main__"})
    return out.getvalue()


def main():
    import torch
    cases = []
    for name, source in SNIPPETS.items():
        cases.append({"name": name, "source": source.lstrip("\n"), "stdout": run(source)})
    path = pathlib.Path(__file__).with_name("language_python.json")
    path.write_text(json.dumps({"python": "3.11", "torch": torch.__version__, "cases": cases}, indent=1,
                               ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(cases)} cases to {path}")


if __name__ == "__main__":
    main()
