"""The engine's core: tensors' data and autograd state, the one path by which an op-table row
runs and records its node, the graph, grad modes, in-place and view bookkeeping, and the
backward pass. Everything above it -- the public functions, the Tensor class users see, nn,
optim -- builds on the names exported here, and the core imports nothing from above it: it
learns the public Tensor class only when that class is made (TensorBase.__init_subclass__).

Layers, each importing only the ones before it: dtypes, backend, kernels, host_data (the base);
ops (the table's rows); core; functions (the public functions); tensor_class (the public class);
then linalg, functional, custom_function, derivative_check, testing, nn, optim, data; public (the
names autodiff.engine gives, bound on first read).
"""
from .grad_mode import (no_grad, enable_grad, set_grad_enabled, is_grad_enabled, inference_mode,
                        is_inference_mode_enabled, inference_used, InferenceVersion)
from .graph import (Node, AccumulateGrad, RemovableHandle, source_span, current_span, use_spans, trace_inputs,
                    accumulator_of, peek_sequence, next_sequence, tracing, FREED_MESSAGE)
from .saving import SAVED_VALUE, SAVED_TENSOR, SAVED_OUTPUT, saved_entries
from .tensor import (TensorBase, Size, apply, run_op, make_tensor, storage_of, array_module, host_array, wrap_dim,
                     broadcast_shapes, check_broadcastable, record_node, refresh_view, move_retain, edge_of_leaf,
                     view_chain, multi_output_message, short_name, when_tensor_class_made, NO_PARAMS, VIEW_DEFAULT,
                     VIEW_NO_GRAD, VIEW_MULTI_OUTPUT, VIEW_INFERENCE, VIEW_IN_CUSTOM_FUNCTION)
from .mathspace import array_math, tensor_math
from .autograd import backward, grad, InplaceModifiedError, retains_graph, modified_error, DETACHED_MESSAGE
from .inplace import inplace, rebase_view, check_inplace, type_word, INFERENCE_INPLACE_MESSAGE
from . import forward  # noqa: F401,E402  (forward-mode AD: registers its entries into run_op)
