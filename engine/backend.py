"""The numpy/cupy seam: every array the engine touches comes from here.

A tensor carries a `Device`; the device names a backend, and the backend owns
the array module (`xp`) its arrays belong to. Nothing else in the engine
imports numpy or cupy for tensor data, so a stand-in module registered under
"cuda" exercises the GPU paths on a machine without a GPU.
"""
import numpy

__all__ = ["Device", "device", "Backend", "backend_for", "register_backend", "cuda_is_available"]


class DeviceError(RuntimeError):
    """A device that cannot be used here (no cupy, no GPU, or a mix)."""


class Device:
    """Where a tensor's values live: `cpu` or `cuda:N`. Interned, compare with `is`."""

    __slots__ = ("type", "index")
    _interned = {}

    def __new__(cls, type, index=None):
        key = (type, index)
        dev = cls._interned.get(key)
        if dev is None:
            dev = object.__new__(cls)
            dev.type = type
            dev.index = index
            cls._interned[key] = dev
        return dev

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __eq__(self, other):
        if isinstance(other, str):
            try:
                other = device(other)
            except (ValueError, DeviceError):
                return False
        return self is other

    def __hash__(self):
        return hash((self.type, self.index))


CPU = Device("cpu")


def device(spec=None):
    """Parse 'cpu', 'cuda', 'cuda:0', 'gpu' (alias of cuda) or a Device."""
    if spec is None:
        return CPU
    if isinstance(spec, Device):
        return spec
    if not isinstance(spec, str):
        raise ValueError(f"expected a device name such as 'cpu' or 'cuda', got {spec!r}")
    name = spec.strip().lower()
    index = None
    if ":" in name:
        name, _, idx = name.partition(":")
        if not idx.isdigit():
            raise ValueError(f"invalid device {spec!r}: the index after ':' must be a number")
        index = int(idx)
    if name == "gpu":
        name = "cuda"
    if name == "cpu":
        if index not in (None, 0):
            raise ValueError(f"invalid device {spec!r}: there is only one cpu")
        return CPU
    if name == "cuda":
        return Device("cuda", 0 if index is None else index)
    raise ValueError(f"unknown device {spec!r}: expected 'cpu' or 'cuda' (alias 'gpu')")


class Backend:
    """An array module and how to move arrays to and from the host."""

    def __init__(self, name, xp, to_host, from_host):
        self.name = name
        self.xp = xp
        self.to_host = to_host
        self.from_host = from_host


def _numpy_backend():
    return Backend("numpy", numpy, lambda a: a, numpy.asarray)


def _cupy_backend():
    try:
        import cupy
    except ImportError:
        raise DeviceError(
            "device 'cuda' needs CuPy, which is not installed: "
            "pip install 'autodiff-cli[gpu]' (and an NVIDIA GPU with CUDA), or use device='cpu'"
        ) from None
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception:  # cupy raises its own CUDA error types here
        count = 0
    if count < 1:
        raise DeviceError("device 'cuda' asked for, but no CUDA GPU is available here; use device='cpu'")
    return Backend("cupy", cupy, cupy.asnumpy, cupy.asarray)


_loaders = {"cpu": _numpy_backend, "cuda": _cupy_backend}
_backends = {}


def register_backend(device_type, loader):
    """Install `loader` (a function returning a Backend) for a device type.

    Tests use this to put a stand-in array module behind 'cuda'; it forgets any
    backend already loaded for that type.
    """
    previous = _loaders.get(device_type)
    _loaders[device_type] = loader
    _backends.pop(device_type, None)
    return previous


def backend_for(dev):
    """The Backend of a Device, loading it on first use (cupy is imported lazily)."""
    b = _backends.get(dev.type)
    if b is None:
        b = _loaders[dev.type]()
        _backends[dev.type] = b
    return b


def cuda_is_available():
    try:
        backend_for(Device("cuda", 0))
    except DeviceError:
        return False
    return True


def numpy_backend():
    return backend_for(CPU)
