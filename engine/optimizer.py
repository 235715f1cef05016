"""torch.optim.Optimizer: parameter groups, per-parameter state, state_dict and repr as PyTorch
keeps them, and the in-place kernels its single-tensor updates call.

An update runs on the raw arrays, outside the graph: each in-place op PyTorch's update does on
a parameter writes the parameter's memory (views and aliases see it) and bumps its version once,
and each one on a state tensor (exp_avg, momentum_buffer, step) writes that tensor's memory, so a
state_dict taken earlier sees later steps, as PyTorch's does (it holds the same tensors).
"""
from collections import defaultdict
from copy import deepcopy
import warnings

import numpy

from . import dtypes as _dt
from .core.grad_mode import enable_grad
from .ops import TABLE
from .core.tensor import array_module, storage_of, make_tensor
from .core.inplace import assign  # noqa: F401  (optim.py's and optim_rms.py's too)
from .tensor_class import Tensor
from .backend import device as _device

__all__ = ["Optimizer"]

_ADD, _LERP = TABLE["add"], TABLE["lerp"]  # the rows whose kernels PyTorch's optimisers call
_CPU = _device("cpu")


class Optimizer:
    """The base of the optimisers: param_groups, state, step, zero_grad, state_dict."""

    def __init__(self, params, defaults):
        self.defaults = defaults
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                            f"but got {_typename(params)}")
        self.state = defaultdict(dict)
        self.param_groups = []
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    # ------------------------------------------------------------ groups
    def add_param_group(self, param_group):
        """Add a dict of params (and options for them; the rest from defaults), as PyTorch checks it."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the ordering "
                            "of tensors in sets will change between runs. Please use a list instead.")
        else:
            params = list(params)
        names = [p[0] for p in params if isinstance(p, tuple)]  # named_parameters(): (name, tensor)
        params = [p[1] if isinstance(p, tuple) else p for p in params]
        param_group["params"] = params
        if names:
            if len(names) != len(params):
                raise ValueError("all optimizer params should be with/without names. Some param names are missing")
            param_group["param_names"] = names
        for p in params:
            if not isinstance(p, Tensor):
                raise TypeError(f"optimizer can only optimize Tensors, but one of the params is {_typename(p)}")
            if not (p.is_leaf or p.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            param_group.setdefault(name, default)
        if len({id(p) for p in params}) != len(params):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, this will "
                          "cause an error; see github.com/pytorch/pytorch/issues/40967 for more information",
                          UserWarning, stacklevel=3)
        seen = set()
        for group in self.param_groups:
            seen.update(id(p) for p in group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                which = "with names" if "param_names" in param_group else "without names"
                raise ValueError("all optimizer param groups should be with/without names. "
                                 f"cannot add param group {which} to the optimizer")
        if any(id(p) in seen for p in params):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    # ------------------------------------------------------------ stepping
    def step(self, closure=None):
        """One update of every parameter that has a grad, with each group's options as they are now
        (so `param_groups[i]['lr'] = ...` takes effect here); returns what `closure()` returns."""
        self._opt_called = True  # what a scheduler's first step() checks (PyTorch's step wrapper sets it)
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        with numpy.errstate(all="ignore"):  # a division by zero or an overflow is PyTorch's inf, silently
            for group in self.param_groups:
                self._check_group(group)
                for p in group["params"]:
                    if p._grad is not None:
                        self._update(p, p._grad.array, group)
        return loss

    def _check_group(self, group):
        """What PyTorch checks of a group's options at step time (nothing, for most optimisers)."""

    def _update(self, p, grad, group):
        """Update one parameter from its gradient's array (each optimiser's rule)."""
        raise NotImplementedError

    def zero_grad(self, set_to_none=True):
        """Clear the gradients (to None by default, as PyTorch 2.x)."""
        for group in self.param_groups:
            for p in group["params"]:
                g = p._grad
                if g is None:
                    continue
                if set_to_none:
                    p._grad = None
                else:
                    if g.grad_fn is not None:
                        g.detach_()
                    else:
                        g.requires_grad_(False)
                    storage_of(g)[...] = 0
                    g._vc[0] += 1

    # ------------------------------------------------------------ state_dict
    def state_dict(self):
        """{'state': {index: per-parameter state}, 'param_groups': [options with 'params': [indices]]},
        the per-parameter dicts and their tensors shared with the optimiser, as in PyTorch."""
        index, start, groups = {}, 0, []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for i, p in enumerate(group["params"], start):
                index.setdefault(id(p), i)
            packed["params"] = [index[id(p)] for p in group["params"]]
            start += len(packed["params"])
            groups.append(packed)
        state = {(index[id(k)] if isinstance(k, Tensor) else k): v for k, v in self.state.items()}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict):
        """Take the options and state saved by state_dict(), matched to this optimiser's params by
        position; state tensors are cast to their parameter's dtype and device (not 'step')."""
        state_dict = state_dict.copy()
        groups = self.param_groups
        saved_groups = deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the size of "
                             "optimizer's group")
        params = {}
        for g, s in zip(groups, saved_groups):
            params.update(zip(s["params"], g["params"]))
        state = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in params:
                state[params[k]] = _cast(params[k], v)
            else:
                state[k] = v
        for g, s in zip(groups, saved_groups):
            s["params"] = g["params"]
            if "param_names" in g and "param_names" not in s:
                s["param_names"] = g["param_names"]
        self.state = state
        self.param_groups = saved_groups
        self._after_load()

    def _after_load(self):
        """PyTorch's __setstate__: a saved 'step' that is a number becomes a tensor."""
        for group in self.param_groups:
            for p in group["params"]:
                s = self.state.get(p)
                if s and "step" in s and not isinstance(s["step"], Tensor):
                    s["step"] = scalar_tensor(float(s["step"]))

    def __repr__(self):
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"


def _cast(param, value, key=None):
    """A loaded state value for `param`: tensors in its dtype (if floating) and on its device,
    'step' as it is; dicts and sequences item by item (PyTorch's _cast)."""
    if isinstance(value, Tensor):
        if key == "step":
            return value
        if param.dtype.is_floating_point:
            return value.to(dtype=param.dtype, device=param.device)
        return value.to(device=param.device)
    if isinstance(value, dict):
        return {k: _cast(param, v, k) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_cast(param, v) for v in value)
    return value


def _typename(obj):
    """torch.typename: a tensor's legacy type name, else the class (module-qualified unless builtin)."""
    if isinstance(obj, Tensor):
        return obj.type()
    cls = type(obj)
    module = cls.__module__ or ""
    return cls.__qualname__ if module in ("", "builtins") else f"{module}.{cls.__qualname__}"


# ------------------------------------------------------------------ state tensors

def scalar_dtype():
    """The dtype of 'step' (and NAdam's mu_product): float64 when that is the default, else float32."""
    return _dt.float64 if _dt.get_default_dtype() == _dt.float64 else _dt.float32


def scalar_tensor(value):
    """A 0-d tensor of scalar_dtype() on the CPU, as PyTorch keeps 'step' (wherever the parameter is)."""
    return make_tensor(numpy.array(value, dtype=scalar_dtype().np), _CPU)


def state_tensor(array, device):
    """A state tensor (exp_avg, sum, ...) over `array`, on the parameter's device."""
    return make_tensor(array, device)


def write(t, array):
    """t's values replaced in place (its memory, so a state_dict holding t sees them)."""
    storage_of(t)[...] = array


def bump_step(state):
    """state['step'] += 1, in the step tensor's dtype; the new count as a Python float."""
    arr = storage_of(state["step"])
    arr[...] = arr + 1
    return float(arr)


def add_into(p, b, alpha):
    """param.add_(b, alpha=alpha): p's memory gets p + alpha * b, added where it lies (the same
    operations as add(), so the same bits, without its result array and the copy back: on a
    large parameter each is a pass), and its version goes up by one."""
    arr = storage_of(p)
    scaled = b * like(alpha, arr) if alpha != 1 else b
    if scaled.dtype != arr.dtype or getattr(scaled, "shape", None) != arr.shape:  # (another dtype, a broadcast b)
        assign(p, add(array_module(p.device), arr, b, alpha))
        return
    array_module(p.device).add(arr, scaled, out=arr)
    p._vc[0] += 1


# ------------------------------------------------------------------ kernels
# PyTorch's CPU kernels take a Python number in the tensor's dtype, as these do.

def like(value, arr):
    """A Python number as PyTorch's kernels take it with a tensor: in the tensor's dtype."""
    dtype = getattr(arr, "dtype", None)
    return dtype.type(value) if dtype is not None and dtype.kind in "fc" else value


def add(xp, a, b, alpha=1):
    """a.add(b, alpha=alpha): a + alpha * b."""
    return _ADD.forward(xp, a, b, alpha)


def lerp(xp, a, b, weight):
    """a.lerp(b, weight) with a number weight."""
    return _LERP.forward(xp, a, b, weight)


def addcmul(a, t1, t2, value=1):
    """a.addcmul(t1, t2, value=value): a + value * t1 * t2."""
    return a + like(value, t1) * t1 * t2


def addcdiv(a, t1, t2, value=1):
    """a.addcdiv(t1, t2, value=value): a + value * t1 / t2, each operation rounded."""
    return a + (like(value, t1) * t1) / t2


def xp_of(p):
    return array_module(p.device)


# ------------------------------------------------------------------ the concrete optimisers' base

def check(ok, message):
    if not ok:
        raise ValueError(message)


def check_lr(lr):
    if isinstance(lr, Tensor):
        check(lr.numel() == 1, "Tensor lr must be 1-element")
        raise TypeError("a Tensor lr is not supported here: give the learning rate as a number")
    check(0.0 <= lr, f"Invalid learning rate: {lr}")


def check_betas(betas):
    check(0.0 <= betas[0] < 1.0, f"Invalid beta parameter at index 0: {betas[0]}")
    check(0.0 <= betas[1] < 1.0, f"Invalid beta parameter at index 1: {betas[1]}")


class SingleTensor(Optimizer):
    """An optimiser with only PyTorch's single-tensor implementation: foreach=True runs it too (the
    same update); fused, capturable and differentiable runs are
    other implementations, refused with PyTorch's own messages where it has them."""

    _capturable_what = "params and state_steps"
    _capturable_xla = True

    def __init__(self, params, defaults):
        super().__init__(params, defaults)
        if defaults.get("fused"):
            if defaults.get("differentiable"):
                raise RuntimeError("`fused` does not support `differentiable`")
            if defaults.get("foreach"):
                raise RuntimeError("`fused` and `foreach` cannot be `True` together.")
            raise RuntimeError("fused=True is not supported here: only PyTorch's single-tensor implementation "
                               "is (leave fused unset)")
        if defaults.get("differentiable"):
            raise RuntimeError("differentiable=True is not supported here: steps update the parameters "
                               "outside the graph")

    def _check_group(self, group):
        if group.get("capturable"):
            devices = ["cuda", "xpu", "hpu", "privateuseone"] + (["xla"] if self._capturable_xla else [])
            if any(p._grad is not None and p.device.type == "cpu" for p in group["params"]):
                raise AssertionError(f"If capturable=True, {self._capturable_what} must be on supported "
                                     f"devices: {devices}.")
            raise RuntimeError("capturable=True is not supported here: only PyTorch's single-tensor "
                               "implementation is")
