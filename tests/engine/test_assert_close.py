"""torch.testing.assert_close's verdicts and messages, against PyTorch's own
(tests/golden/assert_close.json, recorded by gen_assert_close.py)."""
import json

import pytest

import autodiff.engine as ad
from autodiff.engine.testing import assert_close

import assert_close_cases
import locations

GOLDEN = json.loads((locations.GOLDEN / "assert_close.json").read_text())["outcomes"]


@pytest.fixture
def float32_default():
    previous = ad.get_default_dtype()
    ad.set_default_dtype(ad.float32)
    yield
    ad.set_default_dtype(previous)


@pytest.mark.parametrize("index", range(len(GOLDEN)))
def test_assert_close_matches_pytorch(index, float32_default):
    case = assert_close_cases.cases(ad, assert_close)[index]
    try:
        case()
        outcome = "OK"
    except Exception as e:
        outcome = f"{type(e).__name__} {str(e)!r}"
    assert outcome == GOLDEN[index]
