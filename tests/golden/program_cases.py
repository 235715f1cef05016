"""A registry of named programs for a golden file: ordinary cases and calls expected to fail,
each kept as dedented source (shared by the generators that record programs)."""
import json
import textwrap


def registry():
    """(cases, errors, case, error): two lists of (name, source), and the functions that add to them."""
    cases, errors = [], []

    def case(name, program):
        cases.append((name, textwrap.dedent(program).strip() + "\n"))

    def error(name, program):
        errors.append((name, textwrap.dedent(program).strip() + "\n"))

    return cases, errors, case, error


def write_golden(out, cases, errors, namespace, record, run_error, reprs=()):
    """Record every case and bad call under PyTorch (the `T` of `namespace()`, seeded 0) and write
    them to `out` as the golden trios' JSON; `reprs` are programs leaving their printout in `text`."""
    torch = namespace()["T"]
    torch.manual_seed(0)
    recorded = {name: record(program, namespace()) for name, program in cases}
    raised = {name: run_error(program, namespace()) for name, program in errors}
    for name, got in raised.items():
        assert got is not None, f"{name}: PyTorch raised nothing"
    data = {"torch": torch.__version__, "cases": recorded, "errors": raised}
    if reprs:
        data["reprs"] = {}
        for name, program in reprs:
            ns = namespace()
            exec(program, ns)
            data["reprs"][name] = ns["text"]
    with open(out, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(recorded)} cases, {len(raised)} errors and {len(data.get('reprs', ()))} reprs to {out}")
