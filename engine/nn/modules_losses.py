"""The loss modules over engine/nn/functional_losses.py (and the margin-loss rows): each takes its
settings as PyTorch's does -- positionally in PyTorch's order, the legacy size_average/reduce flags
included, or by keyword -- and calls its functional loss on the inputs forward() is given. Also
EmbeddingBag, over functional embedding_bag (kept here, with the other modules of this round)."""
from .. import functions as _fn
from ..core.grad_mode import no_grad
from . import functional as F
from . import init
from .functional_losses import _legacy
from .module import Module, Parameter
from .modules_layers import padding_index

__all__ = ["MarginRankingLoss", "HingeEmbeddingLoss", "CosineEmbeddingLoss", "PoissonNLLLoss", "GaussianNLLLoss",
           "TripletMarginLoss", "TripletMarginWithDistanceLoss", "MultiLabelSoftMarginLoss", "SoftMarginLoss",
           "MultiMarginLoss", "MultiLabelMarginLoss", "EmbeddingBag", "CTCLoss"]


class _SettingsLoss(Module):
    """A loss module: its settings (`_settings`, PyTorch's __init__ order) kept as attributes,
    `reduction` among them; forward(*inputs) is the functional loss with those settings."""
    _function = None
    _settings = ()
    _keyword_only = False

    def __init__(self, *args, **kwargs):
        super().__init__()
        name = type(self).__name__
        values = dict(self._settings)
        if self._keyword_only and args:
            raise TypeError(f"{name}.__init__() takes 1 positional argument but {len(args) + 1} were given")
        if len(args) > len(values):
            raise TypeError(f"{name}.__init__() takes from 1 to {len(values) + 1} positional arguments but "
                            f"{len(args) + 1} were given")
        for key, value in zip(values, args):
            if key in kwargs:
                raise TypeError(f"{name}.__init__() got multiple values for argument '{key}'")
            values[key] = value
        for key, value in kwargs.items():
            if key not in values:
                raise TypeError(f"{name}.__init__() got an unexpected keyword argument '{key}'")
            values[key] = value
        size_average, reduce = values.pop("size_average", None), values.pop("reduce", None)
        reduction = values.pop("reduction")
        if size_average is not None or reduce is not None:
            reduction = _legacy(reduction, size_average, reduce)
        object.__setattr__(self, "reduction", reduction)
        for key, value in values.items():
            object.__setattr__(self, key, value)

    def forward(self, *inputs):
        settings = {key: getattr(self, key) for key, _ in self._settings if key not in ("size_average", "reduce")}
        return type(self)._function(*inputs, **settings)


def _module(name, function, settings, keyword_only=False):
    return type(name, (_SettingsLoss,), {
        "_function": staticmethod(function), "_settings": settings, "_keyword_only": keyword_only,
        "__module__": __name__, "__doc__": f"The loss {function.__name__} as a layer."})


_LEGACY = (("size_average", None), ("reduce", None), ("reduction", "mean"))
MarginRankingLoss = _module("MarginRankingLoss", F.margin_ranking_loss, (("margin", 0.0),) + _LEGACY)
HingeEmbeddingLoss = _module("HingeEmbeddingLoss", F.hinge_embedding_loss, (("margin", 1.0),) + _LEGACY)
CosineEmbeddingLoss = _module("CosineEmbeddingLoss", F.cosine_embedding_loss, (("margin", 0.0),) + _LEGACY)
PoissonNLLLoss = _module("PoissonNLLLoss", F.poisson_nll_loss, (
    ("log_input", True), ("full", False), ("size_average", None), ("eps", 1e-8), ("reduce", None),
    ("reduction", "mean")))
GaussianNLLLoss = _module("GaussianNLLLoss", F.gaussian_nll_loss,
                          (("full", False), ("eps", 1e-6), ("reduction", "mean")), keyword_only=True)
TripletMarginLoss = _module("TripletMarginLoss", F.triplet_margin_loss, (
    ("margin", 1.0), ("p", 2.0), ("eps", 1e-6), ("swap", False)) + _LEGACY)
TripletMarginWithDistanceLoss = _module("TripletMarginWithDistanceLoss", F.triplet_margin_with_distance_loss, (
    ("distance_function", None), ("margin", 1.0), ("swap", False), ("reduction", "mean")), keyword_only=True)
MultiLabelSoftMarginLoss = _module("MultiLabelSoftMarginLoss", F.multilabel_soft_margin_loss,
                                   (("weight", None),) + _LEGACY)
SoftMarginLoss = _module("SoftMarginLoss", F.soft_margin_loss, _LEGACY)
MultiMarginLoss = _module("MultiMarginLoss", F.multi_margin_loss,
                          (("p", 1), ("margin", 1.0), ("weight", None)) + _LEGACY)
MultiLabelMarginLoss = _module("MultiLabelMarginLoss", F.multilabel_margin_loss, _LEGACY)
CTCLoss = _module("CTCLoss", F.ctc_loss, (("blank", 0), ("reduction", "mean"), ("zero_infinity", False)))


class EmbeddingBag(Module):
    """A lookup table of num_embeddings vectors of embedding_dim, learnt, whose rows are gathered
    in bags and reduced (mode 'sum', 'mean' or 'max'): called on (input, offsets=None,
    per_sample_weights=None) as functional embedding_bag. The initial rows are standard normal
    draws (not PyTorch's numbers for a seed); the row padding_idx starts at zeros."""

    def __init__(self, num_embeddings, embedding_dim, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                 mode="mean", sparse=False, _weight=None, include_last_offset=False, padding_idx=None, device=None,
                 dtype=None):
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        self.padding_idx = padding_index(padding_idx, num_embeddings, "padding_idx")
        if _weight is None:
            self.weight = Parameter(_fn.empty(num_embeddings, embedding_dim, dtype=dtype, device=device))
            self.reset_parameters()
        else:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise AssertionError("Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = Parameter(_weight)
        self.mode = mode
        self.sparse = sparse
        self.include_last_offset = include_last_offset

    def reset_parameters(self):
        init.normal_(self.weight)
        if self.padding_idx is not None:
            with no_grad():
                self.weight[self.padding_idx].fill_(0)

    def forward(self, input, offsets=None, per_sample_weights=None):
        return F.embedding_bag(input, self.weight, offsets, self.max_norm, self.norm_type, self.scale_grad_by_freq,
                               self.mode, self.sparse, per_sample_weights, self.include_last_offset,
                               self.padding_idx)

    def extra_repr(self):
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.max_norm is not None:
            s += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            s += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq is not False:
            s += f", scale_grad_by_freq={self.scale_grad_by_freq}"
        s += f", mode='{self.mode}'"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx}"
        return s
