"""The package's modules import one another without a cycle, and in layers (read from the source
with ast, every import counted -- top level and inside functions alike, so no import made late can
hide a cycle):

- cli/ may import grammar/ and engine/; grammar/ only engine/; engine/ neither;
- in engine/: the base (dtypes, backend, kernels, special_kernels, ranges, generator, host_data) imports nothing of
  the engine's but the base; the core (engine/core) nothing but the base; the op table's rows
  (engine/ops) only the core and the base; the public functions (engine/functions) nothing above
  them -- not the public Tensor class, not nn or optim.
"""
import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = {"engine": "engine", "grammar": "grammar", "cli": "cli"}  # import name -> folder
BASE = {"engine.dtypes", "engine.backend", "engine.kernels", "engine.ranges", "engine.generator", "engine.host_data",
        "engine.allocation", "engine.signature"}
BASE |= {"engine.special_kernels"}  # torch.special's kernels, beside engine.kernels
BASE |= {"engine.code_cache"}  # the generated functions' code between runs (signature.py's)


def _modules():
    """{dotted name (engine.core.tensor): path} for every module of the three packages."""
    out = {}
    for package, folder in PACKAGES.items():
        for path in (ROOT / folder).rglob("*.py"):
            parts = (package,) + path.relative_to(ROOT / folder).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            out[name] = path
    return out


MODULES = _modules()


def _imports(name, path):
    """The package's modules `name` imports, anywhere in its source: a `from pkg import submodule`
    counts as an import of the submodule (not of the package's __init__, unless a name of its own is
    imported from it)."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = (node.module or "").removeprefix("autodiff.")
            subs = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in MODULES]
            found.update(subs)
            if len(subs) < len(node.names) and target in MODULES:
                found.add(target)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                target = alias.name.removeprefix("autodiff.")
                if target in MODULES:
                    found.add(target)
    found.discard(name)
    return found


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _cycles(graph):
    """The strongly connected components of more than one module (Tarjan's, with an explicit stack)."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.append(top)
                        if top == node:
                            break
                    if len(component) > 1:
                        out.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = counter[0]
                counter[0] += 1
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return out


def test_no_import_cycle():
    assert _cycles(GRAPH) == []


def test_the_check_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def _layer_violations(allowed):
    """Imports from modules matching a prefix to modules outside what that prefix may import."""
    bad = []
    for name, targets in GRAPH.items():
        for prefix, may in allowed.items():
            if name == prefix or name.startswith(prefix + "."):
                bad += [f"{name} -> {t}" for t in targets if not any(t == m or t.startswith(m + ".") for m in may)]
                break
    return bad


def test_the_packages_import_downwards():
    assert _layer_violations({"engine": ["engine"], "grammar": ["grammar", "engine"]}) == []


def test_the_engine_is_layered():
    allowed = {name: sorted(BASE) for name in BASE}
    allowed.update({"engine.core": sorted(BASE) + ["engine.core"],
                    "engine.ops": sorted(BASE) + ["engine.core", "engine.ops"],
                    "engine.functions": sorted(BASE) + ["engine.core", "engine.ops", "engine.functions"]})
    assert _layer_violations(allowed) == []
