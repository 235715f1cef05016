"""torch.autograd, as a namespace: backward and grad (the engine's core), Variable, Function and
the `function` module of custom autograd functions, the `functional` API (jacobian, hessian, vjp, jvp, vhp,
hvp),
gradcheck and gradgradcheck, the grad modes (and the `grad_mode` module), anomaly detection (and
the `anomaly_mode` module), the `graph` and `forward_ad` modules, SavedTensor, and the engine's
switches PyTorch names here (multithreading, view replay, the gradient layout policy). What PyTorch
has here and we leave out (the profiler, NestedIOFunction): the README's torch.autograd section."""
from .core.autograd import backward, grad, InplaceModifiedError, SavedTensor
from .core.grad_mode import no_grad, enable_grad, set_grad_enabled, inference_mode
from .tensor_class import Variable
from .custom_function import Function, FunctionCtx, once_differentiable
from . import custom_function as function  # torch.autograd.function: FunctionCtx, once_differentiable
from . import autograd_functional as functional  # torch.autograd.functional: jacobian, hessian, vjp, jvp...
from . import autograd_graph as graph  # torch.autograd.graph: Node, hooks, GradientEdge...
from . import forward_ad  # torch.autograd.forward_ad: dual_level, make_dual, unpack_dual
from . import anomaly_mode  # torch.autograd.anomaly_mode: detect_anomaly, set_detect_anomaly
from . import autograd_modes as grad_mode  # torch.autograd.grad_mode: the modes and the engine's switches
from .anomaly_mode import detect_anomaly, set_detect_anomaly
from .autograd_modes import (set_multithreading_enabled, is_multithreading_enabled, enforce_grad_layout_policy,
                             is_view_replay_enabled, _force_original_view_tracking, is_tensor_like, DeviceType,
                             kineto_available)
from .derivative_check import gradcheck, gradgradcheck, GradcheckError



def variable(*args, **kwargs):
    """PyTorch's: torch.autograd.variable is no longer the module of Variable but this refusal."""
    raise RuntimeError("torch.autograd.variable(...) is deprecated, use torch.tensor(...) instead")


__all__ = ["backward", "grad", "InplaceModifiedError", "no_grad", "enable_grad", "set_grad_enabled", "inference_mode",
           "Variable", "Function", "FunctionCtx", "once_differentiable", "function", "functional", "graph",
           "forward_ad", "gradcheck",
           "gradgradcheck", "GradcheckError", "SavedTensor", "anomaly_mode", "grad_mode", "variable",
           "detect_anomaly", "set_detect_anomaly", "set_multithreading_enabled", "is_multithreading_enabled",
           "enforce_grad_layout_policy", "is_view_replay_enabled", "is_tensor_like", "DeviceType",
           "kineto_available"]
