from pycontrol.controller.clock import ManualClock
from pycontrol.controller.daemon import Daemon
from pycontrol.controller.prom import ControllerMetrics
from pycontrol.controller.state_store import FencedOut


class Lead:
    def __init__(self, grant_after: int = 0):
        self.grant_after = grant_after
        self.asked = 0
        self.held = False
        self.released = False

    def acquire(self, timeout_s):
        self.asked += 1
        self.held = self.asked > self.grant_after
        return self.held

    def is_leader(self):
        return self.held

    def release(self):
        self.held, self.released = False, True

    def contenders(self):
        return ["other"] if not self.held else ["me"]


class Loop:
    def __init__(self, clock, fail=None, took_s=1.0):
        self.clock, self.fail, self.took_s = clock, list(fail or []), took_s
        self.metrics = ControllerMetrics()
        self.cycles = []

    def cycle(self):
        self.cycles.append(self.clock.now())
        self.clock.advance(self.took_s)
        if self.fail:
            raise self.fail.pop(0)
        return []


def daemon(lead, loop, clock):
    return Daemon(loop, lead, clock, cycle_s=5, wait=lambda s: clock.sleep(s) or False)


def test_a_standby_runs_nothing_until_it_leads_then_cycles_on_the_period():
    clock = ManualClock(0)
    lead, loop = Lead(grant_after=2), Loop(clock)
    assert daemon(lead, loop, clock).run(max_cycles=3) == 3
    assert loop.cycles == [10, 15, 20]          # two 5 s waits as standby; each 1 s cycle padded to 5 s
    assert lead.released and loop.metrics.registry.get_sample_value("nonstop_controller_is_leader") == 0


def test_a_fenced_out_or_failing_cycle_does_not_end_the_daemon():
    clock = ManualClock(0)
    loop = Loop(clock, fail=[FencedOut("someone wrote"), RuntimeError("bug")])
    d = daemon(Lead(), loop, clock)
    assert d.run(max_cycles=3) == 3 and d.fenced == 1 and d.failed == 1
    assert loop.metrics.registry.get_sample_value("nonstop_controller_fenced_cycles_total") == 1


def test_stopping_ends_the_run_and_releases_the_lead():
    clock = ManualClock(0)
    lead, loop = Lead(), Loop(clock)
    d = Daemon(loop, lead, clock, cycle_s=5, wait=lambda s: True)   # asked to stop during the first wait
    assert d.run() == 1 and lead.released


def test_the_leader_gauge_follows_the_lead_itself_even_mid_cycle():
    clock = ManualClock(0)
    lead = Lead()
    seen = []

    class Watching(Loop):
        def cycle(self):
            gauge = lambda: self.metrics.registry.get_sample_value("nonstop_controller_is_leader")  # noqa: E731
            seen.append(gauge())
            lead.held = False            # the lead is lost mid-cycle (a ZooKeeper blip)
            seen.append(gauge())
            return super().cycle()

    loop = Watching(clock)
    assert loop.metrics.registry.get_sample_value("nonstop_controller_is_leader") == 0
    daemon(lead, loop, clock).run(max_cycles=1)
    assert seen == [1, 0]
