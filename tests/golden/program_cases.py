"""A registry of named programs for a golden file: ordinary cases and calls expected to fail,
each kept as dedented source (shared by the generators that record programs)."""
import textwrap


def registry():
    """(cases, errors, case, error): two lists of (name, source), and the functions that add to them."""
    cases, errors = [], []

    def case(name, program):
        cases.append((name, textwrap.dedent(program).strip() + "\n"))

    def error(name, program):
        errors.append((name, textwrap.dedent(program).strip() + "\n"))

    return cases, errors, case, error
