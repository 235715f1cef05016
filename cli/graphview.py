"""The graph of a result, described as data and rendered as text, JSON or DOT.

`describe_graph` walks the backward graph from the result (with a stack: deep
graphs are fine) and records, per node, what a reader wants: the node's name
(MulBackward0, AccumulateGrad), the sub-expression that made it, its
operands in program order (other nodes, and the constants the backward graph
has no node for: the 2 and the 1 of `x*2 + 1`, tensors that do not require
grad, and parameters such as `dim=0`), its shape, its value where the graph
holds it, the grad where one was computed, and the tensors it saved with
their versions. The renderers only format that.

A node knows its constants' values when the graph was made under
`trace_inputs()` (`autodiff graph` does that); otherwise a number shows as the
value the node saved for its backward, or as "a number" when it saved none.
"""
import numpy

from ..engine import graph as G
from ..engine.tensor_class import Tensor
from .output import format_array, format_number, json_value

__all__ = ["describe_graph", "render", "to_text", "to_dot"]


MAX_EXPR = 60  # characters of a node's sub-expression shown (a long chain's would be the whole program)
MAX_INDENT = 40  # tree levels indented; deeper ones are shown at that depth, marked with theirs


def _span_text(node, source):
    span = getattr(node, "span", None)
    if span is None or source is None or getattr(span, "start", None) is None:
        return None
    if span.end - span.start > 4 * MAX_EXPR:  # only look at what can be shown
        text = " ".join(source[span.start:span.start + MAX_EXPR].split()) + "..."
    else:
        text = " ".join(source[span.start:span.end].split())
    if len(text) > MAX_EXPR:
        text = text[:MAX_EXPR - 3] + "..."
    return text or None


def _array(t):
    return numpy.asarray(t.detach()) if t is not None else None


def describe_graph(root, variables=None, source=None, produced=None, names=None):
    """A dict for the graph of tensor `root`: "output"; "nodes" and "root", the
    backward graph (in next_functions order); "forward", the tensors and the
    ops between them.

    `variables` maps names to leaf tensors and `names` ids of tensors to the
    names they are bound to (labels); `produced` maps nodes to the tensors
    they made (intermediate values and grads)."""
    names = dict(names or {})
    names.update({id(t): n for n, t in (variables or {}).items()})
    produced = produced or {}
    out = {"output": {"shape": list(root.shape), "dtype": root.dtype.name, "value": json_value(_array(root)),
                      "requires_grad": bool(root.requires_grad), "expr": None},
           "nodes": [], "root": None}
    start = root.grad_fn
    if start is None:
        if root.requires_grad and root.is_leaf:
            start = G.accumulator_of(root)
        else:
            return out
    ids = {}
    order = []
    stack = [start]
    while stack:  # depth-first, inputs in next_functions order
        node = stack.pop()
        if node in ids:
            continue
        ids[node] = len(order)
        order.append(node)
        for nxt in reversed(G.node_inputs(node)):
            if nxt is not None and nxt not in ids:
                stack.append(nxt)
    for node in order:
        out["nodes"].append(_describe_node(node, ids, names, source, produced, root))
    out["root"] = ids[start]
    out["output"]["expr"] = out["nodes"][0].get("expr")
    out["forward"] = _forward(out["nodes"], order)
    return out


def _forward(nodes, order):
    """The forward view: tensors (leaves first, the output last) and the op making each."""
    tensors = []
    ops = []
    # a node's tensor is listed after the tensors it is computed from: reverse post-order
    position = {}
    stack = [(0, False)] if nodes else []
    done = set()
    sequence = []
    while stack:
        i, expanded = stack.pop()
        if i in done:
            continue
        if expanded:
            done.add(i)
            sequence.append(i)
            continue
        stack.append((i, True))
        for child in nodes[i]["next"]:
            if child is not None and child not in done:
                stack.append((child, False))
    for i in sequence:
        node = nodes[i]
        position[i] = len(tensors)
        label = node.get("variable") or node.get("label") or node.get("expr") or f"t{len(tensors)}"
        tensors.append({"id": len(tensors), "label": label, "kind": "variable" if node["kind"] == "leaf" else
                        ("output" if i == 0 else "intermediate"), "shape": node["shape"], "value": node.get("value"),
                        "grad": node.get("grad"), "node": i})
        if node["kind"] != "leaf":
            operands = [{"tensor": position[o["node"]]} if "node" in o else o for o in node.get("operands", ())]
            ops.append({"op": _forward_name(order[i]), "node": node["name"],
                        "inputs": [position[c] for c in node["next"] if c is not None],
                        "operands": operands, "output": position[i]})
    return {"tensors": tensors, "ops": ops}


def _forward_name(node):
    return G.op_name(node)


def _describe_node(node, ids, names, source, produced, root):
    t = G.leaf_tensor(node)
    if t is not None:
        grad = G.tensor_grad(t)
        entry = {"id": ids[node], "name": "AccumulateGrad", "kind": "leaf", "variable": names.get(id(t)),
                 "shape": list(t.shape), "dtype": t.dtype.name, "value": json_value(_array(t)),
                 "is_leaf": True, "requires_grad": True, "retains_grad": False,
                 "grad": json_value(_array(grad)) if grad is not None else None,
                 "version": t._version, "saved": [], "next": []}
        return entry
    made = produced.get(node)
    if made is None and node is root.grad_fn:
        made = root
    entry = {"id": ids[node], "name": node.name(), "kind": "op", "expr": _span_text(node, source),
             "label": names.get(id(made)) if made is not None else None,
             "shape": list(node.out_shape), "dtype": _dtype_name(node.out_dtype),
             "value": json_value(_array(made)) if made is not None else None,
             "is_leaf": False, "requires_grad": True,
             "retains_grad": bool(made is not None and G.retains_grad(made)),
             "grad": _grad_json(made),
             "saved": _saved(node), "next": [ids.get(n) if n is not None else None for n in G.node_inputs(node)],
             "operands": _operands(node, ids, names)}
    for key in ("expr", "label"):
        if entry[key] is None:
            del entry[key]
    return entry


MAX_PARAM = 40  # characters of a parameter's value shown


def _operands(node, ids, names):
    """The node's operands in program order: {"node": id} for one with a node, {"constant": value}
    for a number, {"constant": value, "shape": [...]} (and "label" when bound to a name) for a
    tensor that does not require grad, then {"param": name, "constant": value} for each parameter.
    A value the graph did not keep is None, with "kept": False."""
    inputs = G.node_inputs(node)
    args = G.node_args(node)
    shapes = getattr(node, "shapes", None) or (None,) * len(inputs)
    saved = None
    out = []
    for i, edge in enumerate(inputs):
        if edge is not None:
            out.append({"node": ids.get(edge)})
            continue
        arg = args[i] if args is not None and i < len(args) else None
        if isinstance(arg, Tensor):  # a tensor that does not require grad
            entry = {"constant": json_value(_array(arg)), "shape": list(arg.shape)}
            if names.get(id(arg)):
                entry["label"] = names[id(arg)]
            out.append(entry)
        elif args is not None and i < len(args):
            out.append({"constant": _plain(arg)})
        elif i < len(shapes) and shapes[i] is not None:
            out.append({"constant": None, "shape": list(shapes[i]), "kept": False})
        else:
            if saved is None:
                saved = {v.of: v.value for v in (G.saved_values(node) or []) if v.shape is None}
            value = saved.get(f"input {i}")
            out.append({"constant": _plain(value)} if value is not None else {"constant": None, "kept": False})
    for key, value in G.node_params(node).items():
        if value is not None and value is not False:  # keepdim=False, descending=False: the defaults
            out.append({"param": key, "constant": _param_text(key, value)})
    return out


def _plain(value):
    if isinstance(value, (bool, int, float)):
        return json_value(value)
    if hasattr(value, "item") and getattr(value, "ndim", None) == 0:
        return json_value(value.item())
    return str(value)


def _param_text(key, value):
    """A parameter as the program would write it: numbers and tuples as they are, an index key as
    `[0, 1:3]`, an array as its dtype and shape."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, (int, float)):
        return json_value(value)
    if key == "key" and isinstance(value, tuple):
        text = "[" + ", ".join(_index_text(k) for k in value) + "]"
    elif hasattr(value, "shape") and hasattr(value, "dtype"):
        text = f"<{_dtype_name(value.dtype)} {list(value.shape)}>"
    else:
        text = str(value)
    return text if len(text) <= MAX_PARAM else text[:MAX_PARAM - 3] + "..."


def _index_text(k):
    if isinstance(k, slice):
        parts = ["" if k.start is None else str(k.start), "" if k.stop is None else str(k.stop)]
        if k.step is not None:
            parts.append(str(k.step))
        return ":".join(parts)
    if k is None:
        return "None"
    if k is Ellipsis:
        return "..."
    if hasattr(k, "shape") and hasattr(k, "dtype"):
        return f"<{_dtype_name(k.dtype)} {list(k.shape)}>"
    return str(k)


def _operand_text(operand, precision=4):
    """A constant operand for the text view: its value (or name), `dim=0` for a parameter."""
    value = operand["constant"]
    if operand.get("label"):
        text = operand["label"]
    elif value is None:
        text = "a tensor" if "shape" in operand else "a number"
    elif isinstance(value, str):
        text = value
    elif isinstance(value, float) and "shape" not in operand:  # a number: all its digits, as written
        text = format_number(value) if value == int(value) and abs(value) < 1e15 else repr(value)
    else:
        text = _short(value, precision)
    return f"{operand['param']}={text}" if "param" in operand else text


def _dtype_name(np_dtype):
    from ..engine.dtypes import as_dtype
    try:
        return as_dtype(np_dtype).name
    except TypeError:
        return str(np_dtype)


def _grad_json(t):
    grad = G.tensor_grad(t) if t is not None else None
    return json_value(_array(grad)) if grad is not None else None


def _saved(node):
    """The saved tensors of a node: which input (or the output), shape, saved and current version."""
    saved = G.saved_values(node)
    if saved is None:
        return [{"released": True}]
    out = []
    for v in saved:
        if v.shape is None:
            value = v.value
            out.append({"of": v.of, "value": value if isinstance(value, (int, float)) else str(value)})
        else:
            out.append({"of": v.of, "shape": list(v.shape), "version": v.version,
                        "current_version": v.current_version})
    return out


def render(graph, fmt):
    if fmt == "json":
        from .output import dumps
        return dumps(graph)
    if fmt == "dot":
        return to_dot(graph)
    return to_text(graph)


def _summary(node, precision=4):
    parts = []
    if node["kind"] == "leaf":
        label = f"AccumulateGrad {node['variable']}" if node.get("variable") else "AccumulateGrad (leaf)"
    else:
        label = node["name"]
        if node.get("label"):
            label += f"  {node['label']}"
            if node.get("expr") and node["expr"] != node["label"]:
                label += f" = `{node['expr']}`"
        elif node.get("expr"):
            label += f"  `{node['expr']}`"
    parts.append(label)
    parts.append(f"shape {node['shape']}")
    if node.get("value") is not None:
        parts.append("value " + _short(node["value"], precision))
    if node.get("grad") is not None:
        parts.append("grad " + _short(node["grad"], precision))
    flags = []
    if node["is_leaf"]:
        flags.append("is_leaf")
    if node["requires_grad"]:
        flags.append("requires_grad")
    if node.get("retains_grad"):
        flags.append("retains_grad")
    parts.append(" ".join(flags))
    saved = node.get("saved") or []
    if saved:
        shown = []
        for s in saved:
            if s.get("released"):
                shown.append("freed by backward")
            elif "shape" in s:
                v = f"v{s['version']}" if s["current_version"] == s["version"] else \
                    f"v{s['version']}, now v{s['current_version']}!"
                shown.append(f"{s['of']} {s['shape']} {v}")
            else:
                shown.append(f"{s['of']} = {s['value']}")
        parts.append("saved: " + "; ".join(shown))
    return "  ".join(p for p in parts if p)


def _short(value, precision):
    text = format_array(numpy.asarray(value, dtype=float) if not isinstance(value, str) else value, precision)
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."


def to_text(graph):
    """An indented tree from the output down to the leaves; a node met again is referred back to."""
    lines = []
    out = graph["output"]
    lines.append(f"output  shape {out['shape']}  value {_short(out['value'], 4)}")
    if graph["root"] is None:
        lines.append("  (no graph: the result does not require grad)")
        return "\n".join(lines) + "\n"
    forward = graph.get("forward")
    if forward:
        lines.append("forward (inputs first):")
        labels = [t["label"] for t in forward["tensors"]]
        width = min(24, max(len(x) for x in labels))
        made_by = {op["output"]: op for op in forward["ops"]}
        for t in forward["tensors"]:
            value = _short(t["value"], 4) if t.get("value") is not None else "?"
            if t["kind"] == "variable":
                how = "leaf"
            else:
                op = made_by[t["id"]]
                operands = op.get("operands") or [{"tensor": i} for i in op["inputs"]]
                shown = (labels[o["tensor"]] if "tensor" in o else _operand_text(o) for o in operands)
                how = f"{op['op']}({', '.join(shown)})"
            grad = f"  grad {_short(t['grad'], 4)}" if t.get("grad") is not None else ""
            lines.append(f"  {t['label']:<{width}}  shape {t['shape']}  value {value}  <- {how}{grad}")
        lines.append("backward (from the output, in next_functions order):")
    nodes = graph["nodes"]
    shown = set()
    stack = [(graph["root"], "", "", True, 0)]
    while stack:
        nid, indent, branch, last, depth = stack.pop()
        if isinstance(nid, str):  # a constant operand
            lines.append(f"{indent}{branch}{nid}")
            continue
        node = nodes[nid]
        mark = f"[depth {depth}] " if depth > MAX_INDENT else ""
        if nid in shown:
            lines.append(f"{indent}{branch}{mark}#{nid} {_label(node)} (shown above)")
            continue
        shown.add(nid)
        lines.append(f"{indent}{branch}{mark}#{nid} {_summary(node)}")
        operands = node.get("operands")
        if operands is None:
            operands = [{"node": c} for c in node["next"] if c is not None]
        child_indent = indent
        if branch and depth < MAX_INDENT:  # a long chain would indent every line further: stop at a depth
            child_indent = indent + ("   " if last else "│  ")
        for i in range(len(operands) - 1, -1, -1):
            is_last = i == len(operands) - 1
            item = operands[i]["node"] if "node" in operands[i] else _constant_line(operands[i])
            stack.append((item, child_indent, "└─ " if is_last else "├─ ", is_last, depth + 1))
    return "\n".join(lines) + "\n"


def _constant_line(operand):
    """A constant's line in the tree (a str on the stack, where nodes are ids)."""
    text = _operand_text(operand)
    if "param" in operand:
        return f"{text} (parameter)"
    if "shape" in operand:
        return f"constant {text}  shape {operand['shape']}" + ("" if operand.get("kept", True) else
                                                              " (does not require grad)")
    return f"constant {text}" if operand.get("kept", True) else "constant: a number (the graph did not keep it)"


def _label(node):
    if node["kind"] == "leaf":
        return f"AccumulateGrad {node['variable']}" if node.get("variable") else "AccumulateGrad"
    return node["name"]


def _dot_escape(text):
    return str(text).replace("\\", "\\\\").replace('"', '\\"')


def to_dot(graph):
    """Graphviz source: leaves, ops and the output told apart by shape and colour."""
    lines = ["digraph autodiff {", '  rankdir="BT";', '  ordering="in";',
             '  node [fontname="Helvetica", fontsize=11];', '  edge [color="#555555"];']
    out = graph["output"]
    lines.append(f'  output [label="output\\nshape {out["shape"]}\\nvalue {_dot_escape(_short(out["value"], 4))}", '
                 'shape=doubleoctagon, style=filled, fillcolor="#c8e6c9"];')
    for node in graph["nodes"]:
        if node["kind"] == "leaf":
            body = [node.get("variable") or "leaf"]
            style = 'shape=ellipse, style=filled, fillcolor="#bbdefb"'
        else:
            body = [node["name"]]
            if node.get("label"):
                body.append(node["label"] + (f" = {node['expr']}" if node.get("expr") else ""))
            elif node.get("expr"):
                body.append(node["expr"])
            style = 'shape=box, style="rounded,filled", fillcolor="#ffe0b2"'
        body.append(f"shape {node['shape']}")
        for key in ("value", "grad"):
            if node.get(key) is not None:
                body.append(f"{key} " + _short(node[key], 4))
        label = "\\n".join(_dot_escape(b) for b in body)
        lines.append(f'  n{node["id"]} [label="{label}", {style}];')
    for node in graph["nodes"]:
        for child in node["next"]:
            if child is not None:
                lines.append(f"  n{child} -> n{node['id']};")
    if graph["root"] is not None:
        lines.append(f"  n{graph['root']} -> output;")
    lines.append("}")
    return "\n".join(lines) + "\n"
