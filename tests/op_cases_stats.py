"""Op cases of the stats rows (see tests/op_cases.py for what a case is)."""
import numpy as np  # noqa: F401

import autodiff.engine as ad  # noqa: F401
from op_cases import C  # noqa: F401
