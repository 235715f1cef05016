"""torch.nn's recurrent layers as compositions of engine ops: RNNCell, LSTMCell, GRUCell, and RNN,
LSTM (proj_size too), GRU -- several layers, both directions, batch_first, dropout between layers,
unbatched inputs -- with PyTorch's parameter names and shapes (weight_ih_l0, weight_hh_l0_reverse,
...), initial values (every parameter uniform in +-1/sqrt(hidden_size), drawn in registration order
over PyTorch's generator: PyTorch's numbers for a seed), gate order (LSTM: i, f, g, o; GRU: r, z, n),
printing and messages. Each time step is a few ops (a loop over the sequence's dim), so the nodes
are those ops' (PyTorch's fused kernels have nodes of their own); PackedSequence inputs are not
taken.
"""
import math
import warnings

from .. import functions as _fn
from . import functional as F
from . import init
from .module import Module, Parameter

__all__ = ["RNNCellBase", "RNNCell", "LSTMCell", "GRUCell", "RNNBase", "RNN", "LSTM", "GRU"]

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def _rnn_step(activation):
    def step(x, h, w_ih, w_hh, b_ih, b_hh):
        return activation(F.linear(x, w_ih, b_ih) + F.linear(h, w_hh, b_hh))
    return step


def _lstm_step(x, state, w_ih, w_hh, b_ih, b_hh, w_hr=None):
    """One LSTM step: (h, c) from x and the previous (h, c); gates i, f, g, o in that order."""
    h, c = state
    i, f, g, o = (F.linear(x, w_ih, b_ih) + F.linear(h, w_hh, b_hh)).chunk(4, -1)
    c = _fn.sigmoid(f) * c + _fn.sigmoid(i) * _fn.tanh(g)
    h = _fn.sigmoid(o) * _fn.tanh(c)
    return (h if w_hr is None else F.linear(h, w_hr)), c


def _gru_step(x, h, w_ih, w_hh, b_ih, b_hh):
    """One GRU step; gates r, z, n, the reset gate applied to the hidden part of n."""
    xr, xz, xn = F.linear(x, w_ih, b_ih).chunk(3, -1)
    hr, hz, hn = F.linear(h, w_hh, b_hh).chunk(3, -1)
    r, z = _fn.sigmoid(xr + hr), _fn.sigmoid(xz + hz)
    n = _fn.tanh(xn + r * hn)
    return (1 - z) * n + z * h


_STEPS = {"RNN_TANH": _rnn_step(_fn.tanh), "RNN_RELU": _rnn_step(F.relu), "LSTM": _lstm_step, "GRU": _gru_step}


def _reset(module):
    """PyTorch's: every parameter uniform in +-1/sqrt(hidden_size), in registration order."""
    bound = 1.0 / math.sqrt(module.hidden_size) if module.hidden_size > 0 else 0
    for p in module.parameters():
        init.uniform_(p, -bound, bound)


# ---------------------------------------------------------------- cells
class RNNCellBase(Module):
    """What the cells share: weight_ih (gates * hidden, input), weight_hh (gates * hidden, hidden),
    bias_ih and bias_hh unless bias=False."""
    _mode = None

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        rows = num_chunks * hidden_size
        self.weight_ih = Parameter(_fn.empty(rows, input_size, dtype=dtype, device=device))
        self.weight_hh = Parameter(_fn.empty(rows, hidden_size, dtype=dtype, device=device))
        if bias:
            self.bias_ih = Parameter(_fn.empty(rows, dtype=dtype, device=device))
            self.bias_hh = Parameter(_fn.empty(rows, dtype=dtype, device=device))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    reset_parameters = _reset

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s

    def _check(self, input, hx):
        if input.dim() not in (1, 2):
            raise ValueError(f"{type(self).__name__}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if input.shape[-1] != self.input_size:
            raise RuntimeError(f"input has inconsistent input_size: got {input.shape[-1]} expected {self.input_size}")
        for h in (hx if isinstance(hx, tuple) else (hx,)):
            if h is not None and input.dim() == 2 and h.dim() == 2 and h.shape[0] != input.shape[0]:
                raise RuntimeError(f"Input batch size {input.shape[0]} doesn't match hidden0 batch size "
                                   f"{h.shape[0]}")

    def forward(self, input, hx=None):
        """h' (LSTMCell: (h', c')) for an (N, input_size) or (input_size,) input."""
        self._check(input, hx)
        batched = input.dim() == 2
        x = input if batched else input.unsqueeze(0)
        zeros = _fn.zeros(x.shape[0], self.hidden_size, dtype=x.dtype, device=x.device)
        if self._mode == "LSTM":
            if hx is not None and not isinstance(hx, tuple):
                raise TypeError(f"lstm_cell(): argument 'hx' (position 2) must be tuple of Tensors, not "
                                f"{type(hx).__name__}")
            state = (zeros, zeros) if hx is None else tuple(h if batched else h.unsqueeze(0) for h in hx)
        else:
            state = zeros if hx is None else (hx if batched else hx.unsqueeze(0))
        out = _STEPS[self._step_mode()](x, state, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        if batched:
            return out
        return tuple(o.squeeze(0) for o in out) if isinstance(out, tuple) else out.squeeze(0)

    def _step_mode(self):
        return self._mode


class RNNCell(RNNCellBase):
    """h' = tanh (or relu) of x W_ih^T + b_ih + h W_hh^T + b_hh."""
    _mode = "RNN"

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, 1, device, dtype)
        self.nonlinearity = nonlinearity

    def _step_mode(self):
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        return "RNN_TANH" if self.nonlinearity == "tanh" else "RNN_RELU"


class LSTMCell(RNNCellBase):
    """One LSTM step: (h', c') from x and (h, c) (zeros when not given); gates i, f, g, o."""
    _mode = "LSTM"

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, 4, device, dtype)


class GRUCell(RNNCellBase):
    """One GRU step: h' from x and h (zeros when not given); gates r, z, n."""
    _mode = "GRU"

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, 3, device, dtype)


# ---------------------------------------------------------------- sequence layers
class RNNBase(Module):
    """What RNN, LSTM and GRU share: the layers' parameters (weight_ih_l{k}, weight_hh_l{k},
    bias_ih_l{k}, bias_hh_l{k}, LSTM's weight_hr_l{k}; `_reverse` for the second direction),
    their checks, and running the sequence through them."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        self.mode, self.input_size, self.hidden_size, self.num_layers = mode, input_size, hidden_size, num_layers
        self.bias, self.batch_first, self.dropout = bias, batch_first, float(dropout)
        self.bidirectional, self.proj_size = bidirectional, proj_size
        if not isinstance(dropout, (int, float)) or isinstance(dropout, bool) or not 0 <= dropout <= 1:
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an element "
                             "being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn(f"dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                          f"expects num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}",
                          stacklevel=3)
        if not isinstance(hidden_size, int):
            raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        rows = _GATES[mode] * hidden_size
        out = proj_size if proj_size > 0 else hidden_size
        directions = 2 if bidirectional else 1
        for layer in range(num_layers):
            for suffix in ("", "_reverse")[:directions]:
                names = [f"{n}_l{layer}{suffix}" for n in ("weight_ih", "weight_hh", "bias_ih", "bias_hh", "weight_hr")]
                shapes = [(rows, input_size if layer == 0 else out * directions), (rows, out), (rows,), (rows,),
                          (proj_size, hidden_size)]
                kept = [0, 1] + ([2, 3] if bias else []) + ([4] if proj_size > 0 else [])
                for k in kept:
                    setattr(self, names[k], Parameter(_fn.empty(*shapes[k], dtype=dtype, device=device)))
        self.reset_parameters()

    reset_parameters = _reset

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        for name, default in (("proj_size", 0), ("num_layers", 1), ("bias", True), ("batch_first", False),
                              ("dropout", 0.0), ("bidirectional", False)):
            if getattr(self, name) != default:
                s += f", {name}={getattr(self, name)}"
        return s

    def _weights(self, layer, suffix):
        names = ("weight_ih", "weight_hh", "bias_ih", "bias_hh") + (("weight_hr",) if self.proj_size > 0 else ())
        return [getattr(self, f"{n}_l{layer}{suffix}") if self.bias or not n.startswith("bias") else None
                for n in names]

    def _check(self, input, hx):
        name = {"RNN_TANH": "RNN", "RNN_RELU": "RNN"}.get(self.mode, self.mode)
        if input.dim() not in (2, 3):
            raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.dim()}D tensor instead")
        if input.shape[-1] != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got "
                               f"{input.shape[-1]}")
        batched = input.dim() == 3
        for h in (hx if isinstance(hx, tuple) else (hx,)):
            if h is not None and h.dim() != (3 if batched else 2):
                raise RuntimeError(f"For {'batched 3-D' if batched else 'unbatched 2-D'} input, hx should also be "
                                   f"{3 if batched else 2}-D but got {h.dim()}-D tensor")

    def _hidden_check(self, h, expected):
        if tuple(h.shape) != expected:
            raise RuntimeError(f"Expected hidden size {expected}, got {list(h.shape)}")

    def forward(self, input, hx=None):
        """(output, h_n) -- LSTM: (output, (h_n, c_n)); output holds the last layer's h at every step,
        both directions side by side."""
        self._check(input, hx)
        batched = input.dim() == 3
        x = (input.transpose(0, 1) if self.batch_first else input) if batched else input.unsqueeze(1)
        if not batched and hx is not None:
            hx = tuple(h.unsqueeze(1) for h in hx) if isinstance(hx, tuple) else hx.unsqueeze(1)
        directions = 2 if self.bidirectional else 1
        lstm = self.mode == "LSTM"
        out_size = self.proj_size if self.proj_size > 0 else self.hidden_size
        n = x.shape[1]
        shape = (self.num_layers * directions, n, out_size)
        if hx is None:
            h0 = _fn.zeros(*shape, dtype=x.dtype, device=x.device)
            c0 = _fn.zeros(self.num_layers * directions, n, self.hidden_size, dtype=x.dtype, device=x.device)
        elif lstm:
            h0, c0 = hx
            self._hidden_check(h0, shape)
            self._hidden_check(c0, (shape[0], n, self.hidden_size))
        else:
            h0 = hx
            self._hidden_check(h0, shape)
        step = _STEPS[self.mode]
        finals_h, finals_c = [], []
        for layer in range(self.num_layers):
            outputs = []
            for d, suffix in enumerate(("", "_reverse")[:directions]):
                k = layer * directions + d
                state = (h0[k], c0[k]) if lstm else h0[k]
                times = range(x.shape[0] - 1, -1, -1) if d else range(x.shape[0])
                hs = [None] * x.shape[0]
                for t in times:
                    state = step(x[t], state, *self._weights(layer, suffix))
                    hs[t] = state[0] if lstm else state
                outputs.append(_fn.stack(hs))
                finals_h.append(state[0] if lstm else state)
                if lstm:
                    finals_c.append(state[1])
            x = outputs[0] if directions == 1 else _fn.cat(outputs, -1)
            if self.dropout > 0 and self.training and layer < self.num_layers - 1:
                x = F.dropout(x, self.dropout, True)
        h_n = _fn.stack(finals_h)
        hidden = (h_n, _fn.stack(finals_c)) if lstm else h_n
        if not batched:
            return x.squeeze(1), (tuple(h.squeeze(1) for h in hidden) if lstm else hidden.squeeze(1))
        return (x.transpose(0, 1) if self.batch_first else x), hidden


class RNN(RNNBase):
    """Elman RNN over a sequence: h_t = tanh (or relu) of x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh."""

    def __init__(self, input_size, hidden_size, num_layers=1, nonlinearity="tanh", bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, device=None, dtype=None):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", input_size, hidden_size, num_layers,
                         bias, batch_first, dropout, bidirectional, 0, device, dtype)
        self.nonlinearity = nonlinearity


class LSTM(RNNBase):
    """LSTM over a sequence (proj_size > 0: h projected by weight_hr); returns (output, (h_n, c_n))."""

    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__("LSTM", input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         proj_size, device, dtype)


class GRU(RNNBase):
    """GRU over a sequence; returns (output, h_n)."""

    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, device=None, dtype=None):
        super().__init__("GRU", input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional, 0,
                         device, dtype)
