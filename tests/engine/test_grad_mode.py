"""Grad modes (engine/grad_mode.py) where the golden cases do not pin them:
every decorator form, generator functions at each step, nesting and re-entry,
threads and async tasks each with their own mode, inference mode and its
inference tensors, and the language's use of them.

Expected values are PyTorch 2.13's (checked with torch; tests never import it).
"""
import asyncio
import threading
import warnings

import pytest

import autodiff.engine as ad

INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode "
    "in computation tracked by autograd. To work around this, you can make a clone to get a normal tensor "
    "and use it in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`.")
INFERENCE_INPLACE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a "
    "normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details.")
INFERENCE_VIEW_INPLACE = (
    "A view was created in inference mode and is being modified inplace in normal mode. Given that this use "
    "case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and "
    "the inplace either both inside the inference_mode block (if you don't want the inplace to be tracked) or "
    "both outside (if you want the inplace to be tracked).")
INFERENCE_VIEW_REBASED = (
    "A view was created in inference mode and its base or another view of its base has been modified "
    "inplace in normal mode. Given that this use case is ambiguous and error-prone, it is forbidden. You "
    "can clarify your code by moving both the view and the inplace either both inside the inference_mode "
    "block (if you don't want the inplace to be tracked) or both outside (if you want the inplace to be "
    "tracked).")


def _engine_marks_inference_tensors():
    with ad.inference_mode():
        t = ad.ones(1)
    return ad.is_inference(t)


# The inference-tensor flag and its errors live in engine/tensor_class.py and
# engine/inplace.py; until those carry it these tests are expected to fail
# (strict: once they pass, the mark must go).
needs_inference_tensors = pytest.mark.xfail(
    not _engine_marks_inference_tensors(), strict=True,
    reason="engine/tensor_class.py and engine/inplace.py do not mark inference tensors yet")


@pytest.fixture(autouse=True)
def _modes_back():
    yield
    assert ad.is_grad_enabled() and not ad.is_inference_mode_enabled(), "a test leaked a mode"


def leaf(values):
    return ad.tensor(values, requires_grad=True)


def probe():
    """(grad mode, inference mode) now."""
    return ad.is_grad_enabled(), ad.is_inference_mode_enabled()


ON, OFF, INFERENCE = (True, False), (False, False), (False, True)


# ------------------------------------------------------------------ decorator forms

@pytest.mark.parametrize("decorate, inside", [
    (ad.no_grad, OFF),
    (ad.no_grad(), OFF),
    (ad.enable_grad, ON),
    (ad.enable_grad(), ON),
    (ad.inference_mode, INFERENCE),
    (ad.inference_mode(), INFERENCE),
    (ad.inference_mode(True), INFERENCE),
    (ad.inference_mode(mode=True), INFERENCE),
    (ad.inference_mode(False), ON),
], ids=["no_grad", "no_grad()", "enable_grad", "enable_grad()", "inference_mode", "inference_mode()",
        "inference_mode(True)", "inference_mode(mode=True)", "inference_mode(False)"])
def test_every_decorator_form(decorate, inside):
    def body(a, b=0):
        """doc"""
        return probe(), a + b

    wrapped = decorate(body)
    assert wrapped.__name__ == "body" and wrapped.__doc__ == "doc" and wrapped.__wrapped__ is body
    with ad.no_grad():  # the caller's mode does not matter inside, and comes back after
        assert wrapped(1, b=2) == (inside, 3)
        assert probe() == OFF
    assert wrapped(1) == (inside, 1)
    assert probe() == ON


def test_decorator_called_on_the_function_directly():
    def body():
        return probe()
    assert ad.no_grad(body)() == OFF
    assert ad.no_grad()(body)() == OFF
    assert ad.inference_mode(body)() == INFERENCE
    with ad.no_grad():
        assert ad.enable_grad(body)() == ON


def test_set_grad_enabled_as_decorator_changes_nothing_until_called():
    with ad.no_grad():
        deco = ad.set_grad_enabled(True)
        assert ad.is_grad_enabled()  # made alone, it sets the mode ...

        @deco
        def f():
            return probe()
        assert not ad.is_grad_enabled()  # ... and using it as a decorator undoes that
        assert f() == ON
        assert not ad.is_grad_enabled()
    off = ad.set_grad_enabled(False)(lambda: probe())
    assert off() == OFF and ad.is_grad_enabled()


def test_set_grad_enabled_alone_and_as_context():
    try:
        ad.set_grad_enabled(False)
        assert not ad.is_grad_enabled()
        with ad.set_grad_enabled(True) as value:
            assert value is None and ad.is_grad_enabled()
        assert not ad.is_grad_enabled()  # the mode from before the manager was made
    finally:
        ad.set_grad_enabled(True)


def test_set_grad_enabled_wants_a_bool():
    with pytest.raises(TypeError, match=r"^set_grad_enabled\(\): argument 'enabled' \(position 1\) must be "
                                        r"bool, not int$"):
        ad.set_grad_enabled(1)
    assert ad.is_grad_enabled()
    assert repr(ad.set_grad_enabled(True)) == "autodiff.engine.core.grad_mode.set_grad_enabled(mode=True)"


def test_decorated_results_do_or_do_not_record():
    x = leaf([1.0, 2.0])

    @ad.no_grad
    def off(t):
        return t * t

    @ad.inference_mode
    def inference(t):
        return t * t

    @ad.inference_mode(False)
    def normal(t):
        return t * t

    assert not off(x).requires_grad and not inference(x).requires_grad
    y = normal(x)
    assert y.requires_grad and y.grad_fn.name() == "MulBackward0"


def test_decorating_a_class_warns_and_wraps_its_construction():
    class Probe:
        def __init__(self):
            self.mode = probe()

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        made = ad.no_grad(Probe)
    assert [w.category for w in caught] == [FutureWarning]
    assert str(caught[0].message).startswith("Decorating classes is deprecated")
    assert made().mode == OFF and probe() == ON


def test_exception_restores_the_mode():
    @ad.inference_mode()
    def boom():
        raise KeyError("k")
    with pytest.raises(KeyError):
        boom()
    with pytest.raises(ValueError):
        with ad.no_grad(), ad.enable_grad(), ad.inference_mode():
            raise ValueError("v")
    assert probe() == ON


# ------------------------------------------------------------------ nesting

def test_nesting_restores_each_level():
    seen = []
    with ad.no_grad():
        seen.append(probe())
        with ad.inference_mode():
            seen.append(probe())
            with ad.enable_grad():  # grad mode on, still in inference mode
                seen.append(probe())
            with ad.inference_mode(False):
                seen.append(probe())
                with ad.no_grad():
                    seen.append(probe())
                seen.append(probe())
            seen.append(probe())
        seen.append(probe())
    assert seen == [OFF, INFERENCE, (True, True), ON, OFF, ON, INFERENCE, OFF]


def test_inference_mode_false_turns_grad_on_even_inside_no_grad():
    with ad.no_grad():
        with ad.inference_mode(False):
            assert probe() == ON
        assert probe() == OFF


def test_one_instance_entered_again_while_inside():
    off, on = ad.no_grad(), ad.enable_grad()
    with off:
        with on:
            with off:
                assert probe() == OFF
            assert probe() == ON
        assert probe() == OFF
    inference = ad.inference_mode()
    with inference:
        with ad.inference_mode(False):
            with inference:
                assert probe() == INFERENCE
            assert probe() == ON
        assert probe() == INFERENCE
    assert probe() == ON


def test_one_decorator_serves_recursive_calls():
    log = []

    @ad.no_grad()
    def down(n):
        log.append(probe())
        if n:
            up(n - 1)
            log.append(probe())

    @ad.inference_mode(False)
    def up(n):
        log.append(probe())
        if n:
            down(n - 1)
            log.append(probe())

    with ad.inference_mode():
        down(3)
    assert log == [INFERENCE, ON, OFF, ON, OFF, ON, INFERENCE]


# ------------------------------------------------------------------ generators

def test_generator_holds_the_mode_at_every_step():
    log = []

    @ad.inference_mode
    def gen():
        log.append(("start", probe()))
        try:
            received = yield 1
            log.append(("sent", received, probe()))
            try:
                yield 2
            except KeyError:
                log.append(("thrown", probe()))
            yield 3
        except GeneratorExit:
            log.append(("closing", probe()))
            raise

    it = gen()
    assert log == []  # nothing runs until the first step
    assert next(it) == 1 and probe() == ON
    assert it.send("hi") == 2 and probe() == ON
    assert it.throw(KeyError("k")) == 3 and probe() == ON
    it.close()
    assert probe() == ON
    assert log == [("start", INFERENCE), ("sent", "hi", INFERENCE), ("thrown", INFERENCE),
                   ("closing", INFERENCE)]


def test_generator_steps_in_the_callers_other_modes():
    @ad.no_grad()
    def gen():
        while True:
            yield probe()

    it = gen()
    with ad.enable_grad():
        assert next(it) == OFF  # its own mode inside ...
        assert probe() == ON  # ... the caller's between steps
    with ad.inference_mode():
        assert next(it) == INFERENCE  # no_grad leaves inference mode as it is (PyTorch)
        assert probe() == INFERENCE
    assert probe() == ON


def test_generator_return_value_and_errors():
    @ad.no_grad
    def gen():
        yield probe()
        return "done"

    it = gen()
    assert next(it) == OFF
    with pytest.raises(StopIteration) as stop:
        next(it)
    assert stop.value.value == "done"

    @ad.enable_grad()
    def failing():
        yield 1
        raise ValueError(str(probe()))

    it = failing()
    with ad.no_grad():
        next(it)
        with pytest.raises(ValueError, match=r"\(True, False\)"):
            next(it)
        assert probe() == OFF

    @ad.inference_mode()
    def delegating():
        yield from gen()  # gen's own no_grad inside ours

    assert list(delegating()) == [INFERENCE]  # no_grad inside inference mode: still inference mode


def test_uncaught_throw_propagates_with_the_mode_restored():
    @ad.no_grad()
    def gen():
        yield 1

    it = gen()
    next(it)
    with pytest.raises(KeyError):
        it.throw(KeyError("k"))
    assert probe() == ON


# ------------------------------------------------------------------ threads and tasks

def test_threads_each_have_their_own_mode():
    started_in_no_grad = {}

    def fresh():
        started_in_no_grad["mode"] = probe()

    with ad.no_grad():
        t = threading.Thread(target=fresh)
        t.start()
        t.join()
    assert started_in_no_grad["mode"] == ON  # a new thread starts with grad on, as in PyTorch

    barrier = threading.Barrier(2)
    seen = {}

    def worker(name, manager):
        with manager:
            barrier.wait()  # both are inside their blocks now
            seen[name] = probe()
            barrier.wait()
        seen[name + " after"] = probe()

    threads = [threading.Thread(target=worker, args=("off", ad.no_grad())),
               threading.Thread(target=worker, args=("inference", ad.inference_mode()))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {"off": OFF, "inference": INFERENCE, "off after": ON, "inference after": ON}
    assert probe() == ON


def test_async_tasks_each_have_their_own_mode():
    async def in_no_grad(event, seen):
        with ad.no_grad():
            event.set()
            await asyncio.sleep(0)
            seen["no_grad task"] = probe()

    async def other(event, seen):
        await event.wait()
        seen["other task"] = probe()

    async def main():
        event, seen = asyncio.Event(), {}
        await asyncio.gather(in_no_grad(event, seen), other(event, seen))
        return seen

    assert asyncio.run(main()) == {"no_grad task": OFF, "other task": ON}


# ------------------------------------------------------------------ inference tensors

def test_inference_mode_records_nothing():
    x = leaf([1.0, 2.0])
    with ad.inference_mode():
        y = x * 2.0
        c = ad.ones(2, requires_grad=True)  # a factory's requires_grad holds, as under no_grad
    assert not y.requires_grad and y.grad_fn is None and y.is_leaf
    assert c.requires_grad and c.is_leaf


@needs_inference_tensors
def test_enable_grad_inside_inference_mode_still_records_nothing():
    x = leaf([1.0, 2.0])
    with ad.inference_mode(), ad.enable_grad():
        assert ad.is_grad_enabled()
        y = x * 2.0
    assert not y.requires_grad and y.grad_fn is None and y.is_inference()


@needs_inference_tensors
def test_which_tensors_are_inference_tensors():
    normal = ad.tensor([1.0, 2.0])
    with ad.inference_mode():
        t = ad.ones(2)
        made = normal * 2.0
        view_of_normal = normal[0]
        with ad.inference_mode(False):
            inside_false = ad.ones(1)
    assert t.is_inference() and made.is_inference() and ad.is_inference(t)
    assert not view_of_normal.is_inference() and not inside_false.is_inference() and not normal.is_inference()
    # views of an inference tensor are inference tensors; other results made outside are not
    assert t[0].is_inference() and t.detach().is_inference() and t.view(2).is_inference()
    assert not (t * 2.0).is_inference() and not t.clone().is_inference()


@needs_inference_tensors
def test_inference_tensor_saved_for_backward_fails_when_recorded():
    x = leaf([1.0, 2.0])
    with ad.inference_mode():
        t = ad.ones(2)
    for recorded in (lambda: x * t, lambda: t * x, lambda: x.mul(t), lambda: (x * 2.0) * t):
        with pytest.raises(RuntimeError) as e:
            recorded()  # mul saves t for x's gradient: refused at once, as PyTorch
        assert str(e.value) == INFERENCE_SAVED


def test_inference_tensor_used_without_being_saved():
    # passes without the flag too: it guards against refusing more than PyTorch does
    x = leaf([1.0, 2.0])
    with ad.inference_mode():
        t = ad.ones(2)
        c = ad.ones(2, requires_grad=True)
    (x + t).sum().backward()  # add saves nothing
    assert x.grad.tolist() == [1.0, 1.0]
    y = t.sin() * x  # t.sin(), made outside inference mode, is a normal tensor and may be saved
    assert y.grad_fn.name() == "MulBackward0"
    total = c.add(leaf([1.0, 1.0]))
    total.backward(ad.ones(2))
    assert c.grad.tolist() == [1.0, 1.0]
    with ad.no_grad():
        assert (x * t).tolist() == [1.0, 2.0]  # nothing recorded: nothing saved


@needs_inference_tensors
@pytest.mark.parametrize("mode", [ad.enable_grad, ad.no_grad])
def test_inplace_on_inference_tensor_outside_inference_mode(mode):
    with ad.inference_mode():
        t = ad.ones(2)
        t.mul_(2.0)  # inside: allowed
    assert t.tolist() == [2.0, 2.0]
    with mode():
        for change in (lambda: t.add_(1.0), lambda: t[0].mul_(2.0), lambda: t.__setitem__(0, 5.0)):
            with pytest.raises(RuntimeError) as e:
                change()
            assert str(e.value) == INFERENCE_INPLACE


@needs_inference_tensors
def test_requires_grad_on_inference_tensor_outside_inference_mode():
    with ad.inference_mode():
        t = ad.ones(2)
        u = ad.ones(2)
        u.requires_grad_()  # inside: allowed
    assert u.requires_grad
    with pytest.raises(RuntimeError, match="^Setting requires_grad=True on inference tensor outside "
                                           "InferenceMode is not allowed.$"):
        t.requires_grad_()
    t.requires_grad_(False)


@needs_inference_tensors
def test_view_made_in_inference_mode():
    s = leaf([1.0, 2.0])
    changed = s.clone()
    with ad.inference_mode():
        changed.add_(1.0)  # a normal tensor changed in inference mode: its version still counts
    assert changed._version == 1 and not changed.is_inference()
    a = s.clone()
    with ad.inference_mode():
        v = a.view_as(a)
    assert v.requires_grad and v.grad_fn is None and not v.is_inference()
    with pytest.raises(RuntimeError) as e:
        v.add_(2.0)
    assert str(e.value) == INFERENCE_VIEW_INPLACE
    (v * 2.0).sum().backward()  # a view made in inference mode passes no gradient
    assert s.grad is None

    b = s.clone()
    with ad.inference_mode():
        w = b[0]
    b.mul_(2.0)  # the base changed with history: the view may not be used
    with pytest.raises(RuntimeError) as e:
        w * 2.0
    assert str(e.value) == INFERENCE_VIEW_REBASED


# ------------------------------------------------------------------ the language

def test_language_inference_mode_and_decorator_calls(cli):
    assert cli.run_ok("""
        w = torch.tensor([1., 2.], requires_grad=True)
        print(torch.is_inference_mode_enabled())
        with torch.inference_mode():
            a = w * 2
            print(torch.is_inference_mode_enabled(), torch.is_grad_enabled(), a.requires_grad)
            with inference_mode(False):
                print(torch.is_grad_enabled(), (w * 2).requires_grad)
        def f(x):
            return x * 3, torch.is_grad_enabled()
        y, on = torch.no_grad()(f)(w)
        print(y.requires_grad, on, torch.is_grad_enabled())
        print(torch.autograd.grad_mode.no_grad(f)(w)[1], torch.autograd.inference_mode(f)(w)[1])
        print(torch.enable_grad(f)(w)[0].requires_grad)
    """) == "False\nTrue False False\nTrue True\nFalse False True\nFalse False\nTrue\n"
