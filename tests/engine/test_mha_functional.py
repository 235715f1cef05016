"""F.multi_head_attention_forward (engine/nn/functional_attention.py) against numpy written head by
head from the definition (softmax(q k^T / sqrt(d) + mask) v, projected in and out), nn.MultiheadAttention
as the same computation, its derivatives (gradcheck and gradgradcheck), PyTorch 2.13's nodes
and its messages."""
import numpy as np
import pytest

import autodiff.engine as ad

F = ad.nn.functional
E, H = 4, 2


def arrays(*shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s) for s in shapes]


def np_mha(q, k, v, w, b, ow, ob, heads, mask=None, bias_kv=None, zero_attn=False):
    """(L, N, E) query over (S, N, E) key/value, one head and one batch element at a time."""
    e = q.shape[-1]
    d = e // heads
    wq, wk, wv = w[:e], w[e:2 * e], w[2 * e:]
    bq, bk, bv = (b[:e], b[e:2 * e], b[2 * e:]) if b is not None else (0, 0, 0)
    qp, kp, vp = q @ wq.T + bq, k @ wk.T + bk, v @ wv.T + bv
    if bias_kv is not None:
        kp = np.concatenate([kp, np.broadcast_to(bias_kv[0], (1,) + kp.shape[1:])])
        vp = np.concatenate([vp, np.broadcast_to(bias_kv[1], (1,) + vp.shape[1:])])
        mask = None if mask is None else np.pad(mask, ((0, 0), (0, 1)))
    length, n = q.shape[0], q.shape[1]
    out = np.zeros((length, n, e))
    weights = np.zeros((n, heads, length, kp.shape[0] + zero_attn))
    for i in range(n):
        for h in range(heads):
            cols = slice(h * d, (h + 1) * d)
            keys, values = kp[:, i, cols], vp[:, i, cols]
            if zero_attn:
                keys, values = np.vstack([keys, np.zeros(d)]), np.vstack([values, np.zeros(d)])
            scores = qp[:, i, cols] @ keys.T / np.sqrt(d)
            if mask is not None:
                scores = scores + (np.pad(mask, ((0, 0), (0, 1))) if zero_attn else mask)
            p = np.exp(scores - scores.max(-1, keepdims=True))
            p = p / p.sum(-1, keepdims=True)
            weights[i, h] = p
            out[:, i, cols] = p @ values
    return out @ ow.T + (ob if ob is not None else 0), weights


def test_against_numpy_head_by_head():
    q, k, v, w, b, ow, ob, mask = arrays((3, 2, E), (5, 2, E), (5, 2, E), (3 * E, E), (3 * E,), (E, E), (E,), (3, 5))
    out, weights = F.multi_head_attention_forward(*(ad.tensor(a) for a in (q, k, v)), E, H, ad.tensor(w),
                                                  ad.tensor(b), None, None, False, 0.0, ad.tensor(ow), ad.tensor(ob),
                                                  attn_mask=ad.tensor(mask), average_attn_weights=False)
    want, want_weights = np_mha(q, k, v, w, b, ow, ob, H, mask)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(weights.numpy(), want_weights, rtol=1e-12, atol=1e-14)


def test_bias_kv_zero_attention_and_averaged_weights():
    q, k, v, w, ow, bkv = arrays((3, 2, E), (4, 2, E), (4, 2, E), (3 * E, E), (E, E), (2, 1, 1, E), seed=1)
    out, weights = F.multi_head_attention_forward(
        *(ad.tensor(a) for a in (q, k, v)), E, H, ad.tensor(w), None, ad.tensor(bkv[0]), ad.tensor(bkv[1]), True,
        0.0, ad.tensor(ow), None)
    want, want_weights = np_mha(q, k, v, w, None, ow, None, H, bias_kv=bkv[:, 0], zero_attn=True)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(weights.numpy(), want_weights.mean(1), rtol=1e-12, atol=1e-14)


def test_boolean_masks_and_no_weights_path_agree_with_the_weights_path():
    q, k, w, ow = arrays((3, 2, E), (5, 2, E), (3 * E, E), (E, E), seed=2)
    padding = ad.tensor(np.array([[False, False, True, False, True], [False, True, False, False, False]]))
    args = (ad.tensor(q), ad.tensor(k), ad.tensor(k), E, H, ad.tensor(w), None, None, None, False, 0.0, ad.tensor(ow),
            None)
    with_weights, _ = F.multi_head_attention_forward(*args, key_padding_mask=padding)
    without, none = F.multi_head_attention_forward(*args, key_padding_mask=padding, need_weights=False)
    assert none is None
    np.testing.assert_allclose(without.numpy(), with_weights.numpy(), rtol=1e-12, atol=1e-12)
    for i in range(2):  # a padded key gets no weight: the same as dropping it
        kept = ~padding.numpy()[i]
        want, _ = np_mha(q[:, i:i + 1], k[kept, i:i + 1], k[kept, i:i + 1], w, None, ow, None, H)
        np.testing.assert_allclose(with_weights.numpy()[:, i], want[:, 0], rtol=1e-12, atol=1e-12)


def test_module_is_the_functional():
    ad.manual_seed(0)
    m = ad.nn.MultiheadAttention(E, H, kdim=3, vdim=5, batch_first=True)
    q, k, v = (ad.tensor(a) for a in arrays((2, 3, E), (2, 4, 3), (2, 4, 5), seed=3))
    out, weights = m(q, k, v)
    want, want_weights = F.multi_head_attention_forward(
        q.transpose(0, 1), k.transpose(0, 1), v.transpose(0, 1), E, H, None, m.in_proj_bias, None, None, False, 0.0,
        m.out_proj.weight, m.out_proj.bias, use_separate_proj_weight=True, q_proj_weight=m.q_proj_weight,
        k_proj_weight=m.k_proj_weight, v_proj_weight=m.v_proj_weight)
    np.testing.assert_array_equal(out.detach().numpy(), want.transpose(0, 1).detach().numpy())
    np.testing.assert_array_equal(weights.detach().numpy(), want_weights.detach().numpy())


def test_nodes_and_derivatives():
    q, k, w, b, ow, ob = (ad.tensor(a, requires_grad=True) for a in
                          arrays((2, 2, E), (3, 2, E), (3 * E, E), (3 * E,), (E, E), (E,), seed=4))
    mask = ad.tensor(arrays((2, 3), seed=5)[0])

    def fn(q, k, w, b, ow, ob):
        out, weights = F.multi_head_attention_forward(q, k, k, E, H, w, b, None, None, False, 0.0, ow, ob,
                                                      attn_mask=mask)
        return out.sum() + (weights * weights).sum()
    out, weights = F.multi_head_attention_forward(q, q, q, E, H, w, b, None, None, False, 0.0, ow, ob)
    assert (out.grad_fn.name(), weights.grad_fn.name()) == ("ViewBackward0", "MeanBackward1")
    unbatched, _ = F.multi_head_attention_forward(q[:, 0], k[:, 0], k[:, 0], E, H, w, b, None, None, False, 0.0, ow,
                                                  ob, need_weights=False)
    assert unbatched.grad_fn.name() == "SqueezeBackward1"
    assert ad.autograd.gradcheck(fn, (q, k, w, b, ow, ob))
    assert ad.autograd.gradgradcheck(fn, (q, k, w, b, ow, ob))


def test_dropout_only_while_training():
    q, w, ow = (ad.tensor(a) for a in arrays((3, 2, E), (3 * E, E), (E, E), seed=6))
    args = (q, q, q, E, H, w, None, None, None, False, 0.5, ow, None)
    ad.manual_seed(0)
    _, dropped = F.multi_head_attention_forward(*args, average_attn_weights=False)
    assert (dropped.numpy() == 0).any()
    _, kept = F.multi_head_attention_forward(*args, training=False)
    np.testing.assert_allclose(kept.numpy().sum(-1), np.ones((2, 3)))


Q = ad.ones(3, 2, E)
W, OW = ad.ones(3 * E, E), ad.ones(E, E)


@pytest.mark.parametrize("call, error, message", [
    (lambda: F.multi_head_attention_forward(Q, Q, Q, 5, H, W, None, None, None, False, 0.0, OW, None), AssertionError,
     "was expecting embedding dimension of 5, but got 4"),
    (lambda: F.multi_head_attention_forward(Q, Q, Q, E, 3, W, None, None, None, False, 0.0, OW, None), AssertionError,
     "embed_dim 4 not divisible by num_heads 3"),
    (lambda: F.multi_head_attention_forward(Q[0], Q, Q, E, H, W, None, None, None, False, 0.0, OW, None),
     AssertionError, r"For unbatched \(2-D\) `query`, expected `key` and `value` to be 2-D but found 3-D and 3-D"),
    (lambda: F.multi_head_attention_forward(Q, Q, Q, E, H, W, None, None, None, False, 0.0, OW, None,
                                            attn_mask=ad.ones(2, 3)), RuntimeError,
     r"The shape of the 2D attn_mask is torch.Size\(\[2, 3\]\), but should be \(3, 3\)."),
    (lambda: F.multi_head_attention_forward(Q, Q, Q, E, H, W, None, None, None, False, 0.0, OW, None, is_causal=True),
     RuntimeError, "Need attn_mask if specifying the is_causal hint."),
    (lambda: F.multi_head_attention_forward(Q, Q, Q, E, H, W, None, None, None, False, 0.0, OW, None,
                                            attn_mask=ad.ones(3, 3, dtype=ad.int64)), AssertionError,
     "only bool and floating types of attn_mask are supported"),
    (lambda: F.multi_head_attention_forward(Q, Q, Q, E, H, None, None, None, None, False, 0.0, OW, None),
     AssertionError, "use_separate_proj_weight is False but in_proj_weight is None"),
])
def test_errors_in_pytorchs_words(call, error, message):
    with pytest.raises(error, match=message):
        call()
