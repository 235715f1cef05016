"""What an `eval` job is asked (JobOptions) and what it gives back (JobResult): plain data, read by
the pipeline that runs a job (job.py, and its compiled form for one-line jobs, compiled.py) and
by the command line that prints it."""
from dataclasses import dataclass, field

import numpy

from .budget import defaults

__all__ = ["JobOptions", "JobResult", "host_value"]


@dataclass
class JobOptions:
    wrt: tuple = ()               # names; empty: every bound float variable f depends on
    order: int = 1
    weights: str = None           # an expression
    tangent: tuple = ()           # (name, value text) pairs: f's directional derivative, in forward mode
    jacobian: bool = False
    hessian: bool = False
    jacobian_mode: str = "auto"   # how --jacobian is computed: auto (by shapes), forward or reverse
    check: bool = False
    formula: bool = False
    graph: bool = False
    device: str = None
    dtype: str = None
    seed: int = None
    # the budgets (grammar/budget.py's table, eval's defaults)
    max_steps: int = defaults("eval")["max_steps"]
    max_memory: int = defaults("eval")["max_memory"]  # bytes the job may grow the process by
    max_depth: int = defaults("eval")["max_depth"]
    max_items: int = defaults("eval")["max_items"]
    max_digits: int = defaults("eval")["max_digits"]
    max_line_length: int = defaults("eval")["max_line_length"]
    max_program_length: int = defaults("eval")["max_program_length"]
    out: object = None            # where the program's print() writes (None: nowhere)

    # Whether these options let a job run as its compiled form: asked once per options object (a batch
    # shares one), forgotten whenever an option changes.
    compiled_fit = None

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        if name != "compiled_fit":
            object.__setattr__(self, "compiled_fit", None)


_new = object.__new__


@dataclass
class JobResult:
    value: object = None          # numpy array (or Python number)
    shape: tuple = ()
    dtype: str = "float64"
    device: str = "cpu"
    order: int = 1
    grad: dict = field(default_factory=dict)       # name -> array (the order-th derivative)
    jacobian: dict = None
    hessian: dict = None
    check: dict = None             # name -> largest |derivative - finite difference|
    check_ok: dict = None          # name -> whether that is within the tolerance
    check_notes: dict = None       # name -> why a mismatch may be expected (f not differentiable there)
    formula: dict = None
    jvp: object = None             # f's directional derivative along the tangents (array), with --tangent
    graph: object = None           # the engine output tensor, for the graph renderers
    variables: dict = None         # name -> tensor
    names: dict = None             # id(tensor) -> the name it is bound to
    produced: dict = None          # node -> the tensor it made (with --graph / --formula)
    source: str = ""
    warnings: list = field(default_factory=list)

    @classmethod
    def scalar(cls, source, value, grad):
        """The lean lane's result, made without the dataclass's eighteen-argument __init__ (the
        other fields keep their class defaults), which cost 2% of a batch job."""
        r = _new(cls)
        r.source, r.value, r.grad, r.warnings = source, value, grad, []
        return r

    def set_output(self, f):
        """Record the value of f (on the host) and what it is."""
        self.value = host_value(f)
        self.shape = tuple(f.shape)
        self.dtype = f.dtype.name
        self.device = str(f.device)


def host_value(t):
    """A tensor's value on the host: a CPU scalar as it is (printed and serialised so), else a numpy array."""
    a = t.array
    if a.ndim == 0 and t.device.type == "cpu":
        return a  # a numpy scalar or 0-d array: printed and serialised as it is
    return numpy.asarray(t.detach())
