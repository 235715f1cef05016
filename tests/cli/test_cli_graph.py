"""`autodiff graph` and `eval --graph` from the command line (SPEC §4, issue 5).

The seeds' graphs in JSON -- y=(w+x)*(w+1), the l1..l4/loss graph, and
a*x**2+b*x+c --: backward nodes in next_functions order, shared nodes listed
once, grads, retained grads and saved tensors after --backward, and the
forward view. Then every format as a user meets it: the text tree (shared
nodes shown once and referred back to), JSON, DOT that Graphviz parses,
svg/png rendered by Graphviz's `dot` (skipped when it is not installed), -o
FILE for each, and the clear error when `dot` is missing.
"""
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

HAVE_DOT = shutil.which("dot") is not None
needs_dot = pytest.mark.skipif(not HAVE_DOT, reason="Graphviz's `dot` is not installed")

WX = ["a = w + x; b = w + 1; y = a * b; y", "w=1", "x=2"]
WX_INLINE = ["(w+x)*(w+1)", "w=1", "x=2"]
LOSS = ["inp = ones(2,2); l1 = inp*w1; l2 = l1+w2; l3 = l1*w3; l4 = l2*l3; loss = l4.mean(); loss",
        "w1=2", "w2=3", "w3=4"]
QUAD = ["a*x**2+b*x+c", "a=1", "b=-2", "c=1", "x=0"]

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def graph_json(cli, *args):
    return json.loads(cli.ok("graph", *args, "--format", "json").stdout)


def by_name(graph, name):
    return [n for n in graph["nodes"] if n["name"] == name]


def leaf(graph, variable):
    found = [n for n in graph["nodes"] if n["kind"] == "leaf" and n.get("variable") == variable]
    assert len(found) == 1, f"leaf {variable} appears {len(found)} times"
    return found[0]


def labelled(graph, label):
    found = [n for n in graph["nodes"] if n.get("label") == label]
    assert len(found) == 1, f"node {label} appears {len(found)} times"
    return found[0]


def children(graph, node):
    return [graph["nodes"][i] if i is not None else None for i in node["next"]]


def check_ids(graph):
    """ids are positions, every edge points at a listed node, the root is node 0."""
    for i, n in enumerate(graph["nodes"]):
        assert n["id"] == i
        for c in n["next"]:
            assert c is None or 0 <= c < len(graph["nodes"])
    assert graph["root"] == 0


# ------------------------------------------------------------ y = (w+x)*(w+1)

def test_wx_graph_structure(cli):
    g = graph_json(cli, *WX)
    check_ids(g)
    assert g["output"]["value"] == 6.0 and g["output"]["shape"] == [] and g["output"]["requires_grad"] is True
    root = g["nodes"][g["root"]]
    assert root["name"] == "MulBackward0" and root["label"] == "y"
    a, b = children(g, root)
    assert [a["name"], b["name"]] == ["AddBackward0", "AddBackward0"]
    assert (a["label"], b["label"]) == ("a", "b")  # next_functions order: the left operand first
    assert (a["expr"], b["expr"]) == ("w + x", "w + 1")
    w, x = children(g, a)
    assert (w["name"], w["variable"], x["name"], x["variable"]) == ("AccumulateGrad", "w", "AccumulateGrad", "x")
    # w + 1: the constant has no node (None in next_functions), w's AccumulateGrad is the same node
    assert b["next"] == [w["id"], None]
    # w is shared and listed once: 5 nodes in all
    assert len(g["nodes"]) == 5
    assert sorted(n["name"] for n in g["nodes"]) == ["AccumulateGrad"] * 2 + ["AddBackward0"] * 2 + ["MulBackward0"]
    assert leaf(g, "w")["value"] == 1.0 and leaf(g, "x")["value"] == 2.0
    assert a["value"] == 3.0 and b["value"] == 2.0 and root["value"] == 6.0
    for n in g["nodes"]:
        assert n["grad"] is None  # nothing ran backward
        assert n["is_leaf"] is (n["kind"] == "leaf")
        assert n["requires_grad"] is True
        assert n["shape"] == [] and n["dtype"] == "float64"


def test_wx_graph_after_backward(cli):
    g = graph_json(cli, *WX, "--backward")
    check_ids(g)
    assert leaf(g, "w")["grad"] == 5.0
    assert leaf(g, "x")["grad"] == 2.0
    a, b, y = labelled(g, "a"), labelled(g, "b"), labelled(g, "y")
    assert a["grad"] == 2.0 and a["retains_grad"] is True
    assert b["grad"] == 3.0 and b["retains_grad"] is True
    assert y["grad"] == 1.0
    for n in (leaf(g, "w"), leaf(g, "x")):
        assert n["is_leaf"] is True and n["retains_grad"] is False and n["version"] == 0
    # MulBackward0 saved both inputs (each needed for the other's grad), at version 0
    assert y["saved"] == [{"of": "input 0", "shape": [], "version": 0, "current_version": 0},
                          {"of": "input 1", "shape": [], "version": 0, "current_version": 0}]
    assert a["saved"] == [] and b["saved"] == []


def test_wx_inline_expression_has_the_same_graph(cli):
    named, inline = graph_json(cli, *WX, "--backward"), graph_json(cli, *WX_INLINE, "--backward")
    assert [(n["name"], n["next"], n["grad"]) for n in named["nodes"]] == \
           [(n["name"], n["next"], n["grad"]) for n in inline["nodes"]]
    assert inline["output"]["value"] == 6.0


def test_span_of_parenthesised_operands(cli):
    inline = graph_json(cli, *WX_INLINE)
    assert [n.get("expr") for n in inline["nodes"] if n["kind"] == "op"] == ["(w+x)*(w+1)", "w+x", "w+1"]
    assert inline["output"]["expr"] == "(w+x)*(w+1)"
    assert graph_json(cli, "(x+1)**2", "x=1")["nodes"][0]["expr"] == "(x+1)**2"


def test_wx_forward_view(cli):
    g = graph_json(cli, *WX, "--backward")
    tensors, ops = g["forward"]["tensors"], g["forward"]["ops"]
    labels = [t["label"] for t in tensors]
    assert sorted(labels) == ["a", "b", "w", "x", "y"]
    assert [t["id"] for t in tensors] == list(range(len(tensors)))
    kind = {t["label"]: t["kind"] for t in tensors}
    assert kind == {"w": "variable", "x": "variable", "a": "intermediate", "b": "intermediate", "y": "output"}
    assert labels[-1] == "y"
    value = {t["label"]: t["value"] for t in tensors}
    assert value == {"w": 1.0, "x": 2.0, "a": 3.0, "b": 2.0, "y": 6.0}
    grad = {t["label"]: t["grad"] for t in tensors}
    assert grad == {"w": 5.0, "x": 2.0, "a": 2.0, "b": 3.0, "y": 1.0}
    made = {labels[op["output"]]: (op["op"], op["node"], [labels[i] for i in op["inputs"]]) for op in ops}
    assert made == {"a": ("add", "AddBackward0", ["w", "x"]),
                    "b": ("add", "AddBackward0", ["w"]),  # the constant 1 is not a tensor of the graph
                    "y": ("mul", "MulBackward0", ["a", "b"])}
    for op in ops:  # inputs are listed before what they make
        assert all(i < op["output"] for i in op["inputs"])
    for t in tensors:  # each tensor points at its backward node
        assert g["nodes"][t["node"]].get("label", g["nodes"][t["node"]].get("variable")) == t["label"]


# ------------------------------------------------------------ l1..l4 and loss

def test_loss_graph_structure_and_grads(cli):
    g = graph_json(cli, *LOSS, "--backward")
    check_ids(g)
    assert g["output"]["value"] == 40.0 and g["output"]["shape"] == []
    root = g["nodes"][0]
    assert root["name"] == "MeanBackward0" and root["label"] == "loss" and root["value"] == 40.0
    assert root["grad"] == 1.0
    (l4,) = children(g, root)
    assert l4["name"] == "MulBackward0" and l4["label"] == "l4"
    l2, l3 = children(g, l4)
    assert (l2["name"], l2["label"], l3["name"], l3["label"]) == ("AddBackward0", "l2", "MulBackward0", "l3")
    l1, w2 = children(g, l2)
    assert (l1["name"], l1["label"]) == ("MulBackward0", "l1")
    assert w2["name"] == "AccumulateGrad" and w2["variable"] == "w2"
    l1_again, w3 = children(g, l3)
    assert l1_again is l1  # shared: the same node, listed once
    assert w3["variable"] == "w3"
    none, w1 = children(g, l1)
    assert none is None and w1["variable"] == "w1"  # inp = ones(2,2) does not require grad
    assert len(g["nodes"]) == 8
    assert [n["label"] for n in g["nodes"] if n["kind"] == "op"].count("l1") == 1
    for n in (l1, l2, l3, l4):
        assert n["shape"] == [2, 2] and n["retains_grad"] is True
    quad = lambda v: [[v, v], [v, v]]  # noqa: E731
    assert l4["value"] == quad(40.0) and l2["value"] == quad(5.0) and l3["value"] == quad(8.0)
    assert l1["value"] == quad(2.0)
    assert leaf(g, "w1")["grad"] == 28.0
    assert leaf(g, "w2")["grad"] == 8.0
    assert leaf(g, "w3")["grad"] == 10.0
    assert l1["grad"] == quad(7.0)
    assert l2["grad"] == quad(2.0)
    assert l3["grad"] == quad(1.25)
    assert l4["grad"] == quad(0.25)
    # inp*w1 saves inp (input 0) only: w1's grad needs it, inp needs no grad
    assert l1["saved"] == [{"of": "input 0", "shape": [2, 2], "version": 0, "current_version": 0}]
    assert l3["saved"] == [{"of": "input 0", "shape": [2, 2], "version": 0, "current_version": 0},
                           {"of": "input 1", "shape": [], "version": 0, "current_version": 0}]


def test_loss_forward_view(cli):
    g = graph_json(cli, *LOSS)
    tensors, ops = g["forward"]["tensors"], g["forward"]["ops"]
    labels = [t["label"] for t in tensors]
    assert sorted(labels) == ["l1", "l2", "l3", "l4", "loss", "w1", "w2", "w3"]
    assert labels[-1] == "loss"
    made = {labels[op["output"]]: (op["op"], sorted(labels[i] for i in op["inputs"])) for op in ops}
    assert made == {"l1": ("mul", ["w1"]), "l2": ("add", ["l1", "w2"]), "l3": ("mul", ["l1", "w3"]),
                    "l4": ("mul", ["l2", "l3"]), "loss": ("mean", ["l4"])}
    position = {label: i for i, label in enumerate(labels)}
    for out, (_, inputs) in made.items():
        assert all(position[i] < position[out] for i in inputs)


# ------------------------------------------------------------ a*x**2 + b*x + c

def test_quadratic_graph(cli):
    g = graph_json(cli, *QUAD, "--backward")
    check_ids(g)
    names = sorted(n["name"] for n in g["nodes"])
    assert names == ["AccumulateGrad"] * 4 + ["AddBackward0"] * 2 + ["MulBackward0"] * 2 + ["PowBackward0"]
    root = g["nodes"][0]
    assert root["name"] == "AddBackward0" and root["expr"] == "a*x**2+b*x+c" and root["value"] == 1.0
    left, c = children(g, root)
    assert left["name"] == "AddBackward0" and left["expr"] == "a*x**2+b*x"
    assert c["variable"] == "c" and c["grad"] == 1.0
    ax2, bx = children(g, left)
    assert (ax2["name"], ax2["expr"], bx["name"], bx["expr"]) == ("MulBackward0", "a*x**2", "MulBackward0", "b*x")
    a, x2 = children(g, ax2)
    assert a["variable"] == "a" and x2["name"] == "PowBackward0" and x2["expr"] == "x**2"
    b, x = children(g, bx)
    assert b["variable"] == "b" and x["variable"] == "x"
    assert children(g, x2) == [x]  # x is shared by x**2 and b*x
    assert x2["saved"] == [{"of": "input 0", "shape": [], "version": 0, "current_version": 0}]
    assert {n["variable"]: n["value"] for n in g["nodes"] if n["kind"] == "leaf"} == \
           {"a": 1.0, "b": -2.0, "c": 1.0, "x": 0.0}
    assert {n["variable"]: n["grad"] for n in g["nodes"] if n["kind"] == "leaf"} == \
           {"a": 0.0, "b": 0.0, "c": 1.0, "x": -2.0}


def test_quadratic_values_away_from_zero(cli):
    g = graph_json(cli, "a*x**2+b*x+c", "a=1", "b=-2", "c=1", "x=3", "--backward")
    value = {n["expr"]: n["value"] for n in g["nodes"] if n["kind"] == "op"}
    assert value == {"a*x**2+b*x+c": 4.0, "a*x**2+b*x": 3.0, "a*x**2": 9.0, "x**2": 9.0, "b*x": -6.0}
    assert leaf(g, "x")["grad"] == 4.0  # 2*a*x + b
    assert leaf(g, "a")["grad"] == 9.0 and leaf(g, "b")["grad"] == 3.0


def test_non_scalar_output_backward_uses_weights_of_one(cli):
    g = graph_json(cli, "x*x", "x=[1,2,3]", "--backward")
    assert g["output"]["shape"] == [3] and g["output"]["value"] == [1.0, 4.0, 9.0]
    assert leaf(g, "x")["grad"] == [2.0, 4.0, 6.0]


def test_output_without_graph(cli):
    g = graph_json(cli, "2+3")
    assert g["root"] is None and g["nodes"] == [] and g["output"]["value"] == 5.0
    text = cli.ok("graph", "2+3").stdout
    assert "no graph" in text


def test_a_leaf_alone_is_its_accumulate_grad(cli):
    g = graph_json(cli, "x", "x=1", "--backward")
    assert [n["name"] for n in g["nodes"]] == ["AccumulateGrad"] and g["nodes"][0]["grad"] == 1.0


# ------------------------------------------------------------------ the text tree

def test_text_tree_shows_shared_node_once(cli):
    text = cli.ok("graph", *WX, "--backward").stdout
    lines = text.splitlines()
    assert lines[0].startswith("output") and "value 6" in lines[0]
    full = [line for line in lines if re.search(r"#\d+ AccumulateGrad w\b", line) and "shown above" not in line]
    again = [line for line in lines if "AccumulateGrad w" in line and "(shown above)" in line]
    assert len(full) == 1 and len(again) == 1
    assert lines.index(full[0]) < lines.index(again[0])
    # the reference back names the same node number
    assert re.search(r"#(\d+) ", full[0]).group(1) == re.search(r"#(\d+) ", again[0]).group(1)
    root = next(line for line in lines if line.startswith("#0 "))
    assert "MulBackward0" in root and "y = `a * b`" in root and "grad 1" in root
    assert "saved: input 0 [] v0; input 1 [] v0" in root
    assert "retains_grad" in root and "requires_grad" in root
    w = full[0]
    assert "value 1" in w and "grad 5" in w and "is_leaf" in w and "requires_grad" in w
    x = next(line for line in lines if "AccumulateGrad x" in line)
    assert "grad 2" in x
    a = next(line for line in lines if "a = `w + x`" in line)
    assert "AddBackward0" in a and "grad 2" in a and "retains_grad" in a
    # tree drawing: children indented under their parent
    assert any(line.startswith("├─ #") for line in lines) and any(line.startswith("└─ #") for line in lines)


def test_text_tree_of_loss_refers_back_to_l1(cli):
    text = cli.ok("graph", *LOSS, "--backward").stdout
    l1_lines = [line for line in text.splitlines() if "MulBackward0" in line and "l1" in line
                and "l1*" not in line and "l1+" not in line]
    assert len(l1_lines) == 1 and "grad [[7, 7], [7, 7]]" in l1_lines[0]
    number = re.search(r"#(\d+) MulBackward0  l1", l1_lines[0]).group(1)
    assert f"#{number} MulBackward0 (shown above)" in text
    assert "grad 28" in text and "grad 8" in text and "grad 10" in text
    assert "forward (inputs first):" in text and "backward (from the output" in text


def test_text_forward_section(cli):
    text = cli.ok("graph", *WX).stdout
    forward = text.split("forward (inputs first):")[1].split("backward")[0]
    rows = {line.split()[0]: line for line in forward.strip().splitlines()}
    assert set(rows) == {"w", "x", "a", "b", "y"}
    assert "<- leaf" in rows["w"] and "<- add(w, x)" in rows["a"] and "<- mul(a, b)" in rows["y"]


# ------------------------------------------------------------------ formats and files

@pytest.mark.parametrize("fmt", ["text", "json", "dot"])
def test_output_file(cli, fmt, tmp_path):
    target = tmp_path / f"graph.{fmt}"
    stdout = cli.ok("graph", *WX, "--backward", "--format", fmt).stdout
    result = cli.ok("graph", *WX, "--backward", "--format", fmt, "-o", str(target))
    assert result.stdout == ""
    assert str(target) in result.stderr
    assert target.read_text(encoding="utf-8") == stdout
    if fmt == "json":
        assert json.loads(target.read_text())["nodes"][0]["name"] == "MulBackward0"


def test_dot_source(cli):
    dot = cli.ok("graph", *WX, "--backward", "--format", "dot").stdout
    assert dot.startswith("digraph") and dot.rstrip().endswith("}")
    g = graph_json(cli, *WX, "--backward")
    decls = dict(re.findall(r"^\s*(n\d+|output) \[(.*)\];$", dot, re.M))
    assert set(decls) == {f"n{i}" for i in range(len(g["nodes"]))} | {"output"}
    edges = set(re.findall(r"^\s*(n\d+) -> (n\d+|output);$", dot, re.M))
    expect = {(f"n{c}", f"n{n['id']}") for n in g["nodes"] for c in n["next"] if c is not None}
    assert edges == expect | {("n0", "output")}
    # leaves, ops and the output told apart by shape
    assert "shape=ellipse" in decls["n2"] and 'label="w\\nshape []\\nvalue 1\\ngrad 5"' in decls["n2"]
    assert "shape=box" in decls["n0"] and "MulBackward0" in decls["n0"] and "y = a * b" in decls["n0"]
    assert "shape=doubleoctagon" in decls["output"]
    colours = {re.search(r'fillcolor="([^"]+)"', decls[k]).group(1) for k in ("n0", "n2", "output")}
    assert len(colours) == 3


def test_dot_escapes_quotes_and_backslashes(cli, tmp_path):
    # a node's source text holding characters DOT would choke on stays valid source
    expr = 'x*len("a\\"b\\\\")'
    dot = cli.ok("graph", expr, "x=1", "--format", "dot").stdout
    n0 = next(line for line in dot.splitlines() if line.strip().startswith("n0 ["))
    label = re.search(r'label="((?:[^"\\]|\\.)*)"', n0).group(1)
    lines = re.split(r"(?<!\\)\\n", label)  # DOT's line breaks; then undo the escapes
    assert re.sub(r"\\(.)", r"\1", lines[1]) == expr
    if HAVE_DOT:
        done = subprocess.run(["dot", "-Tsvg"], input=dot.encode(), capture_output=True, timeout=60)
        assert done.returncode == 0, done.stderr.decode()


@needs_dot
@pytest.mark.parametrize("args", [WX, LOSS, QUAD], ids=["wx", "loss", "quadratic"])
def test_dot_parses_with_graphviz(cli, args, tmp_path):
    source = cli.ok("graph", *args, "--backward", "--format", "dot").stdout
    done = subprocess.run(["dot", "-Tsvg"], input=source.encode(), capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    svg = done.stdout.decode()
    assert "<svg" in svg
    assert "MulBackward0" in svg or "MeanBackward0" in svg


@needs_dot
def test_svg_file(cli, tmp_path):
    target = tmp_path / "seed.svg"
    result = cli.ok("graph", *WX, "--backward", "--format", "svg", "-o", str(target))
    assert result.stdout == "" and str(target) in result.stderr
    svg = target.read_text(encoding="utf-8")
    assert "<svg" in svg and "</svg>" in svg
    assert "MulBackward0" in svg and "AddBackward0" in svg


@needs_dot
def test_png_file(cli, tmp_path):
    target = tmp_path / "seed.png"
    result = cli.ok("graph", *LOSS, "--backward", "--format", "png", "-o", str(target))
    assert result.stdout == "" and str(target) in result.stderr
    data = target.read_bytes()
    assert data[:8] == PNG_MAGIC and len(data) > 1000


@needs_dot
@pytest.mark.parametrize("fmt", ["svg", "png"])
def test_default_file_name(cli, fmt, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = cli.ok("graph", *WX, "--format", fmt)
    assert os.path.exists(f"graph.{fmt}")
    assert f"graph.{fmt}" in result.stderr


@pytest.mark.parametrize("fmt", ["svg", "png"])
def test_missing_graphviz_is_a_clear_error(cli, fmt, tmp_path, monkeypatch):
    import autodiff.cli.graph_cmd as graph_cmd
    monkeypatch.setattr(graph_cmd.shutil, "which", lambda name, *a, **k: None)
    target = tmp_path / f"out.{fmt}"
    err = cli.error_text("graph", *WX, "--format", fmt, "-o", str(target))
    assert err.startswith(f"error: --format {fmt} needs Graphviz's `dot` program, which is not installed\n")
    assert "apt-get install graphviz" in err and "brew install graphviz" in err
    assert "--format dot" in err  # and the way around it
    assert not target.exists()


def test_missing_graphviz_from_the_shell(cli, tmp_path):
    empty = tmp_path / "bin"
    empty.mkdir()
    target = tmp_path / "g.png"
    done = cli.console("graph", *WX, "--format", "png", "-o", str(target), env={"PATH": str(empty)})
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("error: --format png needs Graphviz's `dot` program, which is not installed\n")
    assert "hint: install Graphviz" in done.stderr
    assert not target.exists()
    # nothing but svg/png needs Graphviz
    for fmt in ("text", "json", "dot"):
        done = cli.console("graph", *WX, "--format", fmt, env={"PATH": str(empty)})
        assert done.returncode == 0, done.stderr
        assert "MulBackward0" in done.stdout


def test_graph_errors_are_reported_without_traceback(cli):
    assert cli.error_text("graph", "x+", "x=1") == (
        "error: the expression ends with '+'\n"
        "  at line 1, column 2:\n"
        "    x+\n"
        "     ^\n"
        "  hint: something is missing after '+'\n")
    assert cli.error_text("graph", "x*y", "x=1").startswith(
        "error: name 'y' is not defined\n  at line 1, column 3:\n    x*y\n      ^\n")
    assert cli.usage_error("graph", "x", "x") == "Invalid value for NAME=VALUE: expected NAME=VALUE, got 'x'"
    assert cli.usage_error("graph", "x", "x=1", "--format", "gif") == \
        "Invalid value for '--format': 'gif' is not one of 'text', 'json', 'dot', 'svg', 'png'."


def test_graph_help(cli):
    text = cli.ok("graph", "--help").stdout
    for word in ("--format", "--backward", "-o", "svg", "png", "dot"):
        assert word in text


# ------------------------------------------------------------------ eval --graph

def test_eval_graph_json_shares_the_graph_code(cli):
    out = cli.job(*WX, "--graph", "json")
    assert out["grad"] == {"w": 5.0, "x": 2.0}
    g = out["graph"]
    ref = graph_json(cli, *WX)
    assert [(n["name"], n["next"], n["shape"], n.get("expr"), n.get("variable")) for n in g["nodes"]] == \
           [(n["name"], n["next"], n["shape"], n.get("expr"), n.get("variable")) for n in ref["nodes"]]
    assert g["root"] == ref["root"] == 0
    assert g["output"] == ref["output"]
    assert [n["saved"] for n in g["nodes"]] == [n["saved"] for n in ref["nodes"]]


def _without_operands(items):
    return [{k: v for k, v in item.items() if k != "operands"} for item in items]


def test_eval_graph_has_intermediate_values_and_labels(cli):
    g = cli.job(*WX, "--graph", "json")["graph"]
    ref = graph_json(cli, *WX)
    assert _without_operands(g["nodes"]) == _without_operands(ref["nodes"])
    assert g["forward"]["tensors"] == ref["forward"]["tensors"]
    assert _without_operands(g["forward"]["ops"]) == _without_operands(ref["forward"]["ops"])
    # `autodiff graph` keeps every constant (it records under trace_inputs); eval's graph knows a
    # number where the node saved it for backward, and otherwise that there was one
    for mine, full in zip(g["nodes"], ref["nodes"]):
        for a, b in zip(mine.get("operands", []), full.get("operands", [])):
            assert a == b or (a == {"constant": None, "kept": False} and "constant" in b), (a, b)


@pytest.mark.parametrize("fmt", ["text", "dot"])
def test_eval_graph_text_and_dot_in_json(cli, fmt):
    out = cli.job(*WX, "--graph", fmt)
    assert isinstance(out["graph"], str)
    if fmt == "dot":
        assert out["graph"].startswith("digraph")
    else:
        assert "MulBackward0" in out["graph"] and "(shown above)" in out["graph"]


def test_eval_graph_in_text_output(cli):
    text = cli.ok("eval", *WX, "--graph").stdout
    assert "df/dw = 5" in text and "df/dx = 2" in text
    assert "#0 MulBackward0" in text and "AccumulateGrad w (shown above)" in text
    dot = cli.ok("eval", *WX, "--graph", "dot").stdout
    assert "digraph autodiff {" in dot and "n0 -> output;" in dot


@needs_dot
def test_eval_graph_dot_parses_with_graphviz(cli):
    out = cli.job(*LOSS, "--graph", "dot")
    done = subprocess.run(["dot", "-Tsvg"], input=out["graph"].encode(), capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    assert "<svg" in done.stdout.decode()


# ------------------------------------------------------------------ every operand, constants too (issue 10)

def test_text_lists_constants_among_the_operands_in_program_order(cli):
    text = cli.ok("graph", "x*2+1", "x=3").stdout
    lines = text.splitlines()
    forward = text.split("forward (inputs first):")[1].split("backward")[0]
    assert "<- mul(x, 2)" in forward and "<- add(x*2, 1)" in forward
    tree = lines[lines.index("backward (from the output, in next_functions order):") + 1:]
    assert tree == [
        "#0 AddBackward0  `x*2+1`  shape []  value 7  requires_grad",
        "├─ #1 MulBackward0  `x*2`  shape []  value 6  requires_grad  saved: input 1 = 2",
        "│  ├─ #2 AccumulateGrad x  shape []  value 3  is_leaf requires_grad",
        "│  └─ constant 2",
        "└─ constant 1",
    ]


def test_a_number_on_the_left_comes_first(cli):
    text = cli.ok("graph", "2*x - 1", "x=3").stdout
    assert "<- mul(2, x)" in text and "<- sub(2*x, 1)" in text
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if "MulBackward0" in line)
    assert lines[at + 1].endswith("├─ constant 2")
    assert "AccumulateGrad x" in lines[at + 2]


def test_operands_in_json(cli):
    g = graph_json(cli, "x*2+1", "x=3")
    add, mul = g["nodes"][0], g["nodes"][1]
    assert add["operands"] == [{"node": 1}, {"constant": 1}]
    assert mul["operands"] == [{"node": 2}, {"constant": 2}]
    ops = {op["node"]: op for op in g["forward"]["ops"]}
    assert ops["MulBackward0"]["operands"] == [{"tensor": 0}, {"constant": 2}]


def test_tensors_without_grad_and_parameters_are_operands(cli):
    g = graph_json(cli, "c = tensor([1., 2.]); y = x**2; (c * y).sum(0)", "x=[3, 4]")
    mul = labelled_expr(g, "c * y")
    assert mul["operands"][0] == {"constant": [1.0, 2.0], "shape": [2], "label": "c"}
    assert mul["operands"][1] == {"node": labelled(g, "y")["id"]}
    assert labelled(g, "y")["operands"][1] == {"param": "exponent", "constant": 2}
    assert g["nodes"][0]["operands"][1] == {"param": "dim", "constant": 0}
    text = cli.ok("graph", "c = tensor([1., 2.]); y = x**2; (c * y).sum(0)", "x=[3, 4]").stdout
    assert "<- mul(c, y)" in text and "<- pow_scalar(x, exponent=2)" in text and "dim=0 (parameter)" in text
    assert "constant c  shape [2]" in text
    text = cli.ok("graph", "x[0, 1:].sum()", "x=[[1, 2, 3], [4, 5, 6]]").stdout
    assert "key=[0, 1:] (parameter)" in text


def labelled_expr(graph, expr):
    found = [n for n in graph["nodes"] if n.get("expr") == expr]
    assert len(found) == 1
    return found[0]


def test_eval_graph_text_shows_the_constants_the_graph_keeps(cli):
    text = cli.ok("eval", "x*2+1", "x=3", "--graph").stdout
    assert "<- mul(x, 2)" in text and "│  └─ constant 2" in text
    assert "<- add(x*2, 1)" in text or "<- add(x*2, a number)" in text


def test_a_long_chain_renders_without_recursion(cli):
    program = "y = x\nfor i in range(30000):\n    y = y + 1\ny"
    done = cli.console("graph", program, "x=1", timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert sum(1 for line in lines if "AddBackward0" in line) == 30000
    assert sum(1 for line in lines if line.endswith("constant 1")) == 30000
    assert "[depth 30000] #30000 AccumulateGrad x" in done.stdout


# ------------------------------------------------------------------ -o - is stdout

@pytest.mark.parametrize("fmt", ["text", "json", "dot"])
def test_dash_output_is_stdout_for_text_formats(cli, fmt, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = cli.ok("graph", *WX, "--format", fmt, "-o", "-")
    assert result.stdout == cli.ok("graph", *WX, "--format", fmt).stdout
    assert result.stderr == ""
    assert not (tmp_path / "-").exists() and os.listdir(tmp_path) == []


@needs_dot
def test_dash_output_svg_and_png_go_to_stdout(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    svg = cli.ok("graph", *WX, "--format", "svg", "-o", "-")
    assert svg.stdout.lstrip().startswith(("<?xml", "<svg")) and "</svg>" in svg.stdout
    assert "MulBackward0" in svg.stdout and svg.stderr == ""
    png = cli.ok("graph", *WX, "--format", "png", "-o", "-")
    assert png.stdout_bytes[:8] == PNG_MAGIC and png.stderr == ""
    assert os.listdir(tmp_path) == []


@needs_dot
def test_dash_output_png_from_the_shell(tmp_path):
    script = os.path.join(os.path.dirname(sys.executable), "autodiff")
    cmd = [script] if os.path.exists(script) else [sys.executable, "-m", "autodiff.cli.main"]
    done = subprocess.run(cmd + ["graph", *LOSS, "--backward", "--format", "png", "-o", "-"], capture_output=True,
                          timeout=120, cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == b""
    assert done.stdout[:8] == PNG_MAGIC and len(done.stdout) > 1000
    assert os.listdir(tmp_path) == []


def test_dash_output_without_graphviz_is_a_clear_error(cli, monkeypatch):
    import autodiff.cli.graph_cmd as graph_cmd
    monkeypatch.setattr(graph_cmd.shutil, "which", lambda name, *a, **k: None)
    err = cli.error_text("graph", *WX, "--format", "png", "-o", "-")
    assert err.startswith("error: --format png needs Graphviz's `dot` program, which is not installed\n")


def test_a_constant_shows_all_its_digits(cli):
    out = cli.ok("graph", "x*1.0001 + 2.5e-7 + x/3", "x=1").stdout
    assert "<- mul(x, 1.0001)" in out and "add(x*1.0001, 2.5e-07)" in out and "<- div(x, 3)" in out


@pytest.mark.skipif(shutil.which("dot") is None, reason="needs Graphviz's dot")
def test_a_png_too_large_to_read_is_refused_with_a_hint(cli, tmp_path):
    program = "y = x\nfor i in range(2000):\n    y = y * 1.0001\ny"
    result = cli.invoke("graph", program, "x=1", "--format", "png", "-o", str(tmp_path / "g.png"))
    assert result.exit_code == 1 and not (tmp_path / "g.png").exists()
    assert result.stderr.startswith("error: the graph has 2,001 nodes: as a PNG, Graphviz would shrink it to ")
    assert "hint: use --format svg" in result.stderr
    cli.ok("graph", program, "x=1", "--format", "svg", "-o", str(tmp_path / "g.svg"))  # svg has no such limit
