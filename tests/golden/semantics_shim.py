"""Helpers that the programs in tests/golden/semantics.json call, shared verbatim by
the generator (tests/golden/gen_semantics.py, under PyTorch) and the test
(tests/engine/test_golden_semantics.py, under our engine), so that they mean the same
thing on both sides. Pure Python: imports neither torch nor the engine.

    catch(fn)   fn() when it returns; when it raises, a `Caught` that records the
                exception's class name (and the names of its bases) and str(e)
    warns(fn)   the warnings that fn() raised, as a list of `Warned`
                (category name, message); fn's own value is dropped

The generator records a Caught as {"kind": "error", "type", "message"} and a
Warned as {"kind": "warning", "type", "message"}.
"""
import warnings

__all__ = ["Caught", "Warned", "catch", "warns", "PROGRAM_HELPERS"]


class Caught:
    """What `catch` returns when its callable raised."""

    __slots__ = ("type", "bases", "message")

    def __init__(self, exc):
        self.type = type(exc).__name__
        self.bases = [c.__name__ for c in type(exc).__mro__]
        self.message = str(exc)

    def __repr__(self):
        return f"<raised {self.type}: {self.message!r}>"


class Warned:
    """One warning recorded by `warns`."""

    __slots__ = ("type", "bases", "message")

    def __init__(self, record):
        self.type = record.category.__name__
        self.bases = [c.__name__ for c in record.category.__mro__]
        self.message = str(record.message)

    def __repr__(self):
        return f"<warned {self.type}: {self.message!r}>"


def catch(fn):
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001 - recording any error is the point
        return Caught(exc)


def warns(fn):
    with warnings.catch_warnings(record=True) as records:
        warnings.simplefilter("always")
        fn()
    return [Warned(r) for r in records]


# the names every program sees beside `T`
PROGRAM_HELPERS = {"catch": catch, "warns": warns}
