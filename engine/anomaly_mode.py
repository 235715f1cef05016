"""torch.autograd.anomaly_mode: anomaly detection for the backward pass. While it is on (and
check_nan), a node whose backward returns NaN stops the backward with PyTorch's RuntimeError
("Function 'DivBackward0' returned nan values in its 1th output."); the check is in the engine's
backward loop (engine/core/autograd.py, _check_nan), which chooses its checking loop once per backward.

A known difference from PyTorch: PyTorch also records each op's Python stack in the forward while
it is on, and warns with it ("Error detected in ... Traceback of forward call that caused the
error") when a backward fails; we record no forward stacks (the language's own error spans say
where an expression was written). A batched backward (grad(..., is_grads_batched=True), which
jacobian(vectorize=True) uses) is not checked for NaN."""
import warnings

from .core.autograd import ANOMALY

__all__ = ["detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled", "is_anomaly_check_nan_enabled",
           "set_anomaly_enabled"]

ENABLED_WARNING = ("Anomaly Detection has been enabled. This mode will increase the runtime and should only be "
                   "enabled for debugging.")


def is_anomaly_enabled():
    """Whether anomaly detection is on (torch.is_anomaly_enabled)."""
    return ANOMALY[0]


def is_anomaly_check_nan_enabled():
    """Whether anomaly detection looks for NaN in the gradients (True unless set off; torch's name)."""
    return ANOMALY[1]


def set_anomaly_enabled(enabled, check_nan=True):
    """Turn anomaly detection on or off (torch.set_anomaly_enabled)."""
    ANOMALY[:] = [bool(enabled), bool(check_nan)]


class detect_anomaly:
    """Context manager: anomaly detection on inside (a backward whose node returns NaN raises, with
    check_nan=True); warns that it slows the program down when made, as PyTorch's does."""

    def __init__(self, check_nan=True):
        self.prev = ANOMALY[0]
        self.check_nan = check_nan
        self.prev_check_nan = ANOMALY[1]
        warnings.warn(ENABLED_WARNING, UserWarning, stacklevel=2)

    def __enter__(self):
        set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *exc):
        set_anomaly_enabled(self.prev, self.prev_check_nan)
        return False


class set_detect_anomaly:
    """Anomaly detection on or off as `mode` says, from the call on; as a context manager, the
    previous setting comes back at its end."""

    def __init__(self, mode, check_nan=True):
        self.prev = ANOMALY[0]
        self.prev_check_nan = ANOMALY[1]
        set_anomaly_enabled(mode, check_nan)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        set_anomaly_enabled(self.prev, self.prev_check_nan)
        return False
