"""What the torch.nn golden tests (test_nn_lazy.py, test_nn_more_modules.py, test_nn_rnn.py) share:
reading their golden file, and checking a recorded bad call and a recorded printing."""
import json
import os
import warnings

import pytest

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
