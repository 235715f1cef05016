"""autodiff.cli: the click application (options in, formatted results out; no math)."""
