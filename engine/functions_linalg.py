"""Linear algebra beyond matmul: the public functions (argument checks in
PyTorch's words, then the op-table rows in engine/ops/linalg.py)."""

__all__ = []
