"""torch.utils.data as tutorials use it: Dataset, TensorDataset and DataLoader (batches in
order, or shuffled by the engine's generator -- not PyTorch's order for a seed -- with
PyTorch's default collation: tensors stacked, numbers made a tensor, a tuple of fields a
list of batched fields)."""
import math

from .tensor_class import Tensor
from . import functions as _fn
from . import dtypes as _dt

__all__ = ["Dataset", "TensorDataset", "DataLoader"]


class Dataset:
    """The base of a map-style dataset: `dataset[i]` and `len(dataset)`."""

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")


class TensorDataset(Dataset):
    """Sample i is (t[i] for t in tensors); the tensors share their first dimension."""

    def __init__(self, *tensors):
        if not tensors or any(t.size(0) != tensors[0].size(0) for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].size(0)


def default_collate(batch):
    """PyTorch's default_collate for tensors, numbers and sequences of them."""
    first = batch[0]
    if isinstance(first, Tensor):
        return _fn.stack(list(batch))
    if isinstance(first, bool):
        return _fn.tensor(list(batch))
    if isinstance(first, int):
        return _fn.tensor(list(batch), dtype=_dt.int64)
    if isinstance(first, float):
        return _fn.tensor(list(batch), dtype=_dt.float64)
    if isinstance(first, (tuple, list)):
        if any(len(sample) != len(first) for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return [default_collate(list(field)) for field in zip(*batch)]
    if isinstance(first, dict):
        return {key: default_collate([sample[key] for sample in batch]) for key in first}
    return list(batch)


class DataLoader:
    """Batches of `batch_size` samples of `dataset`, in order or shuffled anew each pass."""

    def __init__(self, dataset, batch_size=1, shuffle=False, drop_last=False, collate_fn=None, num_workers=0,
                 pin_memory=False):
        # num_workers and pin_memory change where PyTorch does the work, not the batches: accepted, unused
        if batch_size is not None and (not isinstance(batch_size, int) or isinstance(batch_size, bool)
                                       or batch_size <= 0):
            raise ValueError(f"batch_size should be a positive integer value, but got batch_size={batch_size}")
        self.dataset = dataset
        self.batch_size = batch_size
        self.shuffle = bool(shuffle)
        self.drop_last = drop_last
        self.collate_fn = collate_fn or default_collate

    def __len__(self):
        n = len(self.dataset)
        if self.batch_size is None:
            return n
        return n // self.batch_size if self.drop_last else math.ceil(n / self.batch_size)

    def __iter__(self):
        n = len(self.dataset)
        order = _fn.randperm(n).tolist() if self.shuffle else range(n)
        if self.batch_size is None:  # no batching: each sample as it is
            for i in order:
                yield self.dataset[i]
            return
        order = list(order)
        for start in range(0, n, self.batch_size):
            indices = order[start:start + self.batch_size]
            if len(indices) < self.batch_size and self.drop_last:
                return
            yield self.collate_fn([self.dataset[i] for i in indices])
