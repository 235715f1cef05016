"""A language program run in-process as `autodiff run` runs it: its printed output and its error."""
import io

from autodiff.grammar.errors import LanguageError, format_error
from autodiff.grammar.program import Session


def run_program(source, dtype="float32", max_steps=100_000_000, max_depth=200):
    """(stdout, the error as `autodiff run` words it, or None) of `source` run with --dtype `dtype`."""
    return run_counted(source, dtype, max_steps, max_depth)[:2]


def run_counted(source, dtype="float32", max_steps=100_000_000, max_depth=200):
    """run_program's (stdout, error) and the steps the interpreter counted."""
    out = io.StringIO()
    session = Session(out=out, dtype=dtype, max_steps=max_steps, max_depth=max_depth)
    try:
        session.run(source)
        error = None
    except LanguageError as e:
        error = format_error(e, source)
    finally:
        session.close()
    return out.getvalue(), error, session.interpreter.steps
