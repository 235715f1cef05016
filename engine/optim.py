"""Optimisers with torch.optim's update rules: SGD (momentum, Nesterov) and Adam.

They update parameters in place on the raw arrays, outside the graph, and bump
each parameter's version as an in-place op would.
"""
import math

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

    def _update(self, p, delta):
        p.array -= delta
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
        self.steps += 1
        for p in self.params:
            if p._grad is None:
                continue
            d = p._grad.array
            if self.maximize:
                d = -d
            if self.weight_decay:
                d = d + self.weight_decay * p.array
            if self.momentum:
                buf = self.state.get(id(p))
                if buf is None:
                    buf = d.copy()
                else:
                    buf *= self.momentum
                    buf += (1 - self.dampening) * d
                self.state[id(p)] = buf
                d = d + self.momentum * buf if self.nesterov else buf
            self._update(p, self.lr * d)


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
        self.steps += 1
        b1, b2 = self.betas
        for p in self.params:
            if p._grad is None:
                continue
            g = p._grad.array
            if self.maximize:
                g = -g
            if self.weight_decay:
                g = g + self.weight_decay * p.array
            st = self.state.get(id(p))
            if st is None:
                zeros = _xp(p.device).zeros_like
                st = self.state[id(p)] = {"step": 0, "m": zeros(g), "v": zeros(g), "vmax": zeros(g)}
            st["step"] += 1
            t = st["step"]
            m, v = st["m"], st["v"]
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            bias1 = 1 - b1 ** t
            bias2 = 1 - b2 ** t
            if self.amsgrad:
                vmax = st["vmax"]
                vmax[...] = (vmax >= v) * vmax + (vmax < v) * v
                v = vmax
            denom = (v ** 0.5) / math.sqrt(bias2) + self.eps
            self._update(p, (self.lr / bias1) * m / denom)


sgd = SGD
adam = Adam
