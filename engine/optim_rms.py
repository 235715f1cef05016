"""torch.optim's optimisers that divide by a running root of squared gradients: RMSprop, Adagrad,
Adadelta -- PyTorch 2.13's single-tensor updates, operation for operation (see optim.py)."""
from .optimizer import (SingleTensor, add, addcdiv, addcmul, assign, bump_step, check, check_lr, like, lerp,
                        scalar_tensor, state_tensor, write, xp_of)

__all__ = ["RMSprop", "Adagrad", "Adadelta"]


class RMSprop(SingleTensor):
    """the RMSprop optimiser: divide by a running root mean square of the gradient (centered, momentum)."""

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        check_lr(lr)
        check(0.0 <= eps, f"Invalid epsilon value: {eps}")
        check(0.0 <= momentum, f"Invalid momentum value: {momentum}")
        check(0.0 <= weight_decay, f"Invalid weight_decay value: {weight_decay}")
        check(0.0 <= alpha, f"Invalid alpha value: {alpha}")
        super().__init__(params, dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                                      weight_decay=weight_decay, capturable=capturable, foreach=foreach,
                                      maximize=maximize, differentiable=differentiable))

    def _update(self, p, grad, group):
        xp, state = xp_of(p), self.state[p]
        if not state:
            state["step"] = scalar_tensor(0.0)
            state["square_avg"] = state_tensor(xp.zeros_like(p.array), p.device)
            if group["momentum"] > 0:
                state["momentum_buffer"] = state_tensor(xp.zeros_like(p.array), p.device)
            if group["centered"]:
                state["grad_avg"] = state_tensor(xp.zeros_like(p.array), p.device)
        alpha = group["alpha"]
        if group["maximize"]:
            grad = -grad
        bump_step(state)
        if group["weight_decay"] != 0:
            grad = add(xp, grad, p.array, group["weight_decay"])
        sq = state["square_avg"]
        write(sq, addcmul(sq.array * like(alpha, grad), grad, grad, 1 - alpha))
        if group["centered"]:
            ga = state["grad_avg"]
            write(ga, lerp(xp, ga.array, grad, 1 - alpha))
            avg = xp.sqrt(addcmul(sq.array, ga.array, ga.array, -1))
        else:
            avg = xp.sqrt(sq.array)
        avg = avg + like(group["eps"], avg)
        if group["momentum"] > 0:
            buf = state["momentum_buffer"]
            write(buf, addcdiv(buf.array * like(group["momentum"], grad), grad, avg))
            assign(p, add(xp, p.array, buf.array, -group["lr"]))
        else:
            assign(p, addcdiv(p.array, grad, avg, -group["lr"]))


class Adagrad(SingleTensor):
    """the Adagrad optimiser: divide by the root of the sum of all squared gradients so far."""

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        check_lr(lr)
        check(0.0 <= lr_decay, f"Invalid lr_decay value: {lr_decay}")
        check(0.0 <= weight_decay, f"Invalid weight_decay value: {weight_decay}")
        check(0.0 <= initial_accumulator_value,
              f"Invalid initial_accumulator_value value: {initial_accumulator_value}")
        check(0.0 <= eps, f"Invalid epsilon value: {eps}")
        super().__init__(params, dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                                      initial_accumulator_value=initial_accumulator_value, foreach=foreach,
                                      maximize=maximize, differentiable=differentiable, fused=fused))
        for group in self.param_groups:  # PyTorch fills the state of every parameter here, not at the first step
            for p in group["params"]:
                self._fresh(p, self.state[p])

    def _fresh(self, p, state):
        state["step"] = scalar_tensor(0.0)
        value = self.defaults["initial_accumulator_value"]
        state["sum"] = state_tensor(xp_of(p).full_like(p.array, value), p.device)

    def _update(self, p, grad, group):
        xp, state = xp_of(p), self.state[p]
        if not state:
            self._fresh(p, state)
        step = bump_step(state)
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"] != 0:
            grad = add(xp, grad, p.array, group["weight_decay"])
        clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        total = state["sum"]
        write(total, addcmul(total.array, grad, grad, 1))
        std = xp.sqrt(total.array) + like(group["eps"], grad)
        assign(p, addcdiv(p.array, grad, std, -clr))


class Adadelta(SingleTensor):
    """the Adadelta optimiser: steps scaled by running roots of past updates over those of gradients."""

    _capturable_xla = False

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, capturable=False,
                 maximize=False, differentiable=False):
        check_lr(lr)
        check(0.0 <= rho <= 1.0, f"Invalid rho value: {rho}")
        check(0.0 <= eps, f"Invalid epsilon value: {eps}")
        check(0.0 <= weight_decay, f"Invalid weight_decay value: {weight_decay}")
        super().__init__(params, dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize,
                                      capturable=capturable, foreach=foreach, differentiable=differentiable))

    def _update(self, p, grad, group):
        xp, state = xp_of(p), self.state[p]
        if not state:
            state["step"] = scalar_tensor(0.0)
            state["square_avg"] = state_tensor(xp.zeros_like(p.array), p.device)
            state["acc_delta"] = state_tensor(xp.zeros_like(p.array), p.device)
        rho, eps = group["rho"], group["eps"]
        bump_step(state)
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"] != 0:
            grad = add(xp, grad, p.array, group["weight_decay"])
        sq, acc = state["square_avg"], state["acc_delta"]
        write(sq, addcmul(sq.array * like(rho, grad), grad, grad, 1 - rho))
        std = xp.sqrt(sq.array + like(eps, grad))
        delta = xp.sqrt(acc.array + like(eps, grad)) / std * grad
        write(acc, addcmul(acc.array * like(rho, grad), delta, delta, 1 - rho))
        assign(p, add(xp, p.array, delta, -group["lr"]))
