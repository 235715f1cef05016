"""`eval --dask ADDRESS`: a batch sharded over a real Dask cluster (a
LocalCluster of two worker processes, started here) writes exactly what one
process writes with --json (same bytes, same order, same exit status), keeps
every line exactly once when a worker dies mid-batch, reads its input as it
goes, and fails cleanly (no traceback) without Dask or without a cluster."""
import logging
import os
import random
import socket
import subprocess
import sys

import pytest

distributed = pytest.importorskip("distributed")
cloudpickle = pytest.importorskip("cloudpickle")

from autodiff.cli import dask_batch  # noqa: E402
from autodiff.grammar.job import JobOptions  # noqa: E402

EXPRESSIONS = ["x**2", "sin(x)*y", "x*", "exp(x)/y", "print('hi'); x+1", "sqrt(x)", "nope", "log(x)*y**2",
               "[x, y]", "x > 1"]
ARGS = ("x=1.5", "y=2", "--weights", "1")


def _batch(n, seed=3):
    rng = random.Random(seed)
    lines = [rng.choice(EXPRESSIONS) for _ in range(n)]
    lines[5], lines[6] = "x*", "nope"  # a syntax error and a NameError, whatever the draw
    raw = "\n".join(lines).encode() + b"\n"
    return raw.replace(b"x**2\n", b"x\xff**2\n", 1)  # one line that is not UTF-8


BATCH = _batch(300)


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=logging.ERROR) as c:
        yield c


@pytest.fixture(scope="module")
def client(cluster):
    with distributed.Client(cluster.scheduler_address, set_as_default=False) as c:
        yield c


@pytest.fixture(scope="module")
def local(cli):
    """The batch as one process runs it."""
    result = cli.invoke("eval", "-", *ARGS, "--json", input=BATCH)
    assert result.exit_code == 1 and result.stdout.count("\n") == 300
    assert '"type": "SyntaxError"' in result.stdout and '"type": "NameError"' in result.stdout
    return result


@pytest.fixture
def partition(monkeypatch):
    """Partitions of `size` lines, so that a few hundred lines make many."""
    def use(size):
        monkeypatch.setattr(dask_batch, "PARTITION", size)
    return use


def test_a_cluster_writes_what_one_process_writes(cli, cluster, local, partition):
    partition(64)
    result = cli.invoke("eval", "-", *ARGS, "--json", "--dask", cluster.scheduler_address, input=BATCH)
    assert result.exit_code == 1  # some jobs failed, as locally
    assert result.stdout == local.stdout and result.stderr == local.stderr


def test_long_dot_products_on_the_cluster_have_this_processs_bits(cli, cluster):
    """Dask's workers run OpenBLAS on one thread, this process on every core: a dot product of
    50,000 float64 numbers, which OpenBLAS would split among threads, has the same bits in both
    (engine/kernels.py's matmul sums long ones itself)."""
    batch = "".join(f"x = torch.linspace(0, {k}, 50000, dtype=torch.float64); {f}\n"
                    for k in (1, 2, 3) for f in ("torch.dot(torch.sin(x), torch.cos(x) + x)",
                                                 "torch.einsum('i,i->', torch.sin(x), x)",
                                                 "(torch.sin(x).unsqueeze(0) @ x.unsqueeze(1)).sum()"))
    here = cli.invoke("eval", "-", "--json", input=batch)
    there = cli.invoke("eval", "-", "--json", "--dask", cluster.scheduler_address, input=batch)
    assert here.exit_code == 0 and there.exit_code == 0, (here.stderr, there.stderr)
    assert there.stdout == here.stdout and here.stdout.count("\n") == 9


def test_dask_means_json_lines_and_o_writes_the_file(cli, cluster, local, tmp_path):
    out = tmp_path / "out.jsonl"
    result = cli.invoke("eval", "-f", "-", *ARGS, "--dask", cluster.scheduler_address, "-o", str(out), input=BATCH)
    assert result.exit_code == 1 and result.stdout == ""
    assert out.read_bytes() == local.stdout.encode()
    # -o without --dask writes the same lines too
    assert cli.invoke("eval", "-", *ARGS, "--json", "-o", str(out), input=BATCH).stdout == ""
    assert out.read_bytes() == local.stdout.encode()


def test_an_all_good_batch_exits_0(cli, cluster, partition):
    partition(50)
    batch = "".join(f"x*{k}\n" for k in range(200))
    result = cli.invoke("eval", "-", "x=1", "--dask", cluster.scheduler_address, input=batch)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line.split(",")[0] for line in lines] == [f'{{"line": {k}' for k in range(1, 201)]
    assert lines[-1] == ('{"line": 200, "expr": "x*199", "value": 199.0, "shape": [], '
                         '"dtype": "float64", "device": "cpu", "order": 1, "grad": {"x": 199.0}}')


class _DieOnce(distributed.WorkerPlugin):
    """Kills the worker process that starts running partition `index` of a
    batch; once (the marker file says it happened), so the retry goes through."""

    def __init__(self, marker, index):
        self.marker, self.index = marker, index

    def transition(self, key, start, finish, **kwargs):
        if finish != "executing" or not (str(key).startswith("autodiff-eval-") and str(key).endswith(f"-{self.index}")):
            return
        try:
            os.close(os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return
        os._exit(1)


def test_a_worker_lost_mid_batch_loses_and_repeats_no_line(cli, cluster, client, local, partition, tmp_path):
    partition(16)  # 19 partitions; the worker running the fourth dies
    marker = tmp_path / "killed"
    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the plugin travels by value
    try:
        register = getattr(client, "register_plugin", None) or client.register_worker_plugin  # Dask < 2023.9
        register(_DieOnce(str(marker), 3), name="die-once")
        result = cli.invoke("eval", "-", *ARGS, "--json", "--dask", cluster.scheduler_address, input=BATCH)
    finally:
        client.unregister_worker_plugin("die-once")
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    assert marker.exists()  # a worker did die mid-batch
    assert result.exit_code == 1
    assert result.stdout == local.stdout  # every line once, in order
    client.wait_for_workers(2, timeout=30)  # the nanny brought it back, for the tests after this one


def test_input_is_read_as_it_goes(cluster, client, partition):
    partition(16)
    consumed = [0]

    def lines():
        for k in range(1, 16 * 40 + 1):
            consumed[0] = k
            yield k, f"{k}", None

    seen = []
    chunk_args = dict(pairs=[], options=JobOptions(), as_json=True, graph_format=None, precision=6, where=None)
    failed = dask_batch._run(client, cluster.scheduler_address, lines(), chunk_args,
                             progress=lambda done: seen.append((done, consumed[0])))
    assert failed == 0
    limit = dask_batch._in_flight(client)
    assert max(read - done for done, read in seen) <= 16 * (limit + 1)  # never the whole input
    assert seen[-1][0] == 640


def _closed_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_cluster_is_a_clean_error(cli, monkeypatch):
    monkeypatch.setattr(dask_batch, "CONNECT_TIMEOUT", 1)
    address = f"tcp://127.0.0.1:{_closed_port()}"
    result = cli.fails("eval", "-", "x=1", "--json", "--dask", address, input="x\n")
    assert result.stdout == ""
    assert result.stderr.startswith(f"error: cannot reach the Dask scheduler at {address}: "), result.stderr
    assert result.stderr.count("\n") == 1


def test_what_is_not_an_address_is_a_usage_error(cli):
    assert "--dask" in cli.usage_error("eval", "-", "x=1", "--dask", "nonsense", input="x\n")


def test_without_dask_installed_the_install_hint(cli, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` fails as when it is missing
    message = cli.usage_error("eval", "-", "x=1", "--dask", "tcp://127.0.0.1:8786", input="x\n")
    assert "pip install 'autodiff-cli[dask]'" in message


def test_usage_errors_of_dask(cli):
    assert "batch" in cli.usage_error("eval", "x", "x=1", "--dask", "tcp://127.0.0.1:8786")
    assert "JSON Lines" in cli.usage_error("eval", "-", "--format", "text", "--dask", "tcp://127.0.0.1:8786",
                                           input="x\n")
    assert "--jobs" in cli.usage_error("eval", "-", "--jobs", "2", "--dask", "tcp://127.0.0.1:8786", input="x\n")


def test_eval_does_not_import_dask():
    code = ("import sys\nfrom autodiff.cli.main import main\n"
            "try:\n    main(['eval', '-', 'x=1', '--json', '--jobs', '2'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))")
    proc = subprocess.run([sys.executable, "-c", code], input="x*2\nsin(x)\n", capture_output=True, text=True,
                          timeout=60)
    assert proc.stdout.splitlines()[-1] == "[]", proc.stdout + proc.stderr


def test_dask_local_from_the_console_script(cli):
    batch = "".join(f"{e}\n" for e in EXPRESSIONS) * 3
    one = cli.invoke("eval", "-", *ARGS, "--json", input=batch)
    proc = cli.console("eval", "-", *ARGS, "--dask", "local", "--jobs", "1", input=batch)
    assert proc.returncode == one.exit_code == 1
    assert proc.stdout == one.stdout and proc.stderr == one.stderr


def test_a_local_clusters_matrix_products_have_one_processs_bits(cli):
    """`--dask local` starts its workers with this process's BLAS threads, not Dask's one: OpenBLAS's
    matrix products (64x784 by 784x128 already) give other bits on another number of threads."""
    batch = "".join(f"torch.manual_seed({k}); (torch.randn(64, 784, dtype=torch.float64) @ "
                    f"torch.randn(784, 128, dtype=torch.float64)).sum()\n" for k in range(4))
    one = cli.console("eval", "-", "--json", input=batch)
    proc = cli.console("eval", "-", "--json", "--dask", "local", "--jobs", "2", input=batch)
    assert proc.returncode == one.returncode == 0, proc.stderr
    assert proc.stdout == one.stdout and proc.stdout.count("\n") == 4
