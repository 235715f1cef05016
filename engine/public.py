"""The public names of autodiff.engine (torch.*): everything `import autodiff.engine as torch` offers,
gathered here and copied into the package the first time one of them is read (engine/__init__.py).
"""
from .backend import Device, device, cuda_is_available, DeviceError, get_default_device, set_default_device
from .dtypes import (DType, float16, float32, float64, int8, int16, int32, int64, uint8, bool_,
                     get_default_dtype, set_default_dtype)
from .core import (no_grad, enable_grad, set_grad_enabled, is_grad_enabled, inference_mode,
                   is_inference_mode_enabled, Node, AccumulateGrad, RemovableHandle, source_span, Size, backward, grad,
                   InplaceModifiedError)
from .core.grad_mode import is_inference
from .anomaly_mode import is_anomaly_enabled, is_anomaly_check_nan_enabled, set_anomaly_enabled
from .tensor_class import (Tensor, Variable, FloatTensor, DoubleTensor, HalfTensor, LongTensor, IntTensor, ShortTensor,
                     CharTensor, ByteTensor, BoolTensor)
from .functions import *  # noqa: F401,F403  (the public functions)
from .functions import __all__ as _function_names
from . import autograd  # noqa: F401  (torch.autograd)
from .functional import jacobian, hessian
from .custom_function import Function, FunctionCtx, once_differentiable
from . import linalg, data  # noqa: F401  (torch.linalg, torch.utils.data; torch.nn: __getattr__ below)
from . import special  # noqa: F401,E402  (torch.special)
from .derivative_check import gradcheck, gradgradcheck, GradcheckError
from . import testing  # torch.testing: assert_close
from .optim import SGD, Adam, sgd, adam
from . import optim, lr_scheduler  # noqa: F401  (torch.optim, torch.optim.lr_scheduler)
from .printing import set_printoptions
from .ops import TABLE as OPS

# PyTorch's dtype aliases (engine.float is float32, as torch.float); not exported by `import *`
half, float, double, long, int, short, bool = float16, float32, float64, int64, int32, int16, bool_  # noqa: A001
# torch.e, torch.pi, torch.inf, torch.nan
import math as _math  # noqa: E402
e, pi, inf, nan = _math.e, _math.pi, _math.inf, _math.nan
from .dtypes import MemoryFormat as memory_format, contiguous_format, preserve_format, channels_last, \
    channels_last_3d  # noqa: E402

__all__ = sorted(set(_function_names) | {
    "Tensor", "Size", "Variable", "FloatTensor", "DoubleTensor", "HalfTensor", "LongTensor", "IntTensor",
    "ShortTensor", "CharTensor", "ByteTensor", "BoolTensor", "Device", "device", "cuda_is_available", "DeviceError", "DType",
    "get_default_device", "set_default_device",
    "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool_",
    "get_default_dtype", "set_default_dtype", "no_grad", "enable_grad", "set_grad_enabled",
    "is_grad_enabled", "inference_mode", "is_inference_mode_enabled", "is_inference", "Node", "AccumulateGrad", "RemovableHandle", "source_span",
    "backward", "grad", "InplaceModifiedError", "jacobian", "hessian", "Function", "FunctionCtx",
    "once_differentiable",
    "gradcheck", "gradgradcheck", "GradcheckError", "SGD", "Adam", "sgd", "adam",
    "set_printoptions", "OPS", "memory_format", "contiguous_format", "preserve_format", "channels_last",
    "channels_last_3d", "is_anomaly_enabled", "is_anomaly_check_nan_enabled", "set_anomaly_enabled"})
