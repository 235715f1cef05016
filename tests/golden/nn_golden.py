"""What the torch.nn golden generators (gen_nn_lazy.py, gen_nn_more_modules.py, gen_nn_rnn.py) share:
the record of a bad call, and writing the file."""
import json


def error_of(source, namespace):
    """{source, type, message} of what evaluating `source` in `namespace` raises (it must raise)."""
    try:
        eval(source, namespace)
    except Exception as e:  # noqa: BLE001 (what PyTorch raises is what is recorded)
        return {"source": source, "type": type(e).__name__, "message": str(e)}
    raise AssertionError(f"{source} raised nothing")


def write(path, data):
    with open(path, "w") as f:
        json.dump(data, f, indent=1)
