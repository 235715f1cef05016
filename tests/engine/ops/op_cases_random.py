"""Op cases of the random rows whose values are not random in the inputs that carry a gradient
(see tests/engine/ops/op_cases.py for what a case is)."""
import numpy as np  # noqa: F401

import autodiff.engine as ad  # noqa: F401
from op_cases import C  # noqa: F401
