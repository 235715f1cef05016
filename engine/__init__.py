"""autodiff.engine: tensors with PyTorch's autograd semantics, over numpy (CPU) or cupy (GPU).

    from autodiff.engine import tensor, grad
    x = tensor(3., requires_grad=True)
    (g,) = grad(x ** 2, x, create_graph=True)   # tensor(6., grad_fn=<MulBackward0>)

The package's public names (engine/public.py: ~100 modules of functions, the Tensor class, autograd,
linalg, optim, ...) are imported the first time one of them is read, not by `import autodiff.engine`:
`autodiff eval` needs only the op table and the core's array math (the compiled lane), and starts
without them. Submodules import as ever; torch.nn (a fifth of the surface again) loads on its own.
"""
import warnings as _warnings

# numpy's floating-point warnings (0/0, log(0), an overflowing exp) raised inside the engine: PyTorch
# gives inf and nan silently. Only warnings from the engine's own modules; a program's numpy keeps its own.
_warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"autodiff\.engine(\.|$)")


def _load_public():
    """Copy engine/public.py's names into the package (once; later reads find them as globals)."""
    import importlib
    public = importlib.import_module(".public", __name__)  # (`from . import` would ask __getattr__ first)
    names = {k: v for k, v in vars(public).items() if not k.startswith("_")}
    names["__all__"] = public.__all__
    globals().update(names)
    global _public_loaded
    _public_loaded = True


_public_loaded = False
_submodule_names = None


def _submodules():
    """The names of the package's submodules and subpackages (read from its folder once)."""
    global _submodule_names
    if _submodule_names is None:
        import os
        folder = __path__[0]
        _submodule_names = {f[:-3] for f in os.listdir(folder) if f.endswith(".py")} | {
            f for f in os.listdir(folder) if os.path.exists(os.path.join(folder, f, "__init__.py"))}
    return _submodule_names


def nn_if_loaded():
    """torch.nn if something has imported it yet, else None (no value can be one of its layers before):
    for code that asks about layers without loading nn to ask."""
    return globals().get("nn")


def __getattr__(name):
    """A submodule (torch.nn, torch.linalg, ...), imported on first use; else a public name, loading
    the public surface on first use."""
    if name.startswith("__") and name != "__all__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if name in _submodules():
        import importlib
        return importlib.import_module("." + name, __name__)
    if not _public_loaded:
        _load_public()
        if name in globals():
            return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    if not _public_loaded:
        _load_public()
    return sorted(globals())
