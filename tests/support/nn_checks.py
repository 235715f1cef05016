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
