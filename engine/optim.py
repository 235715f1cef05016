"""torch.optim: SGD and the Adam family (Adam, AdamW, Adamax, NAdam, RAdam) here, RMSprop, Adagrad
and Adadelta in optim_rms.py; the base class (groups, state, state_dict) in optimizer.py.

Each update is PyTorch 2.13's single-tensor (for-loop) implementation, the one it runs on CPU
by default, operation for operation, so a run follows PyTorch's within the dtype's tolerance.
"""
from .optimizer import (Optimizer, SingleTensor, add, add_into, addcdiv, addcmul, assign, bump_step, check, check_betas,
                        check_lr, like, lerp, scalar_tensor, state_tensor, write, xp_of)
from .tensor_class import Tensor
from . import lr_scheduler  # noqa: F401  (torch.optim.lr_scheduler)
from .optim_rms import RMSprop, Adagrad, Adadelta

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "Adamax", "NAdam", "RAdam", "RMSprop", "Adagrad", "Adadelta",
           "sgd", "adam", "lr_scheduler"]


class SGD(SingleTensor):
    """the stochastic gradient descent optimiser (momentum, Nesterov momentum, weight decay)."""

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        check_lr(lr)
        check(momentum >= 0.0, f"Invalid momentum value: {momentum}")
        check(weight_decay >= 0.0, f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                        nesterov=nesterov, maximize=maximize, foreach=foreach, differentiable=differentiable,
                        fused=fused)
        check(not (nesterov and (momentum <= 0 or dampening != 0)),
              "Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    def _update(self, p, grad, group):
        xp, param = xp_of(p), p.array
        momentum = group["momentum"]
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"] != 0:
            grad = add(xp, grad, param, group["weight_decay"])
        if momentum != 0:
            state = self.state[p]
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = state["momentum_buffer"] = state_tensor(grad.copy(), p.device)
            else:                                                   # buf.mul_(m).add_(grad, alpha=1-dampening)
                write(buf, add(xp, buf.array * like(momentum, buf.array), grad, 1 - group["dampening"]))
            grad = add(xp, grad, buf.array, momentum) if group["nesterov"] else buf.array
        add_into(p, grad, -group["lr"])                                # param.add_(grad, alpha=-lr)


def _foreach(group, p):
    """Whether PyTorch would run its multi-tensor (foreach) update: asked for, or left unset on a GPU.
    Only NAdam's and RAdam's round differently from their single-tensor ones."""
    foreach = group["foreach"]
    return bool(foreach) or (foreach is None and p.device.type != "cpu")


def _moments(p, state, amsgrad=False):
    """The Adam family's fresh state: step 0 and zero moments."""
    xp = xp_of(p)
    state["step"] = scalar_tensor(0.0)
    state["exp_avg"] = state_tensor(xp.zeros_like(p.array), p.device)
    state["exp_avg_sq"] = state_tensor(xp.zeros_like(p.array), p.device)
    if amsgrad:
        state["max_exp_avg_sq"] = state_tensor(xp.zeros_like(p.array), p.device)


def _decay(xp, p, grad, group, lr):
    """Weight decay: decoupled (param.mul_(1 - lr*wd), one in-place op) or added to the gradient."""
    wd = group["weight_decay"]
    if wd != 0:
        if group["decoupled_weight_decay"]:
            assign(p, p.array * like(1 - lr * wd, p.array))
        else:
            grad = add(xp, grad, p.array, wd)
    return grad


def _second_moment(xp, state, grad, beta2):
    """exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)."""
    v = state["exp_avg_sq"]
    write(v, addcmul(v.array * like(beta2, grad), grad, grad, 1 - beta2))
    return v.array


def _adam_moments(opt, p, grad, group, amsgrad):
    """The step Adam and RAdam begin with: the state made on the first step, maximize and weight
    decay applied to the gradient, the step count up, the first moment by lerp and the second by
    mul then addcmul. (xp, state, lr, beta1, beta2, step, first moment tensor, second moment array)."""
    xp, state = xp_of(p), opt.state[p]
    if not state:
        _moments(p, state, amsgrad)
    beta1, beta2 = group["betas"]
    lr = group["lr"]
    if group["maximize"]:
        grad = -grad
    step = bump_step(state)
    grad = _decay(xp, p, grad, group, lr)
    m = state["exp_avg"]
    write(m, lerp(xp, m.array, grad, 1 - beta1))
    return xp, state, lr, beta1, beta2, step, m, _second_moment(xp, state, grad, beta2)


class Adam(SingleTensor):
    """the Adam optimiser: adaptive moment estimation (amsgrad, L2 or decoupled weight decay)."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        check_lr(lr)
        check(0.0 <= eps, f"Invalid epsilon value: {eps}")
        check_betas(betas)
        check(0.0 <= weight_decay, f"Invalid weight_decay value: {weight_decay}")
        if isinstance(betas[0], Tensor) and isinstance(betas[1], Tensor):
            raise TypeError("Tensor betas are not supported here: give betas as numbers")
        check(isinstance(betas[0], float) and isinstance(betas[1], float),
              "betas must be either both floats or both Tensors")
        defaults = dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                        maximize=maximize, foreach=foreach, capturable=capturable, differentiable=differentiable,
                        fused=fused, decoupled_weight_decay=decoupled_weight_decay)
        super().__init__(params, defaults)

    def _update(self, p, grad, group):
        """Adam's step: lerp for the first moment, mul then addcmul for the second, the bias
        corrections in Python floats, addcdiv for the update."""
        xp, state, lr, beta1, beta2, step, m, v = _adam_moments(self, p, grad, group, group["amsgrad"])
        step_size = lr / (1 - beta1 ** step)
        bias2_sqrt = (1 - beta2 ** step) ** 0.5
        if group["amsgrad"]:
            vmax = state["max_exp_avg_sq"]
            write(vmax, xp.maximum(vmax.array, v))
            v = vmax.array
        denom = xp.sqrt(v) / like(bias2_sqrt, v) + like(group["eps"], v)
        assign(p, addcdiv(p.array, m.array, denom, -step_size))


class AdamW(Adam):
    """the AdamW optimiser: Adam with decoupled weight decay (it scales the parameter, not the gradient)."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)

    def _after_load(self):
        super()._after_load()
        for group in self.param_groups:
            group["decoupled_weight_decay"] = True


class Adamax(SingleTensor):
    """the Adamax optimiser: Adam with the infinity norm in place of the second moment."""

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *,
                 maximize=False, differentiable=False, capturable=False):
        check_lr(lr)
        check(0.0 <= eps, f"Invalid epsilon value: {eps}")
        check_betas(betas)
        check(0.0 <= weight_decay, f"Invalid weight_decay value: {weight_decay}")
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach,
                                      maximize=maximize, differentiable=differentiable, capturable=capturable))

    def _update(self, p, grad, group):
        xp, state = xp_of(p), self.state[p]
        if not state:
            state["step"] = scalar_tensor(0.0)
            state["exp_avg"] = state_tensor(xp.zeros_like(p.array), p.device)
            state["exp_inf"] = state_tensor(xp.zeros_like(p.array), p.device)
        beta1, beta2 = group["betas"]
        if group["maximize"]:
            grad = -grad
        step = bump_step(state)
        if group["weight_decay"] != 0:
            grad = add(xp, grad, p.array, group["weight_decay"])
        m, u = state["exp_avg"], state["exp_inf"]
        write(m, lerp(xp, m.array, grad, 1 - beta1))
        write(u, xp.maximum(u.array * like(beta2, grad), xp.abs(grad) + like(group["eps"], grad)))
        clr = group["lr"] / (1 - beta1 ** step)
        assign(p, addcdiv(p.array, m.array, u.array, -clr))


class NAdam(SingleTensor):
    """the NAdam optimiser: Adam with Nesterov momentum (Dozat's momentum schedule)."""

    _capturable_what = "params, mu_products and state_steps"

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
        check_lr(lr)
        check(0.0 <= eps, f"Invalid epsilon value: {eps}")
        check_betas(betas)
        check(0.0 <= weight_decay, f"Invalid weight_decay value: {weight_decay}")
        check(0.0 <= momentum_decay, f"Invalid momentum_decay value: {momentum_decay}")
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      momentum_decay=momentum_decay, decoupled_weight_decay=decoupled_weight_decay,
                                      maximize=maximize, foreach=foreach, capturable=capturable,
                                      differentiable=differentiable))

    def _update(self, p, grad, group):
        """mu_product is a state tensor of the scalar dtype (float32 unless float64 is the default),
        multiplied in that dtype, as PyTorch keeps it."""
        xp, state = xp_of(p), self.state[p]
        if not state:
            state["step"] = scalar_tensor(0.0)
            state["mu_product"] = scalar_tensor(1.0)
            state["exp_avg"] = state_tensor(xp.zeros_like(p.array), p.device)
            state["exp_avg_sq"] = state_tensor(xp.zeros_like(p.array), p.device)
        beta1, beta2 = group["betas"]
        lr, decay = group["lr"], group["momentum_decay"]
        if group["maximize"]:
            grad = -grad
        step = bump_step(state)
        bias2 = 1 - beta2 ** step
        grad = _decay(xp, p, grad, group, lr)
        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * decay)))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * decay)))
        product = state["mu_product"]
        write(product, product.array * like(mu, product.array))
        mu_product = float(product.array)
        m = state["exp_avg"]
        write(m, lerp(xp, m.array, grad, 1 - beta1))
        v = _second_moment(xp, state, grad, beta2)
        if _foreach(group, p):  # PyTorch's multi-tensor NAdam divides the root, not the square
            denom = xp.sqrt(v) / like(bias2 ** 0.5, v) + like(group["eps"], v)
        else:
            denom = xp.sqrt(v / like(bias2, v)) + like(group["eps"], v)
        assign(p, addcdiv(p.array, grad, denom, -lr * (1.0 - mu) / (1.0 - mu_product)))
        assign(p, addcdiv(p.array, m.array, denom, (-lr * mu_next) / (1.0 - mu_product * mu_next)))


class RAdam(SingleTensor):
    """the RAdam optimiser: Adam with its adaptive rate's variance rectified (momentum alone at first)."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
        check_lr(lr)
        check(0.0 <= eps, f"Invalid epsilon value: {eps}")
        check_betas(betas)
        check(0.0 <= weight_decay, f"Invalid weight_decay value: {weight_decay}")
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, maximize=maximize,
                                      foreach=foreach, capturable=capturable,
                                      decoupled_weight_decay=decoupled_weight_decay, differentiable=differentiable))

    def _update(self, p, grad, group):
        xp, state, lr, beta1, beta2, step, m, v = _adam_moments(self, p, grad, group, False)
        bias1, bias2 = 1 - beta1 ** step, 1 - beta2 ** step
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2 ** step) / bias2
        rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5 \
            if rho_t > 5 else 0
        root = xp.sqrt(v) + like(group["eps"], v)
        if _foreach(group, p):  # PyTorch's multi-tensor RAdam: one factor per parameter, then addcmul
            unrect = (lr * (0 if rect > 0 else 1.0) / bias1) * -1
            factor = 1 / (root / like((bias2 ** 0.5) * (lr * rect / bias1) * -1, v)) + like(unrect, v)
            assign(p, addcmul(p.array, m.array, factor))
            return
        corrected = m.array / like(bias1, v)
        if rho_t > 5.0:
            adaptive = (1 / root) * like(bias2 ** 0.5, v)  # float / tensor is reciprocal(tensor) * float
            update = corrected * like(lr, v) * adaptive * like(rect, v)
        else:
            update = corrected * like(lr, v)
        add_into(p, update, -1.0)


sgd = SGD
adam = Adam

