"""torch.autograd, as a namespace: backward and grad (the engine's core), Variable, Function and
the `function` module of custom autograd functions, the `functional` API (jacobian, hessian, vjp, jvp, vhp,
hvp),
gradcheck and gradgradcheck, and the grad modes."""
from .core.autograd import backward, grad, InplaceModifiedError
from .core.grad_mode import no_grad, enable_grad, set_grad_enabled, inference_mode
from .tensor import Variable
from .custom_function import Function, FunctionCtx, once_differentiable
from . import custom_function as function  # torch.autograd.function: FunctionCtx, once_differentiable
from . import autograd_functional as functional  # torch.autograd.functional: jacobian, hessian, vjp, jvp...
from . import autograd_graph as graph  # torch.autograd.graph: Node
from . import forward_ad  # torch.autograd.forward_ad: dual_level, make_dual, unpack_dual
from .gradcheck import gradcheck, gradgradcheck, GradcheckError

__all__ = ["backward", "grad", "InplaceModifiedError", "no_grad", "enable_grad", "set_grad_enabled", "inference_mode",
           "Variable", "Function", "FunctionCtx", "once_differentiable", "function", "functional", "graph",
           "forward_ad", "gradcheck",
           "gradgradcheck", "GradcheckError"]
