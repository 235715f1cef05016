"""A row's signature, as PyTorch's native_functions.yaml writes one, and the public function made
from it.

    sum(Tensor input, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
    sort(Tensor input, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)

Types: Tensor, Tensor? (may be None), Tensor[] (a list of them), Scalar (a number), int, int[]
(int[N]: a bare int is taken too), float, bool, str, ScalarType (a dtype), Device, Any; a `?`
after a type lets it be None. Parameters after `*` are keyword-only. A default is a Python
literal. What follows `->` is the result: one type, or a parenthesised list of named results,
which makes the result a named tuple (torch.return_types.<name>).

`make_function` writes the function as Python source from the signature and compiles it once
(code_cache.py keeps the compiled code between runs):
Python itself then binds the arguments, with its own messages for a missing, an unexpected or a
doubled one (PyTorch's words for those are the same), at the cost of an ordinary call. In front of
the row it takes numbers and lists where tensors go (the first tensor from them, as torch.tensor
makes one; with two tensor operands, a number stays a number: PyTorch's wrapped scalars),
checks and wraps `dim` against the first tensor's dims with PyTorch's message, takes numpy's
`axis` and `keepdims` for `dim` and `keepdim`, and turns a dtype into the array module's.
"""
import ast
import builtins
import inspect
import re
from collections import namedtuple

from . import code_cache

__all__ = ["Signature", "Param", "make_function", "call_signature", "result_type", "result_types"]

_TYPES = {"Tensor", "Tensor[]", "Scalar", "int", "int[]", "float", "float[]", "bool", "str", "ScalarType", "Device",
          "Any"}
_HEAD = re.compile(r"^\s*(\w+)\((.*)\)\s*->\s*(.+?)\s*$", re.S)
_PARAM = re.compile(r"^(\w+)(\[(\d*)\])?(\?)?\s+(\w+)(?:\s*=\s*(.+))?$", re.S)
_REQUIRED = object()


class Param:
    """One parameter: its name, its type (with [] for lists), whether None is allowed, its default
    (_REQUIRED when it has none), whether it is keyword-only, and for int[N] the N."""

    __slots__ = ("name", "type", "optional", "default", "keyword_only", "size")

    def __init__(self, name, type_, optional, default, keyword_only, size=None):
        self.name, self.type, self.optional = name, type_, optional
        self.default, self.keyword_only, self.size = default, keyword_only, size

    @property
    def required(self):
        return self.default is _REQUIRED

    @property
    def is_tensor(self):
        return self.type == "Tensor"

    def __repr__(self):
        text = f"{self.type}{'?' if self.optional else ''} {self.name}"
        return text if self.required else f"{text}={self.default!r}"


class Signature:
    """A parsed signature: name, params (in order), returns ((type, name) pairs; name None for one
    unnamed result)."""

    __slots__ = ("name", "params", "returns", "text")

    def __init__(self, name, params, returns, text):
        self.name, self.params, self.returns, self.text = name, params, returns, text

    @classmethod
    def parse(cls, text):
        head = _HEAD.match(text)
        if head is None:
            raise ValueError(f"not a signature: {text!r}")
        name, params_text, returns_text = head.groups()
        params = []
        keyword_only = False
        for part in _split(params_text):
            if part == "*":
                keyword_only = True
                continue
            m = _PARAM.match(part)
            if m is None:
                raise ValueError(f"{name}: not a parameter: {part!r}")
            base, brackets, size, optional, pname, default = m.groups()
            type_ = base + ("[]" if brackets else "")
            if type_ not in _TYPES:
                raise ValueError(f"{name}: unknown type {type_!r}")
            value = _REQUIRED if default is None else ast.literal_eval(default.strip())
            params.append(Param(pname, type_, bool(optional), value, keyword_only, int(size) if size else None))
        return cls(name, tuple(params), _returns(name, returns_text), text.strip())

    @property
    def tensors(self):
        return [p for p in self.params if p.is_tensor]

    def __repr__(self):
        return f"Signature({self.text!r})"


def _split(text):
    """The comma-separated parts of a parameter list, commas inside brackets left alone."""
    parts, depth, current = [], 0, []
    for ch in text:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    last = "".join(current).strip()
    return parts + [last] if last else parts


def _returns(name, text):
    if text.startswith("("):
        out = []
        for part in _split(text[1:-1]):
            type_, _, rname = part.partition(" ")
            if not rname:
                raise ValueError(f"{name}: a result in a list needs a name: {part!r}")
            out.append((type_, rname.strip()))
        return tuple(out)
    return ((text, None),)


_result_types = {}


def result_type(name, fields):
    """The named tuple a function of several named results returns: torch.return_types.<name>,
    printed as PyTorch prints one; one class per function name."""
    key = (name, tuple(fields))
    cls = _result_types.get(key)
    if cls is None:
        base = namedtuple(name, fields)

        def __repr__(self):
            items = ",\n".join(f"{field}={value!r}" for field, value in zip(self._fields, self))
            return f"torch.return_types.{name}(\n{items})"

        cls = _result_types[key] = type(name, (base,), {"__slots__": (), "__repr__": __repr__,
                                                        "__module__": "torch.return_types"})
    return cls


def result_types():
    """Every named-result class made so far (all the rows' once the public functions are made)."""
    return tuple(_result_types.values())


# ----------------------------------------------------------------------------- making the function

_UNSET = object()  # what the numpy aliases default to


def make_function(row, name, signature, helpers):
    """The public function `name` of op-table row `row` from its `signature` (a Signature).
    `helpers` are the names the generated source uses: Tensor (the class to test for),
    tensor_in, operands, as_tensor_like, tensor_list, wrap_dim, reduction_dims, as_np_dtype,
    run_op, NO_PARAMS, default_dtype, float64, checked."""
    layout = _Layout(signature.params)
    lines = [f"def {name}({', '.join(layout.parts())}):", f"    {_docstring(row, signature)!r}"]
    lines += _alias_lines(layout, name)
    lines += _tensor_lines(row, layout, name)
    lines += _check_lines(row, layout, name)
    lines.append(_call_line(row, signature))
    source = "\n".join(lines) + "\n"
    # _all: the builtin, which a function named `all` (torch.all) would otherwise shadow in its own checks
    namespace = dict(helpers, _row=row, _UNSET=_UNSET, _all=builtins.all, __name__=helpers.get("__name__", "signature"))
    if len(signature.returns) > 1:
        namespace["_result"] = result_type(signature.name, [n for _, n in signature.returns])
    exec(code_cache.compiled(source, f"<signature of {row.__name__}: {name}>"), namespace)
    function = namespace[name]
    if layout.aliases:  # what inspect shows (the catalog, help()): PyTorch's parameters, not numpy's aliases
        function.__call_signature__ = called = inspect.signature(function)  # (what binds: see call_signature)
        function.__signature__ = called.replace(parameters=[
            p.replace(default=inspect.Parameter.empty) if p.default is _UNSET else p
            for p in called.parameters.values() if p.name not in dict(layout.aliases)])
    function.__source__ = source      # what make_function wrote (for reading and debugging)
    function.__signature_text__ = signature.text
    return function


def call_signature(function):
    """The inspect.Signature that a made function's arguments bind to (overloads are picked by it):
    its own, numpy's aliases (axis=, keepdims=) included. Worked out where asked, not for each of
    ~190 functions at every start-up (where inspect shows another, make_function keeps this one)."""
    return getattr(function, "__call_signature__", None) or inspect.signature(function)


class _Layout:
    """How a signature's parameters become Python's: positional and keyword-only ones, numpy's
    aliases (axis, keepdims), and PyTorch's int[] varargs."""

    def __init__(self, params):
        self.params = params
        self.tensors = [p for p in params if p.is_tensor and not p.optional]
        self.first = self.tensors[0].name if self.tensors else None
        self.positional = positional = [p for p in params if not p.keyword_only]
        self.keyword = [p for p in params if p.keyword_only]
        # a required dim may be given as axis too where nothing required follows it (max(x, axis=1))
        self.aliased_dim = next((p for k, p in enumerate(positional) if p.name == "dim" and p.required
                                 and all(not q.required for q in positional[k + 1:])), None)
        optional = {p.name for p in params if not p.required} | ({"dim"} if self.aliased_dim else set())
        self.aliases = [(alias, own) for own, alias in (("dim", "axis"), ("keepdim", "keepdims")) if own in optional]
        # PyTorch's int[] varargs: a required int[] that is the last positional parameter may be given as
        # several ints (x.view(2, 3)), as one sequence (x.view((2, 3))) or by its name (x.view(size=(2, 3)))
        self.varargs = positional[-1] if positional and positional[-1].type == "int[]" and positional[-1].required \
            and len(positional) > 1 else None

    def parts(self):
        """The parameter list, item by item."""
        parts = [(f"{p.name}=_UNSET" if p is self.aliased_dim else _param_source(p))
                 for p in self.positional if p is not self.varargs]
        if self.varargs:
            parts += [f"*_{self.varargs.name}", f"{self.varargs.name}=_UNSET"]  # (what follows *args is keyword-only)
        elif self.keyword or self.aliases:
            parts.append("*")
        parts += [_param_source(p) for p in self.keyword]
        parts += [f"{alias}=_UNSET" for alias, _ in self.aliases]
        return parts


def _alias_lines(layout, name):
    """numpy's aliases taken (refused where PyTorch's own name is given too); int[] varargs gathered."""
    lines = []
    emit = lines.append
    for alias, own in layout.aliases:
        if layout.aliased_dim is not None and own == "dim":
            emit(f"    if {own} is _UNSET:")
            emit(f"        if {alias} is _UNSET:")
            emit(f"            raise TypeError('{name}() missing 1 required positional arguments: \"dim\"')")
            emit(f"        {own} = {alias}")
            emit(f"    elif {alias} is not _UNSET:")
            emit(f"        raise TypeError(\"{name}() got an unexpected keyword argument '{alias}'\")")
            continue
        default = next(p.default for p in layout.params if p.name == own)
        emit(f"    if {alias} is not _UNSET:")
        given = f"{own} is not None" if default is None else f"{own} != {default!r}"
        emit(f"        if {given}:")
        emit(f"            raise TypeError(\"{name}() got an unexpected keyword argument '{alias}'\")")
        emit(f"        {own} = {alias}")
    if layout.varargs:
        v = layout.varargs.name
        emit(f"    if {v} is _UNSET:")
        emit(f"        {v} = _{v}[0] if len(_{v}) == 1 and _{v}[0].__class__ is not int else _{v}")
        emit(f"    elif _{v}:")
        emit(f"        raise TypeError(\"{name}() got multiple values for argument '{v}'\")")
    return lines


def _tensor_lines(row, layout, name):
    """Numbers and lists made tensors where PyTorch takes them; with several tensor operands a number
    stays a number (PyTorch's wrapped scalar), as long as one of them is a tensor."""
    lines = []
    emit = lines.append
    tensors, first = layout.tensors, layout.first
    position = {p.name: k + 1 for k, p in enumerate(layout.params)}  # (PyTorch's, counted from 1)
    if len(tensors) >= 2:
        names_ = ", ".join(p.name for p in tensors)
        named = (name, tuple((p.name, position[p.name]) for p in tensors))
        emit(f"    if not ({' and '.join(f'isinstance({p.name}, Tensor)' for p in tensors)}):")  # (tensors stay)
        emit(f"        {names_}, = operands({names_}, named={named!r})")
    elif tensors:
        emit(f"    if not isinstance({first}, Tensor):")
        emit(f"        {first} = tensor_in({first}, {first!r}, {name!r}, {position[first]})")
    if row.to_float and len(tensors) == 1:  # an integral input: the default dtype (a float64 scalar needs no look)
        emit(f"    _x = {first}.array")
        emit("    if _x.__class__ is not float64 and _x.dtype.kind in 'biu':")
        emit(f"        {first} = {first}.to(dtype=default_dtype())")
    for p in layout.params:
        if p.is_tensor and p.optional:
            emit(f"    if {p.name} is not None and not isinstance({p.name}, Tensor):")
            emit(f"        {p.name} = as_tensor_like({p.name}, {first})")
        elif p.type == "Tensor[]":
            emit(f"    {p.name} = tensor_list({p.name}, {name!r}, {p.name!r}, {layout.params.index(p) + 1})")
    return lines


def _check_lines(row, layout, name):
    """The types PyTorch's argument parser checks, with its message; dims wrapped against the first
    tensor; dtypes as the array module's."""
    lines = []
    emit = lines.append
    for k, p in enumerate(layout.params):
        check = _CHECKS.get(p.type)
        if check is not None and not (p.type == "Scalar" and row.call is not None):  # (a call takes its own)
            test, what = check
            guard = f"{p.name} is not None and " if p.optional else ""
            # PyTorch names the position of an argument given by position: a required one is, as a rule
            position = f", {k + 1}" if p.required and not p.keyword_only else ""
            emit(f"    if {guard}{test.format(p.name)}:")
            emit(f"        {p.name} = checked({p.name}, {what!r}, {name!r}, {p.name!r}{position})")
    for p in layout.params:
        if p.name == "dim" and layout.first is not None and p.type in ("int", "int[]") and row.wrap_dims:
            wrap = "reduction_dims" if p.type == "int[]" else "wrap_dim"
            call = f"{wrap}({p.name}, {layout.first}.array.ndim)"
            emit(f"    if {p.name} is not None:\n        {p.name} = {call}" if p.optional else f"    {p.name} = {call}")
        elif p.type == "ScalarType":
            emit(f"    if {p.name} is not None:\n        {p.name} = as_np_dtype({p.name})")
        elif p.type == "bool" and not p.optional:
            emit(f"    {p.name} = {p.name} is True or bool({p.name})")
    return lines


def _call_line(row, signature):
    """The row's own `call`, or the row applied to the tensors with the rest as parameters; several
    results as the signature's named tuple."""
    params = signature.params
    inputs = [p.name for p in params if p.is_tensor]
    settings = [p.name for p in params if not p.is_tensor and p.type != "Tensor[]"]
    if row.call is not None:
        result = f"_row.call({', '.join(p.name for p in params)})"
    else:
        mapping = "{" + ", ".join(f"{s!r}: {s}" for s in settings) + "}" if settings else "NO_PARAMS"
        result = f"run_op(_row, ({', '.join(inputs)}{',' if len(inputs) == 1 else ''}), {mapping})"
    return f"    return _result(*{result})" if len(signature.returns) > 1 else f"    return {result}"


# type -> (a test that is true where the value needs a look, how PyTorch names the type): the cheap
# test lets the common case through at once; `checked` (a helper) converts or refuses the rest
_CHECKS = {"int": ("{0}.__class__ is not int", "int"),
           "int[]": ("{0}.__class__ is not int and ({0}.__class__ is not tuple or not _all(v.__class__ is int for v in {0}))",
                     "tuple of ints"),
           "float": ("{0}.__class__ is not float", "float"),
           "str": ("{0}.__class__ is not str", "str"),
           # (a tensor is left to the row; a row with a `call` of its own takes its Scalars itself: clamp's
           # tensor bounds, hardshrink's message)
           "Scalar": ("{0}.__class__ is not int and {0}.__class__ is not float and not isinstance({0}, Tensor)",
                      "Number")}


def _param_source(p):
    return p.name if p.required else f"{p.name}={p.default!r}"


def _docstring(row, signature):
    """The function's docstring: its signature, then the row's summary (its docstring's first line)."""
    summary = " ".join((row.__doc__ or "").strip().split("\n\n")[0].split())  # (its lines joined, unindented)
    return f"{signature.text}\n\n{summary}" if summary else signature.text
