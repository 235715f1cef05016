"""The graph as a user inspects it (PyTorch's torch.autograd.graph, and what `autodiff graph`,
`eval --formula` and the language read): nodes, their edges, parameters and saved values, the
source spans that made them, and trace_inputs. It is the core's graph module (engine/core/graph.py)
seen from outside the core."""
from .core.graph import (Node, AccumulateGrad, RemovableHandle, SavedValue, current_span, get_span, SpanCursor,
                         source_span, use_spans,
                         trace_inputs, op_name, node_op, node_inputs, node_params, node_args, leaf_tensor,
                         saved_values, tensor_grad, retains_grad, view_base, accumulator_of)

__all__ = ["Node", "AccumulateGrad", "RemovableHandle", "SavedValue", "current_span", "get_span", "SpanCursor",
           "source_span", "use_spans",
           "trace_inputs", "op_name", "node_op", "node_inputs", "node_params", "node_args", "leaf_tensor",
           "saved_values", "tensor_grad", "retains_grad", "view_base", "accumulator_of"]
