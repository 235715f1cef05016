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
    names = {k: v for k, v in vars(public).items() if not k.startswith("_") or k in public.__all__}  # (_native_...)
    names["__all__"] = public.__all__
    globals().update(names)
    global _public_loaded
    _public_loaded = True


_public_loaded = False


def _submodule(name):
    """The submodule `name`, imported, where there is one, else None (`from autodiff.engine import
    backend` asks __getattr__ before importing it). engine/ops/__init__.py does the same."""
    import importlib
    import importlib.util
    full = f"{__name__}.{name}"
    return importlib.import_module(full) if importlib.util.find_spec(full) is not None else None


def nn_if_loaded():
    """torch.nn if something has imported it yet, else None (no value can be one of its layers before):
    for code that asks about layers without loading nn to ask."""
    return globals().get("nn")


def __getattr__(name):
    """A submodule (torch.nn, torch.linalg, ...), imported on first use; else a public name, loading
    the public surface on first use."""
    if name.startswith("__") and name != "__all__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = _submodule(name)
    if module is not None:
        return module
    if not _public_loaded:
        _load_public()
        if name in globals():
            return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    if not _public_loaded:
        _load_public()
    return sorted(globals())
