"""A batch collects garbage less often while it runs, and puts the collector back after
(cli/batch_gc.py)."""
import gc

from autodiff.grammar import lean_lane

from conftest import invoke


def test_a_batch_raises_the_young_threshold_while_it_runs_and_restores_it(monkeypatch):
    seen = []
    real_run = lean_lane.run

    def spy(source, bindings, options):
        seen.append((gc.get_threshold()[0], gc.get_freeze_count() > 0))
        return real_run(source, bindings, options)

    monkeypatch.setattr(lean_lane, "run", spy)
    before = gc.get_threshold()
    result = invoke("eval", "-", "--json", input="x = 0.5; sin(x)\nx = 1; y\nx = 2; x**2\n")
    assert result.exit_code == 1                      # the bad line still reports
    assert len(result.output.splitlines()) == 3
    assert seen and all(threshold >= 10_000 and frozen for threshold, frozen in seen)
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_one_job_leaves_the_collector_alone(monkeypatch):
    seen = []
    real_run = lean_lane.run
    monkeypatch.setattr(lean_lane, "run", lambda *a: seen.append(gc.get_threshold()[0]) or real_run(*a))
    before = gc.get_threshold()
    assert invoke("eval", "x*2", "x=1").exit_code == 0
    assert seen == [before[0]]


def test_cycles_made_in_a_batch_are_still_collected():
    class Cycle:
        pass

    from autodiff.cli.batch_gc import batch_collection
    with batch_collection():
        for _ in range(50_000):
            a, b = Cycle(), Cycle()
            a.other, b.other = b, a
        made = [o for o in gc.get_objects() if isinstance(o, Cycle)]
    assert len(made) < 50_000   # collections did run inside: not all 100,000 objects are alive
