"""What the torch.nn golden generators (gen_nn_lazy.py, gen_nn_more_modules.py, gen_nn_rnn.py,
gen_nn_attention.py, gen_nn_transformer.py) share: the record of a bad call, of a module's
parameters and of the gradients after a backward, and writing the file."""
import json

import torch


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


def parameters_of(module):
    return {n: p.tolist() for n, p in module.named_parameters()}


def grads_of(inputs, module):
    """{input_grads, parameter_grads} after a backward: each input's .grad, each parameter's."""
    return {"input_grads": [x.grad.tolist() for x in inputs],
            "parameter_grads": {n: p.grad.tolist() for n, p in module.named_parameters()}}


def sine_input(shape, offset):
    """sin(offset, offset + 1, ...) in `shape`, wanting a gradient: the generators' inputs."""
    n = torch.Size(shape).numel()
    return torch.sin(torch.arange(float(n)) + offset).reshape(shape).requires_grad_()


def made(source, shapes, namespace):
    """(module, its parameters as recorded, inputs): the module made after manual_seed(0), one
    sine_input per shape, each offset by 3."""
    torch.manual_seed(0)
    module = eval(source, namespace)
    return module, parameters_of(module), [sine_input(s, 3 * i) for i, s in enumerate(shapes)]
