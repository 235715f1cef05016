"""torch.nn, as far as the engine goes: the modules (Module, Parameter, Linear, Sequential, the
activation and loss modules) and the `functional` namespace (`autodiff.engine.nn.functional`)."""
from . import functional, init  # noqa: F401
from .modules import *  # noqa: F401,F403
from .modules import __all__ as _module_names
from .modules_more import *  # noqa: F401,F403  (CELU, the padding layers, Bilinear, ...)
from .modules_more import __all__ as _more_names
from .modules_rnn import *  # noqa: F401,F403  (RNN, LSTM, GRU and their cells)
from .modules_rnn import __all__ as _rnn_names
from .modules_attention import MultiheadAttention  # noqa: F401
from .modules_fold import *  # noqa: F401,F403  (Unfold, Fold, AdaptiveMaxPool1d/2d, MaxUnpool1d/2d/3d)
from .modules_fold import __all__ as _fold_names
from .modules_transformer import *  # noqa: F401,F403  (Transformer and its layers)
from .modules_transformer import __all__ as _transformer_names
from .modules_lazy import *  # noqa: F401,F403  (LazyLinear, ..., UninitializedParameter)
from .modules_lazy import __all__ as _lazy_names

__all__ = (["functional", "init"] + list(_module_names) + list(_more_names) + list(_rnn_names) + ["MultiheadAttention"]
           + list(_fold_names) + list(_transformer_names) + list(_lazy_names))
