"""torch.nn is imported on a program's first use of it, not at start-up: an `autodiff eval` job never
pays for its ~25 modules. Each test runs a fresh interpreter, since what is checked is the first
moment nn is read (the language's tables take nn's containers at the first value they refuse
after that: grammar/vm.py's _layer_types_added)."""
import subprocess
import sys
import textwrap

import pytest


def _python(code):
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_an_eval_job_leaves_nn_unimported():
    out = _python("""
        import sys
        from autodiff.cli.main import main
        try:
            main(["eval", "a*x**2+b*x+c", "a=1", "b=-2", "c=1", "x=0", "--json"])
        except SystemExit:
            pass
        print(sorted(m for m in sys.modules if m.startswith("autodiff.engine.nn")))
    """)
    first, last = out.strip().splitlines()
    assert '"grad": {"a": 0.0, "b": 0.0, "c": 1.0, "x": -2.0}' in first
    assert last == "[]"


def test_the_engine_gives_nn_on_first_read():
    out = _python("""
        import sys
        import autodiff.engine as E
        before = "autodiff.engine.nn" in sys.modules
        layer = E.nn.Linear(2, 3)
        from autodiff.engine import nn
        print(before, "autodiff.engine.nn" in sys.modules, nn is E.nn, tuple(layer.weight.shape))
    """)
    assert out.split() == ["False", "True", "True", "(3,", "2)"]


# each statement below is the program's first use of one of the language's tables for nn's containers
_FIRST_USES = {
    "iterate": ("net = nn.Sequential(nn.Linear(2, 3), nn.ReLU())\nfor layer in net:\n    print(type(layer).__name__)",
                "Linear\nReLU"),
    "index": ("net = nn.Sequential(nn.Linear(2, 3), nn.ReLU())\nprint(net[1])", "ReLU()"),
    "store": ("layers = nn.ModuleList([nn.Linear(1, 1)])\nlayers[0] = nn.Linear(1, 4)\nprint(layers[0].out_features)",
              "4"),
    "delete": ("d = nn.ModuleDict({'a': nn.Linear(1, 1), 'b': nn.ReLU()})\ndel d['a']\nprint(list(d.keys()))",
               "['b']"),
    "unpack": ("a, b = nn.ModuleList([nn.ReLU(), nn.Tanh()])\nprint(b)", "Tanh()"),
    "subclass": ("class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                 "        self.fc = nn.Linear(2, 1)\n    def forward(self, x):\n        return self.fc(x)\n"
                 "print(Net()(torch.ones(5, 2)).shape)", "torch.Size([5, 1])"),
    "attribute": ("layer = nn.Linear(2, 3)\nprint(layer.in_features, layer.weight.shape)", "2 torch.Size([3, 2])"),
    "functional": ("import torch.nn.functional as F\nprint(F.relu(torch.tensor([-1.0, 2.0])))", "tensor([0., 2.])"),
}


@pytest.mark.parametrize("use", sorted(_FIRST_USES))
def test_a_programs_first_use_of_nn(use, tmp_path):
    program, expected = _FIRST_USES[use]
    script = tmp_path / "p.py"
    script.write_text("import torch\nimport torch.nn as nn\n" + program + "\n")
    out = _python(f"""
        from autodiff.cli.main import main
        try:
            main(["run", {str(script)!r}])
        except SystemExit as e:
            assert not e.code, e.code
    """)
    assert out.strip() == expected


def test_a_value_that_is_no_container_is_still_refused_after_nn_is_read(tmp_path):
    script = tmp_path / "p.py"
    script.write_text("import torch.nn as nn\nlayer = nn.ReLU()\nfor a in 3:\n    pass\n")
    proc = subprocess.run([sys.executable, "-m", "autodiff.cli.main", "run", str(script)], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 1
    assert "a whole number is not iterable" in proc.stderr and "Traceback" not in proc.stderr
