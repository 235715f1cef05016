"""Optimisers with torch.optim's update rules: SGD (momentum, Nesterov) and Adam.

They update parameters in place on the raw arrays, outside the graph, and bump
each parameter's version as an in-place op would.
"""
from .fma import multiply_add
from .ops import TABLE
from .tensor import Tensor, _xp, _storage

__all__ = ["SGD", "Adam", "sgd", "adam"]


class Optimizer:
    def __init__(self, params, defaults):
        params = [params] if isinstance(params, Tensor) else list(params)
        if not params:
            raise ValueError("optimizer got an empty parameter list")
        for p in params:
            if not isinstance(p, Tensor):
                raise TypeError(f"optimizer can only optimize Tensors, but one of the params is "
                                f"{type(p).__name__}")
            if not p.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        self.params = params
        self.defaults = defaults
        self.state = {}
        self.steps = 0

    def zero_grad(self, set_to_none=True):
        """Clear the gradients (to None by default, as PyTorch 2.x)."""
        for p in self.params:
            if p._grad is not None:
                if set_to_none:
                    p._grad = None
                else:
                    _storage(p._grad)[...] = 0
                    p._grad._vc[0] += 1

    def _assign(self, p, value):
        """Write the new values into the parameter's memory (views and aliases see them), one version up."""
        _storage(p)[...] = value
        p._vc[0] += 1

    def __repr__(self):
        opts = ", ".join(f"{k}={v}" for k, v in self.defaults.items())
        return f"{type(self).__name__}({opts})"


class SGD(Optimizer):
    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, maximize=False):
        if lr < 0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening,
                                      weight_decay=weight_decay, nesterov=nesterov, maximize=maximize))
        self.lr, self.momentum, self.dampening = lr, momentum, dampening
        self.weight_decay, self.nesterov, self.maximize = weight_decay, nesterov, maximize

    def step(self):
        """PyTorch's single-tensor SGD, operation for operation (its add with alpha is the add
        row's, one rounding: fma.py), so a training run keeps PyTorch's bits."""
        self.steps += 1
        for p in self.params:
            if p._grad is None:
                continue
            xp, add = _xp(p.device), _ADD.forward
            param = p.array
            d = p._grad.array
            if self.maximize:
                d = -d
            if self.weight_decay:
                d = add(xp, d, param, self.weight_decay)               # grad.add(param, alpha=wd)
            if self.momentum:
                buf = self.state.get(id(p))
                if buf is None:
                    buf = d.copy()
                else:                                                 # buf.mul_(m).add_(grad, alpha=1-dampening)
                    buf = add(xp, buf * _like(self.momentum, buf), d, 1 - self.dampening)
                self.state[id(p)] = buf
                d = add(xp, d, buf, self.momentum) if self.nesterov else buf
            self._assign(p, add(xp, param, d, -self.lr))                # param.add_(grad, alpha=-lr)


def _like(value, arr):
    """A Python number as PyTorch's kernels take it with a tensor: in the tensor's dtype."""
    dtype = getattr(arr, "dtype", None)
    return dtype.type(value) if dtype is not None and dtype.kind in "fc" else value


_ADD, _LERP = TABLE["add"], TABLE["lerp"]  # the rows whose kernels PyTorch's optimisers call


class Adam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False,
                 maximize=False):
        if lr < 0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not (0 <= betas[0] < 1 and 0 <= betas[1] < 1):
            raise ValueError(f"Invalid beta parameters: {betas}")
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                                      amsgrad=amsgrad, maximize=maximize))
        self.lr, self.betas, self.eps = lr, tuple(betas), eps
        self.weight_decay, self.amsgrad, self.maximize = weight_decay, amsgrad, maximize

    def step(self):
        """PyTorch's single-tensor Adam, operation for operation: lerp for the first moment,
        mul then addcmul for the second (each fused as PyTorch's kernels are: fma.py), the
        bias corrections in Python floats, addcdiv for the update."""
        self.steps += 1
        b1, b2 = self.betas
        for p in self.params:
            if p._grad is None:
                continue
            xp = _xp(p.device)
            param = p.array
            g = p._grad.array
            if self.maximize:
                g = -g
            if self.weight_decay:
                g = _ADD.forward(xp, g, param, self.weight_decay)
            st = self.state.get(id(p))
            if st is None:
                st = self.state[id(p)] = {"step": 0, "m": xp.zeros_like(g), "v": xp.zeros_like(g),
                                          "vmax": xp.zeros_like(g)}
            st["step"] += 1
            t = float(st["step"])
            m = st["m"] = _LERP.forward(xp, st["m"], g, 1 - b1)                         # exp_avg.lerp_(grad, 1-b1)
            v = st["v"] = multiply_add(_like(1 - b2, g) * g, g, st["v"] * _like(b2, g), g.dtype)  # mul_, addcmul_
            bias1 = 1 - b1 ** t
            bias2 = 1 - b2 ** t
            step_size = self.lr / bias1
            if self.amsgrad:
                v = st["vmax"] = xp.maximum(st["vmax"], v)
            denom = xp.sqrt(v) / _like(bias2 ** 0.5, v) + _like(self.eps, v)
            self._assign(p, param + (_like(-step_size, m) * m) / denom)                # addcdiv_(m, denom, -step)


sgd = SGD
adam = Adam
