"""`autodiff functions [FILTER]`: the names a program can use, each with a one-line summary.

The list is the language's own catalogue (grammar/catalog.py), built from the
tables the language resolves names with: every name shown resolves in a
program, and nothing that resolves is left out but the engine's plumbing.
The REPL's `help` shows the same text.
"""
import difflib
import json
import sys

import click

__all__ = ["functions_command", "render_list", "render_entry", "help_text"]

LEGEND = ("A function is also torch.NAME, save for Python's built-ins.  m: also a Tensor method, x.NAME(...).  "
          "_: also in place, NAME_(x) / x.NAME_(...).")
MAX_NAME = 26


def _flags(entry):
    method = f"Tensor.{entry.name}" in entry.also
    inplace = any(a.endswith("_") and not entry.name.endswith("_") for a in entry.also)
    return ("m" if method else " ") + ("_" if inplace else " ")


def render_list(entries, legend=True):
    """The entries by group, one line each: name, flags, summary."""
    width = min(MAX_NAME, max((len(e.name) for e in entries), default=0))
    lines = [LEGEND] if legend else []
    group = None
    for e in entries:
        if e.group != group:
            group = e.group
            if lines:
                lines.append("")
            lines.append(group)
        name = e.name if len(e.name) <= width else e.name + "\n  " + " " * width
        lines.append(f"  {name:<{width}}  {_flags(e)}  {e.summary}")
    return "\n".join(lines) + "\n"


def _spelling(name):
    """How a program writes one of an entry's other spellings (Tensor.sin, a method, is x.sin())."""
    return "x." + name[len("Tensor."):] + "()" if name.startswith("Tensor.") else name


def render_entry(entry):
    """One entry in full: signature, summary, kind and group, the other spellings."""
    head = entry.signature or entry.name
    if entry.name.startswith("Tensor."):
        head = "x." + (entry.signature or entry.name[len("Tensor."):])
    lines = [head, f"  {entry.summary}", f"  {entry.kind}; {entry.group}"]
    if entry.also:
        lines.append("  also: " + ", ".join(_spelling(a) for a in entry.also))
    return "\n".join(lines) + "\n"


def _suggestions(text):
    from ..grammar.catalog import catalog
    spellings = [s for e in catalog() for s in e.spellings()]
    return difflib.get_close_matches(text, spellings, n=3, cutoff=0.6)


def help_text(query=None):
    """What `help` / `help NAME` shows: the catalogue, one entry in full, the
    entries whose names contain NAME, or a line saying none does (with close names)."""
    from ..grammar.catalog import catalog, lookup, search
    if not query:
        return render_list(catalog())
    entry = lookup(query)
    found = search(query)
    if entry is not None:
        others = [e for e in found if e is not entry]
        return render_entry(entry) + ("\nNames that contain it:\n" + render_list(others, legend=False)
                                      if others and len(others) <= 12 else "")
    if found:
        return render_list(found, legend=False)
    close = _suggestions(query)
    hint = f" (did you mean {' or '.join(close)}?)" if close else ""
    return f"no name contains '{query}'{hint}; `help` lists them all\n"


@click.command("functions")
@click.version_option(package_name="autodiff-cli", prog_name="autodiff")
@click.argument("filter_text", metavar="[FILTER]", required=False, default="")
@click.option("--json", "as_json", is_flag=True, help="A JSON list: name, kind, group, signature, summary, also.")
def functions_command(filter_text, as_json):
    """The functions, methods, attributes and namespaces a program can use, with one line on each.

    FILTER keeps the names that contain it (torch.X, x.X and X_ spellings count);
    a FILTER that names one thing exactly shows it in full. Exit 1 when no name
    contains FILTER.

    \b
    autodiff functions            # everything, by group
    autodiff functions linalg     # torch.linalg's functions
    autodiff functions sin        # sin, asin, sinh, ...
    autodiff functions --json
    """
    from ..grammar.catalog import lookup, search
    found = search(filter_text)
    exact = lookup(filter_text) if filter_text.strip() else None
    if exact is not None and exact not in found:
        found = [exact]  # F.relu, torch.nn.functional.relu: another spelling of relu
    if as_json:
        sys.stdout.write("[" + ",\n ".join(json.dumps(e.as_json()) for e in found) + "]\n")
        sys.exit(0 if found else 1)
    if not found:
        close = _suggestions(filter_text.strip())
        hint = f"; did you mean {' or '.join(close)}?" if close else ""
        click.echo(f"no name contains '{filter_text}'{hint}", err=True)
        sys.exit(1)
    if exact is not None and len(found) == 1:
        sys.stdout.write(render_entry(exact))
        return
    sys.stdout.write(render_list(found, legend=not filter_text.strip()))
    if exact is not None:
        sys.stdout.write("\n" + render_entry(exact))
