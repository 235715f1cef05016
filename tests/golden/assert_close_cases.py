"""assert_close cases, run by gen_assert_close.py under PyTorch (to record its messages)
and by tests/engine/test_assert_close.py under our engine: `T` is torch or autodiff.engine
(float32 default), `assert_close` its torch.testing.assert_close."""

def cases(T, assert_close):
    return [
 lambda: assert_close(T.tensor([1., 2.]), T.tensor([1., 3.])),
 lambda: assert_close(T.tensor(1.), T.tensor(2.)),
 lambda: assert_close(1.0, 2.0),
 lambda: assert_close(T.tensor([[1., 2.],[3,4]]), T.tensor([[1., 2.5],[3,4.1]])),
 lambda: assert_close(T.tensor([1., 2.]), T.tensor([1., 2., 3.])),
 lambda: assert_close(T.tensor([1., 2.]), T.tensor([1., 2.], dtype=T.float64)),
 lambda: assert_close(T.tensor([1, 2]), T.tensor([1, 3])),
 lambda: assert_close(T.tensor([1., 2.]), T.tensor([1., 3.]), rtol=0.1),
 lambda: assert_close(T.tensor([1., float('nan')]), T.tensor([1., float('nan')])),
 lambda: assert_close(T.tensor([1., 2.]), [1., 2.]),
 lambda: assert_close(T.tensor([1., 2.]), T.tensor([1., 3.]), msg="custom"),
 lambda: assert_close(T.tensor([0., 2.]), T.tensor([1e-9, 2.])),
 lambda: assert_close(T.tensor([0., 2.]), T.tensor([1, 2.]), check_dtype=False),
 lambda: assert_close(T.tensor([True]), T.tensor([False])),
 lambda: assert_close(1, 2),
 lambda: assert_close([T.tensor(1.), T.tensor(2.)], [T.tensor(1.), T.tensor(3.)]),
 lambda: assert_close([1.,2.],[1.,2.,3.]),
 lambda: assert_close(T.tensor([1.,2.]), T.tensor([1.,3.], dtype=T.float64), check_dtype=False),
 lambda: assert_close(T.tensor([1.,2.], dtype=T.float64), T.tensor([1.,2.+1e-9], dtype=T.float64)),
 lambda: assert_close(T.tensor(float('nan')), T.tensor(float('nan')), equal_nan=True),
 lambda: assert_close(1.0, T.tensor(1.)),
 lambda: assert_close(T.tensor([1.,2.], requires_grad=True), T.tensor([1.,2.])),
 lambda: assert_close(T.tensor([1.,2.]), T.tensor([1.,2.0000001])),
 lambda: assert_close(T.tensor([[1.,2.],[3.,4.]]), T.tensor([[1.,2.],[3.,4.01]]), atol=1e-3, rtol=0),
]
def run(T, assert_close):
    out = []
    for c in cases(T, assert_close):
        try: c(); out.append("OK")
        except Exception as e: out.append(f"{type(e).__name__} {str(e)!r}")
    return out
