"""How the `autodiff` process ends (cli/main.py `_leave`): with no exit handler registered it ends
at once once its output is flushed; where one is (some site packages register one at start-up),
the interpreter's usual exit runs it, with every object frozen so that the teardown's garbage
collections skip the heap. Each test runs the console script's entry point in a fresh interpreter,
as a user's shell does, since what is checked is the end of the process."""
import subprocess
import sys
import textwrap

JOBS = "".join(f"x = {k / 7!r}; sin(x)*x**3\n" for k in range(1, 41))


def _run(code, stdin=JOBS):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], input=stdin, capture_output=True,
                          text=True, timeout=120)


def test_with_an_exit_handler_the_handler_runs_and_the_teardown_skips_the_heap():
    proc = _run("""
        import atexit, gc, sys
        atexit.register(lambda: sys.stderr.write(f"handler: frozen={gc.get_freeze_count()}\\n"))
        sys.argv = ["autodiff", "eval", "-", "--json", "--order", "3"]
        from autodiff.cli.main import main
        main()
    """)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 40 and all('"order": 3' in line for line in lines)
    handler = [line for line in proc.stderr.splitlines() if line.startswith("handler: ")]
    assert len(handler) == 1, proc.stderr
    assert int(handler[0].split("=")[1]) > 10_000   # the modules, the batch's templates and recordings


def test_with_an_exit_handler_a_failed_job_keeps_its_exit_status():
    proc = _run("""
        import atexit, sys
        atexit.register(lambda: sys.stderr.write("handler ran\\n"))
        sys.argv = ["autodiff", "eval", "-", "--json"]
        from autodiff.cli.main import main
        main()
    """, stdin="x = 1; x*2\nx = 1; y\n")
    assert proc.returncode == 1
    assert len(proc.stdout.splitlines()) == 2 and proc.stderr.endswith("handler ran\n")


def test_without_an_exit_handler_the_process_ends_once_its_output_is_flushed():
    # where no exit handler is registered, _leave ends the process itself: nothing after main() runs
    proc = _run("""
        import atexit, sys
        while atexit._ncallbacks():  # (a site package's, where one registered at start-up)
            atexit._clear()
        sys.argv = ["autodiff", "eval", "-", "--json"]
        from autodiff.cli.main import main
        main()
        print("after main")
    """)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 40 and "after main" not in proc.stdout
