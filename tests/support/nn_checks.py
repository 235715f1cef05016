"""What the torch.nn golden tests (test_nn_lazy.py, test_nn_more_modules.py, test_nn_rnn.py,
test_nn_attention.py) share: reading their golden file, checking a recorded bad call, a recorded
printing, and recorded gradients."""
import json
import os
import warnings

import numpy
import pytest

from tolerance import assert_close

GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "golden")


def golden(name):
    with open(os.path.join(GOLDEN, name)) as f:
        return json.load(f)


def check_error(case, namespace):
    """Evaluating case['source'] in `namespace` raises PyTorch's exception type with its message."""
    with pytest.raises(eval(case["type"], namespace)) as info:
        eval(case["source"], namespace)
    assert str(info.value) == case["message"]


def check_repr(source, want, namespace):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert repr(eval(source, namespace)) == want


def check_grads(case, inputs, parameters):
    """Each input's and each named parameter's .grad within tolerance of case['input_grads'] and
    case['parameter_grads']."""
    for x, want in zip(inputs, case["input_grads"]):
        assert_close(x.grad.numpy(), numpy.array(want), what="input grad")
    for name, want in case["parameter_grads"].items():
        assert_close(parameters[name].grad.numpy(), numpy.array(want), what=name + " grad")


def check_parameters(module, case, skip=()):
    """The module's named parameters: case['parameters']'s names, in order, and values (but `skip`'s)."""
    params = dict(module.named_parameters())
    assert list(params) == list(case["parameters"])
    for name, want in case["parameters"].items():
        if name not in skip:
            assert_close(params[name].detach().numpy(), numpy.array(want), what=name)
    return params


def golden_call_tests(data, namespace):
    """The two tests of a golden file's recorded bad calls and printings (evaluated in
    `namespace`), for a test module to keep under their names."""
    @pytest.mark.parametrize("case", data["errors"], ids=[c["source"] for c in data["errors"]])
    def test_bad_call_raises_pytorchs_error(case):
        check_error(case, namespace)

    @pytest.mark.parametrize("source", list(data.get("reprs", ())))
    def test_prints_as_pytorch(source):
        check_repr(source, data["reprs"][source], namespace)

    return test_bad_call_raises_pytorchs_error, test_prints_as_pytorch
