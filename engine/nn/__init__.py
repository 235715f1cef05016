"""torch.nn, as far as the engine goes: the `functional` namespace (`autodiff.engine.nn.functional`)."""
from . import functional  # noqa: F401

__all__ = ["functional"]
