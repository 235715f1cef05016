"""`autodiff eval --json` against PyTorch's own numbers, recorded in
tests/golden/eval.json by tests/golden/gen_eval.py (torch is not needed here).

Each case is one eval job (program, NAME=VALUE bindings, options); its value,
shape, the (N-th) derivative by each variable -- the same set of variables,
by default every bound variable f depends on --, and when asked the Jacobian
and Hessian blocks must match to rtol 1e-10.
"""
import json

import numpy
import pytest

import locations

GOLDEN = locations.GOLDEN / "eval.json"
CASES = json.loads(GOLDEN.read_text())["cases"]

RTOL, ATOL = 1e-10, 1e-12


def close(actual, expected, what):
    a = numpy.asarray(actual, dtype=numpy.float64)
    e = numpy.asarray(expected, dtype=numpy.float64)
    assert a.shape == e.shape, f"{what}: shape {a.shape} != {e.shape}"
    numpy.testing.assert_allclose(a, e, rtol=RTOL, atol=ATOL, err_msg=what)


def test_golden_file_is_sane():
    assert len(CASES) >= 30
    assert len({c["name"] for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_eval_matches_pytorch(cli, case):
    out = cli.job(case["expr"], *case["bindings"], *case["options"])
    expect = case["expect"]
    assert out["line"] == 1 and out["expr"] == case["expr"]
    assert out["dtype"] == "float64" and out["device"] == "cpu"
    order = int(case["options"][case["options"].index("--order") + 1]) if "--order" in case["options"] else 1
    assert out["order"] == order
    assert out["shape"] == expect["shape"]
    close(out["value"], expect["value"], "value")
    assert set(out["grad"]) == set(expect["grad"]), "the variables differentiated by"
    for name, g in expect["grad"].items():
        close(out["grad"][name], g, f"grad[{name}]")
    if "jacobian" in expect:
        assert set(out["jacobian"]) == set(expect["jacobian"])
        for name, j in expect["jacobian"].items():
            close(out["jacobian"][name], j, f"jacobian[{name}]")
    else:
        assert "jacobian" not in out
    if "hessian" in expect:
        assert set(out["hessian"]) == set(expect["hessian"])
        for a, row in expect["hessian"].items():
            assert set(out["hessian"][a]) == set(row)
            for b, h in row.items():
                close(out["hessian"][a][b], h, f"hessian[{a}][{b}]")
    else:
        assert "hessian" not in out
