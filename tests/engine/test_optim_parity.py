"""torch.optim and torch.optim.lr_scheduler against PyTorch 2.13's own runs: tests/golden/optim.json,
recorded by tests/golden/gen_optim.py from the programs of tests/golden/optim_cases.py.

Each optimiser (SGD, Adam, AdamW, RMSprop, Adagrad, Adamax, NAdam, RAdam, Adadelta, with their
options) is run on fixed parameters and gradients in float64 and float32: the parameters after the
steps, the state_dict (every state tensor, every option, in PyTorch's order), the version counts
and the repr must be PyTorch's, bit for bit. So must param_groups and their edits, load_state_dict,
closures, the schedules' rates, warnings and state_dicts, and each bad call's exception type and
message. Whole programs run by `autodiff run` print what Python + PyTorch print for them.
"""
import json

import numpy
import pytest

import autodiff.engine as ad
from tolerance import DEFAULT, assert_close, assert_output_close

from optim_cases import CASES, ERRORS, PROGRAMS, helpers, record, run_error
import locations

GOLDEN = json.loads((locations.GOLDEN / "optim.json").read_text())


def namespace():
    return dict(helpers(), T=ad, optim=ad.optim, sched=ad.optim.lr_scheduler)


# Where a run's values may be further from PyTorch's than the dtype's tolerance, and why: (rtol,
# atol) for the case's float32 and float64 tensors.
TOLERANCE = {}


def first_difference(got, want, tolerance=None, path="result"):
    """Where two recordings first differ (None if they agree): tensors' values within the
    tolerance of their dtype (or the case's), everything else exactly."""
    if type(got) is not type(want):
        return f"{path}: {got!r} where PyTorch has {want!r}"
    if isinstance(want, dict) and set(want) == {"float"}:  # a number a tensor gave (.item())
        try:
            assert_close(_floats(got["float"]), _floats(want["float"]), "float64", what=path)
        except AssertionError as e:
            return str(e)
        return None
    if isinstance(want, dict) and "tensor" in want:
        (dtype, shape, rg, values), mine = want["tensor"], got["tensor"]
        if mine[:3] != [dtype, shape, rg]:
            return f"{path}: {mine[:3]} where PyTorch has {[dtype, shape, rg]}"
        name = dtype.split(".")[-1]
        if not name.startswith("float"):
            return None if mine[3] == values else f"{path}: {mine[3]} where PyTorch has {values}"
        rtol, atol = (tolerance or {}).get(name, (None, None))
        try:
            assert_close(_floats(mine[3]), _floats(values), name, rtol, atol, path)
        except AssertionError as e:
            return str(e)
        return None
    if isinstance(want, dict):
        if set(got) != set(want):
            return f"{path}: keys {sorted(got)} where PyTorch has {sorted(want)}"
        for key in want:
            found = first_difference(got[key], want[key], tolerance, f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(want, list):
        if len(got) != len(want):
            return f"{path}: {len(got)} items where PyTorch has {len(want)}"
        for i, (g, w) in enumerate(zip(got, want)):
            found = first_difference(g, w, tolerance, f"{path}[{i}]")
            if found:
                return found
        return None
    if got != want:
        if isinstance(want, str) and want.startswith(("0x", "-0x")) and got.startswith(("0x", "-0x")):
            return f"{path}: {float.fromhex(got)!r} where PyTorch has {float.fromhex(want)!r}"
        return f"{path}: {got!r} where PyTorch has {want!r}"
    return None


def program_tolerance(program):
    """The (rtol, atol) a program's printed numbers are compared with: its default dtype's."""
    return DEFAULT["float64" if "set_default_dtype(torch.float64)" in program else "float32"]


def _floats(values):
    """A recorded tensor's values (hex strings, nested lists) as a numpy array."""
    if isinstance(values, list):
        return numpy.array([_floats(v) for v in values], dtype=numpy.float64)
    return numpy.float64(float.fromhex(values) if isinstance(values, str) else values)


@pytest.mark.parametrize("name, program", CASES, ids=[name for name, _ in CASES])
def test_as_pytorch(name, program):
    got = record(program, namespace())
    difference = first_difference(got, GOLDEN["cases"][name], TOLERANCE.get(name))
    assert difference is None, difference


@pytest.mark.parametrize("name, program", ERRORS, ids=[name for name, _ in ERRORS])
def test_bad_calls_as_pytorch(name, program):
    assert run_error(program, namespace()) == GOLDEN["errors"][name]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_programs_print_what_pytorch_prints(cli, name):
    want = GOLDEN["programs"][name]
    result = cli.ok("run", "-c", PROGRAMS[name])
    assert_output_close(result.stdout, want["stdout"], *program_tolerance(PROGRAMS[name]))
    for message in want["warnings"]:
        assert f"warning: {message}" in result.stderr or f"): {message}" in result.stderr, result.stderr


def test_the_golden_file_has_every_case():
    assert GOLDEN["torch"].startswith("2.13")
    assert set(GOLDEN["cases"]) == {name for name, _ in CASES}
    assert set(GOLDEN["errors"]) == {name for name, _ in ERRORS}
    assert set(GOLDEN["programs"]) == set(PROGRAMS)



# ------------------------------------------------------------------ on a GPU (the stand-in and a real one)

@pytest.mark.parametrize("make", [
    lambda ps: ad.optim.SGD(ps, lr=0.1, momentum=0.9, nesterov=True),
    lambda ps: ad.optim.Adam(ps, lr=0.1, amsgrad=True),
    lambda ps: ad.optim.AdamW(ps, lr=0.1),
    lambda ps: ad.optim.RMSprop(ps, lr=0.01, momentum=0.5, centered=True),
    lambda ps: ad.optim.Adagrad(ps, lr=0.1, weight_decay=0.1),
    lambda ps: ad.optim.Adamax(ps, lr=0.1),
    lambda ps: ad.optim.NAdam(ps, lr=0.1, foreach=False),
    lambda ps: ad.optim.RAdam(ps, lr=0.1, betas=(0.5, 0.6), foreach=False),
    lambda ps: ad.optim.Adadelta(ps),
], ids=["SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adamax", "NAdam", "RAdam", "Adadelta"])
def test_steps_stay_on_the_device(device, make):
    """The parameters and state stay on the parameters' device ('step' and mu_product on the CPU, as
    PyTorch keeps them) and the values are the CPU's (to rounding: a GPU fuses no differently here)."""
    from cuda_fixtures import cuda_array_type

    def run(where):
        ps = [ad.tensor([1.5, -0.5, 2.0], device=where, requires_grad=True)]
        opt = make(ps)
        for _ in range(3):
            opt.zero_grad()
            ((ps[0] - 1) ** 2).sum().backward()
            opt.step()
        return ps[0], opt
    p, opt = run(device)
    expected, _ = run("cpu")
    assert p.device.type == device and p.is_leaf and p.requires_grad
    for key, value in opt.state[p].items():
        if key in ("step", "mu_product"):
            assert value.device.type == "cpu", key
        else:
            assert value.device.type == device and (device == "cpu" or type(value.array) is cuda_array_type()), key
    assert p.detach().cpu().tolist() == pytest.approx(expected.tolist(), rel=1e-12)


# ------------------------------------------------------------------ what is not here says so

@pytest.mark.parametrize("call, kind, words", [
    (lambda ps: ad.optim.SGD(ps, fused=True), RuntimeError, "fused=True is not supported here"),
    (lambda ps: ad.optim.Adam(ps, fused=True), RuntimeError, "fused=True is not supported here"),
    (lambda ps: ad.optim.Adagrad(ps, differentiable=True), RuntimeError, "differentiable=True is not supported"),
    (lambda ps: ad.optim.Adam(ps, lr=ad.tensor(0.1)), TypeError, "a Tensor lr is not supported here"),
    (lambda ps: ad.optim.Adam(ps, lr=ad.tensor([0.1, 0.2])), ValueError, "Tensor lr must be 1-element"),
    (lambda ps: ad.optim.Adam(ps, betas=(ad.tensor(0.9), ad.tensor(0.99))), TypeError, "Tensor betas are not"),
])
def test_what_is_not_supported_says_so(call, kind, words):
    with pytest.raises(kind, match=words):
        call([ad.tensor([1.0], requires_grad=True)])


def test_capturable_on_a_gpu_is_refused(cuda):
    p = ad.tensor([1.0], device=cuda, requires_grad=True)
    opt = ad.optim.Adam([p], capturable=True)
    p.grad = ad.ones_like(p)
    with pytest.raises(RuntimeError, match="capturable=True is not supported here"):
        opt.step()
