"""The numpy/cupy seam: every array the engine touches comes from here.

A tensor carries a `Device`; the device names a backend, and the backend owns
the array module (`xp`) its arrays belong to. Nothing else in the engine
imports numpy or cupy for tensor data, so a stand-in module registered under
"cuda" exercises the GPU paths on a machine without a GPU.
"""
import numpy

__all__ = ["Device", "device", "Backend", "backend_for", "register_backend", "cuda_is_available", "device_of_array",
           "get_default_device", "set_default_device", "on_device_driver_start", "lift_address_space_limits",
           "device_driver_loaded"]


class DeviceError(RuntimeError):
    """A device that cannot be used here (no cupy, no GPU, or a mix)."""


_backends = {}  # device type -> its loaded Backend


class Device:
    """Where a tensor's values live: `cpu` or `cuda:N`. Interned, compare with `is`."""

    # backend: its loaded Backend (None until backend_for loads it): every op reads it
    __slots__ = ("type", "index", "backend")
    _interned = {}

    def __new__(cls, type, index=None):
        key = (type, index)
        dev = cls._interned.get(key)
        if dev is None:
            dev = object.__new__(cls)
            dev.type = type
            dev.index = index
            dev.backend = _backends.get(type)
            cls._interned[key] = dev
        return dev

    def __reduce__(self):  # copy and pickle give back the interned device
        return Device, (self.type, self.index)

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

    __hash__ = object.__hash__  # interned: identity is equality among devices


CPU = Device("cpu")


_default_device = [CPU]


def get_default_device():
    return _default_device[0]


def set_default_device(spec):
    """Where creation functions put tensors when no device is given (PyTorch's torch.set_default_device)."""
    dev = device(spec) if spec is not None else CPU
    if dev is not CPU:
        backend_for(dev)  # a clear error now if it cannot be used
    _default_device[0] = dev


def device(spec=None):
    """Parse 'cpu', 'cuda', 'cuda:0', 'gpu' (alias of cuda) or a Device; None is the default device."""
    if spec is None:
        return _default_device[0]
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
    """An array module and how to move arrays to and from the host.

    `native` lists the classes a tensor may hold as its array. numpy's 0-d
    results are numpy scalars: keeping them (instead of boxing each in a 0-d
    array) makes scalar arithmetic several times faster; a tensor boxes its
    scalar only when it must be shared or written in place (`Tensor._storage`).
    """

    def __init__(self, name, xp, to_host, from_host, native=None):
        self.name = name
        self.xp = xp
        self.to_host = to_host
        self.from_host = from_host
        self.native = frozenset(native if native is not None else (xp.ndarray,))


_NUMPY_SCALARS = (numpy.float64, numpy.float32, numpy.float16, numpy.int64, numpy.int32, numpy.int16,
                  numpy.int8, numpy.uint8, numpy.bool_)


def _numpy_backend():
    return Backend("numpy", numpy, lambda a: a, numpy.asarray, native=(numpy.ndarray,) + _NUMPY_SCALARS)


def _cupy_backend():
    try:
        import cupy
    except ImportError:
        raise DeviceError(
            "device 'cuda' needs CuPy, which is not installed: "
            "pip install 'autodiff-cli[gpu]' (and an NVIDIA GPU with CUDA), or use device='cpu'"
        ) from None
    lift_address_space_limits()
    try:
        count, why = cupy.cuda.runtime.getDeviceCount(), ""
    except Exception as e:  # cupy raises its own CUDA error types here: no driver, or one that cannot start
        count, why = 0, f" ({e})"
    if count < 1:
        raise DeviceError(f"device 'cuda' asked for, but no CUDA GPU is available here{why}; use device='cpu'")
    return Backend("cupy", cupy, cupy.asnumpy, cupy.asarray)


_loaders = {"cpu": _numpy_backend, "cuda": _cupy_backend}


def register_backend(device_type, loader):
    """Install `loader` (a function returning a Backend) for a device type.

    Tests use this to put a stand-in array module behind 'cuda'; it forgets any
    backend already loaded for that type.
    """
    previous = _loaders.get(device_type)
    _loaders[device_type] = loader
    _backends.pop(device_type, None)
    for dev in Device._interned.values():
        if dev.type == device_type:
            dev.backend = None
    return previous


# A GPU's driver reserves address space of its own -- CUDA's many gigabytes as it starts, more with
# each allocation -- so it cannot start, or allocate, under a limit on the process's address space.
# Whoever sets such a limit (a job's memory budget) registers how to lift it; a loader lifts them all
# before it starts a driver, and once a device backend is loaded no new limit is set
# (`device_driver_loaded`).
_address_space_lifts = []


def on_device_driver_start(lift):
    """Have `lift()` called before a device's driver starts; returns a function that forgets it."""
    _address_space_lifts.append(lift)
    return lambda: lift in _address_space_lifts and _address_space_lifts.remove(lift)


def lift_address_space_limits():
    """A device's driver is about to start: lift every limit registered with on_device_driver_start."""
    while _address_space_lifts:
        _address_space_lifts.pop()()


def device_driver_loaded():
    """Whether a device backend (a driver with address space of its own) is loaded in this process."""
    return any(t != "cpu" for t in _backends)


def backend_for(dev):
    """The Backend of a Device, loading it on first use (cupy is imported lazily)."""
    b = _backends.get(dev.type)
    if b is None:
        b = _loaders[dev.type]()
        _backends[dev.type] = b
    dev.backend = b
    return b


def device_of_array(a):
    """The Device whose loaded backend made array `a` (a CuPy array: cuda), or CPU for host
    data -- numbers, lists, numpy arrays."""
    kind = type(a)
    for device_type, b in _backends.items():
        if device_type != "cpu" and kind in b.native:
            return device(device_type)
    return CPU


def cuda_is_available():
    try:
        backend_for(Device("cuda", 0))
    except DeviceError:
        return False
    return True


def numpy_backend():
    return backend_for(CPU)

