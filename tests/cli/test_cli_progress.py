"""The batch progress line (cli/progress.py): a bar for a file, a count for a pipe,
redrawn in place and wiped at the end."""
import io

from autodiff.cli.progress import Progress


class _Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_a_file_gets_a_bar_with_percent_jobs_and_rate(tmp_path):
    path = tmp_path / "jobs.txt"
    path.write_bytes(b"x = 1; x*2\n" * 10)            # 110 bytes
    out, clock = io.StringIO(), _Clock()
    with open(path, "rb") as stream:
        progress = Progress(stream, out=out, clock=clock)
        assert progress.total == 110
        reader = progress.reader(stream)
        for _ in range(4):
            reader.read1(11)  # four lines of eleven bytes
        clock.now += 2.0
        progress.update(4)
    assert out.getvalue() == "\r[============>                 ]  40%  4 jobs  2 jobs/s\033[K"
    progress.close()
    assert out.getvalue().endswith("\r\033[K")


def test_a_pipe_gets_a_count_and_redraws_are_throttled():
    out, clock = io.StringIO(), _Clock()
    progress = Progress(io.BytesIO(b"x = 1; x*2\n"), out=out, clock=clock)   # no file number: size unknown
    assert progress.total is None
    clock.now += 0.05
    progress.update(3)                                     # within the redraw interval: nothing
    assert out.getvalue() == ""
    clock.now += 0.5
    progress.update(12345)
    assert out.getvalue() == "\r12,345 jobs  22,445 jobs/s\033[K"


def test_nothing_drawn_nothing_wiped():
    out = io.StringIO()
    Progress(io.BytesIO(b""), out=out).close()
    assert out.getvalue() == ""


def test_the_line_is_only_wanted_for_a_terminal_watching_redirected_results(monkeypatch):
    import sys
    from autodiff.cli import progress

    class Tty(io.StringIO):
        def __init__(self, tty):
            super().__init__()
            self.tty = tty

        def isatty(self):
            return self.tty

    for err_tty, out_tty, expected in [(True, False, True), (True, True, False), (False, False, False)]:
        monkeypatch.setattr(sys, "stderr", Tty(err_tty))
        monkeypatch.setattr(sys, "stdout", Tty(out_tty))
        assert progress.wanted() is expected
