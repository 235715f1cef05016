"""Window functions (torch.hann_window and its kin; torch.signal.windows builds on them)."""

__all__ = []
