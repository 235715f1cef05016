"""Regenerate tests/golden/optim.json from PyTorch itself: torch.optim's optimisers (SGD, Adam,
AdamW, RMSprop, Adagrad, Adamax, NAdam, RAdam, Adadelta) run for several steps on fixed parameters
and gradients in float64 and float32 -- the parameters after each step, the state_dict, the
versions, the repr -- param_groups and their edits, load_state_dict, torch.optim.lr_scheduler's
schedules with their warnings and state_dicts, the messages of bad calls, and what whole
programs print (tests/golden/optim_cases.py holds them all; see its docstring).

Run with a Python that has PyTorch 2.13 (`pip install torch==2.13.0`; not a dependency of the
test suite):

    python tests/golden/gen_optim.py
"""
import contextlib
import io
import json
import os
import sys
import warnings

import torch
import torch.optim
import torch.optim.lr_scheduler

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "optim.json")
sys.path.insert(0, HERE)
from optim_cases import CASES, ERRORS, PROGRAMS, helpers, record, run_error  # noqa: E402


def namespace():
    torch.set_default_dtype(torch.float64)
    return dict(helpers(), T=torch, optim=torch.optim, sched=torch.optim.lr_scheduler)


def run_program(source):
    """What Python + PyTorch print for a program (default dtype float32, as `autodiff run` has it),
    and the messages of the warnings it gives."""
    torch.set_default_dtype(torch.float32)
    out = io.StringIO()
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out):
        warnings.simplefilter("always")
        exec(compile(source, "<program>", "exec"), {"__name__": "__main__"})
    return {"stdout": out.getvalue(), "warnings": [str(w.message) for w in caught]}


def dumps(golden):
    """JSON with one case a line (a diff shows which cases changed)."""
    parts = []
    for key, value in golden.items():
        if isinstance(value, dict):
            body = ",\n".join(f"{json.dumps(k)}: {json.dumps(v, sort_keys=True)}" for k, v in sorted(value.items()))
            parts.append(f"{json.dumps(key)}: {{\n{body}\n}}")
        else:
            parts.append(f"{json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main():
    cases = {name: record(program, namespace()) for name, program in CASES}
    errors = {name: run_error(program, namespace()) for name, program in ERRORS}
    for name, got in errors.items():
        assert got is not None, f"{name}: PyTorch raised nothing"
    programs = {name: run_program(source) for name, source in PROGRAMS.items()}
    with open(OUT, "w") as f:
        f.write(dumps({"cases": cases, "errors": errors, "programs": programs, "torch": torch.__version__}))
    print(f"wrote {len(cases)} cases, {len(errors)} errors and {len(programs)} programs to {OUT}")


if __name__ == "__main__":
    main()
