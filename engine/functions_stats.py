"""Statistics, scans and sorting: the public functions (argument checks in
PyTorch's words, then the op-table rows in engine/ops/reductions.py)."""

__all__ = []
