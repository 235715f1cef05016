"""torch.autograd.grad_mode (no_grad, enable_grad, set_grad_enabled, inference_mode,
set_multithreading_enabled, enforce_grad_layout_policy) and the engine's other switches that
torch.autograd names: is_multithreading_enabled, is_view_replay_enabled (with
_force_original_view_tracking), is_tensor_like, DeviceType and kineto_available."""
import enum

from .core import autograd as _core_autograd
from .core.grad_mode import no_grad, enable_grad, set_grad_enabled, inference_mode, _DecoratorContextManager
from .core.tensor import TensorBase

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "set_multithreading_enabled",
           "is_multithreading_enabled", "enforce_grad_layout_policy", "is_view_replay_enabled",
           "_force_original_view_tracking", "is_tensor_like", "DeviceType", "kineto_available"]

_multithreading = [True]
_view_replay = [False]


def is_multithreading_enabled():
    """Whether a backward may use a worker thread per device (PyTorch's flag; True unless set off).
    Our engine runs every backward in the calling thread whatever it says: the flag is kept and
    read back, as PyTorch's is, and only PyTorch's threads differ."""
    return _multithreading[0]


def is_view_replay_enabled():
    """Whether autograd rebuilds views by replaying their view ops (PyTorch's view replay): False
    unless _force_original_view_tracking(True) is open. Our views always re-derive their node from
    their chain of view ops (engine/core/tensor.py, refresh_view), whichever it says."""
    return _view_replay[0]


class _Flag(_DecoratorContextManager):
    """A flag set at once by the call (alone, that is all), put back as it was at the end of a `with`
    block; as a decorator it sets the flag per call."""

    flag = None

    def __init__(self, mode=True):
        self.prev = self.flag[0]
        self.mode = mode
        self.flag[0] = bool(mode)

    def __call__(self, fn):
        self.flag[0] = self.prev  # making the decorator changes nothing
        return super().__call__(fn)

    def __enter__(self):
        self.flag[0] = bool(self.mode)

    def __exit__(self, *exc):
        self.flag[0] = self.prev
        return False

    def clone(self):
        return self.__class__(self.mode)


class set_multithreading_enabled(_Flag):
    """Turn multithreaded backward on or off (see is_multithreading_enabled: ours is single-threaded)."""
    flag = _multithreading


class _force_original_view_tracking(_Flag):
    """Turn view replay on or off (see is_view_replay_enabled)."""
    flag = _view_replay


class enforce_grad_layout_policy(_Flag):
    """With True (the default), a leaf's first .grad is laid out as the leaf (its strides, where it
    is dense and non-overlapping) or row-major, PyTorch's gradient layout contract; with False it is
    kept as the backward made it."""
    flag = _core_autograd.GRAD_LAYOUT


def is_tensor_like(inp):
    """Whether `inp` is a tensor, or an object whose type overrides torch functions (PyTorch's
    `__torch_function__` protocol: an object of ours never does)."""
    return isinstance(inp, TensorBase) or hasattr(type(inp), "__torch_function__")


class DeviceType(enum.IntEnum):
    """PyTorch's c10::DeviceType values (what a profiler event's device_type says)."""
    CPU = 0
    CUDA = 1
    MKLDNN = 2
    OPENGL = 3
    OPENCL = 4
    IDEEP = 5
    HIP = 6
    FPGA = 7
    MAIA = 8
    XLA = 9
    Vulkan = 10
    Metal = 11
    XPU = 12
    MPS = 13
    Meta = 14
    HPU = 15
    VE = 16
    Lazy = 17
    IPU = 18
    MTIA = 19
    PrivateUse1 = 20


def kineto_available():
    """Whether PyTorch's Kineto profiler is built in: never here (no profiler; see the README)."""
    return False
