"""The in-place variants of index_add, index_copy, scatter_add and masked_scatter, written by hand
where PyTorch checks more than the out-of-place function does (the functions themselves are their
rows' signatures, engine/ops/indexing.py; index_fill_ is the assembler's). They run through
engine/inplace.py, so a view's base gets CopySlices; index_add_, index_copy_ and scatter_add_
refuse, as PyTorch, a source that shares memory with the tensor written, and masked_scatter_ checks
first that the mask expands to the tensor, which may not broadcast itself.
"""
from ..core.inplace import inplace
from ..core.tensor import array_module, storage_of
from ..ops.indexing import checked_index  # noqa: F401  (gather's and scatter's checks, functions/shapes.py)
from ..ops.indexing import dtype_word, same_dtype_source, scatter_masked
from ..ops.table import tensor_argument
from .surface import made

__all__ = ["index_add_", "index_copy_", "scatter_add_", "masked_scatter_"]

OVERLAP_MESSAGE = ("unsupported operation: some elements of the input tensor and the written-to tensor refer to a "
                   "single memory location. Please clone() the tensor before performing the operation.")


def _written_alone(function, name):
    """The in-place variant of `function`: as PyTorch's assert_no_overlap, the tensors it reads
    (index, source) may not share memory with the one it writes, once its own checks pass --
    judged, as PyTorch does, only between dense (contiguous) tensors, by their memory ranges."""
    def compute(target, dim, index, source, **kwargs):
        result = function(target, dim, index, source, **kwargs)
        written = storage_of(target)
        for t in (index, source):
            read = storage_of(t)
            if t.device is target.device and read.size and _dense(read) and _dense(written) \
                    and array_module(target.device).may_share_memory(read, written):
                raise RuntimeError(OVERLAP_MESSAGE)
        return result

    def variant(input, dim, index, source, **kwargs):
        return inplace(input, compute, dim, index, source, **kwargs)
    variant.__name__ = variant.__qualname__ = name
    variant.__doc__ = f"In-place {function.__name__}: the result is written into input."
    return variant


def _dense(a):
    return a.flags.c_contiguous or a.flags.f_contiguous


index_add_ = _written_alone(made("index_add"), "index_add_")
index_copy_ = _written_alone(made("index_copy"), "index_copy_")
scatter_add_ = _written_alone(made("scatter_add"), "scatter_add_")


def masked_scatter_(input, mask, source):
    """In place: the mask expands to the tensor (which keeps its shape), as PyTorch's expand_inplace."""
    tensor_argument(input, "masked_scatter_", "input", 1)
    tensor_argument(mask, "masked_scatter_", "mask", 2)
    tensor_argument(source, "masked_scatter_", "source", 3)
    same_dtype_source(input, source)
    target, own = tuple(input.array.shape), tuple(mask.array.shape)
    if len(own) > len(target):
        device = "CUDA" if input.device.type == "cuda" else "CPU"
        raise RuntimeError(f"expand({device}{dtype_word(mask)}Type{{{list(own)}}}, size={list(target)}): the number "
                           f"of sizes provided ({len(target)}) must be greater or equal to the number of dimensions "
                           f"in the tensor ({len(own)})")
    lead = len(target) - len(own)
    for i, (o, t) in enumerate(zip(own, target[lead:])):
        if o != t and o != 1:
            raise RuntimeError(f"The expanded size of the tensor ({t}) must match the existing size ({o}) at "
                               f"non-singleton dimension {i + lead}.  Target sizes: {list(target)}.  Tensor sizes: "
                               f"{list(own)}")
    return inplace(input, scatter_masked, mask, source, target)
