import pytest

from pycontrol import paths
from pycontrol.controller.planner import JavaPlanner, PlanningError, moves_from, scheduler_params
from pycontrol.controller.policy import TopologyPolicy
from pycontrol.errors import UserError
from pycontrol.jvm.planner_process import PlanReply
from tests.unit.controller.fakes import model

A, B = "h1:1", "h2:1"
JAR = paths.dist_dir() / "extlib" / "nonstop-scheduling.jar"
needs_jar = pytest.mark.skipif(not JAR.is_file(), reason="build the scheduling plugin first")


def keyed():
    """One spout on A feeding one bolt on A and two on B."""
    return model({"[1,1]": A, "[2,2]": A, "[3,3]": B, "[4,4]": B},
                 {("[1,1]", "[2,2]"): 10.0, ("[1,1]", "[3,3]"): 80.0, ("[1,1]", "[4,4]"): 30.0},
                 components={"[1,1]": "spout", "[2,2]": "bolt", "[3,3]": "bolt", "[4,4]": "bolt"},
                 dag=[("spout", "bolt")], worker_load={A: 0.2, B: 0.2}, node_cpus=2)


def done(rc, out=None, err=None):
    return PlanReply(rc, out, err)


def planned(placement, notes=(), violations=()):
    return {"ok": True, "planning_ms": 3.0, "topologies": [{"id": "wc", "placement": placement, "notes": list(notes),
                                                             "violations": list(violations),
                                                             "inter_node_traffic": 1.0}]}


def test_moves_are_the_difference_to_the_plan_best_first():
    m = keyed()
    moves = moves_from(m, {A: ["[1,1]", "[2,2]", "[3,3]", "[4,4]"], B: []}, "why")
    assert [(x.executor, x.from_slot, x.to_slot, x.expected_gain) for x in moves] == [
        ("[3,3]", B, A, 80.0), ("[4,4]", B, A, 30.0)]
    assert all(x.reason == "why" and x.topology == "wc" for x in moves)


def test_policy_params_become_the_schedulers_and_pinned_executors_are_passed_to_otd():
    otd = TopologyPolicy("otd", {"threshold_asc": 3, "node_cpu_background": False})
    assert scheduler_params(otd, "wc", {"[3,3]"}) == {"otd": {"threshold_asc": 3, "pinned": ["[3,3]"]}}
    assert scheduler_params(TopologyPolicy("aniello-online", {"beta": 0.2}), "wc", set()) == {"aniello": {"beta": 0.2}}
    sam = TopologyPolicy("mba-sam", {"allocation": {"bolt": {"cpu": 0.5, "memory": 0.1}}})
    assert scheduler_params(sam, "wc", set()) == {"sam": {"allocation": {"wc": {"bolt": {"cpu": 0.5, "memory": 0.1}}}}}


def test_the_planner_runs_plancli_on_the_snapshot_and_reads_its_plan():
    seen = {}

    def run(scheduler, doc, timeout_s):
        seen["scheduler"], seen["doc"], seen["timeout"] = scheduler, doc, timeout_s
        return done(0, planned({A: ["[1,1]", "[2,2]", "[3,3]"], B: ["[4,4]"]}, ["otd case 3: move [3,3]"]))

    plan = JavaPlanner(run, timeout_s=7).plan(keyed(), TopologyPolicy("otd", {"node_cpu_background": False}), {"[4,4]"})
    assert seen["scheduler"] == "otd" and seen["timeout"] == 7
    assert seen["doc"]["params"]["otd"]["pinned"] == ["[4,4]"]
    assert "cpu_background" not in seen["doc"]["cluster"]["nodes"][0]
    assert [(x.executor, x.to_slot) for x in plan.moves] == [("[3,3]", A)]
    assert plan.note == "otd case 3: move [3,3]" and plan.moves[0].expected_gain == 80.0


@pytest.mark.parametrize("result, fragment", [
    (done(2, err="input: topology.edges: cycle"), "otd refused the snapshot: input: topology.edges: cycle"),
    (done(3, err="internal error in scheduler otd: java.lang.IllegalStateException: boom"),
     "otd failed (exit 3: internal error): internal error in scheduler otd: java.lang.IllegalStateException"),
    (done(0, planned({A: ["[1,1]"]}, violations=["node CPU"])), "breaks constraints"),
])
def test_planner_failures_are_errors_naming_the_cause(result, fragment):
    with pytest.raises(PlanningError, match=None) as e:
        JavaPlanner(lambda s, d, t: result).plan(keyed(), TopologyPolicy("otd"), set())
    assert fragment in str(e.value)


def test_no_placement_is_a_plan_without_moves_and_a_missing_planner_an_error():
    plan = JavaPlanner(lambda s, d, t: done(1, {"ok": False, "error": "not enough slots"})).plan(
        keyed(), TopologyPolicy("aniello-online"), set())
    assert plan.moves == [] and "aniello-online found no placement: not enough slots" in plan.note

    def missing(s, d, t):
        raise UserError("the scheduling plugin or Storm's jars are missing")
    with pytest.raises(PlanningError, match="jars are missing"):
        JavaPlanner(missing).plan(keyed(), TopologyPolicy("otd"), set())


@pytest.fixture(scope="module")
def java_planner():
    """One real planner process for this module's tests."""
    planner = JavaPlanner(timeout_s=120)
    yield planner
    planner.close()


@needs_jar
def test_the_real_otd_core_moves_the_executor_that_saves_most_and_respects_pins(java_planner):
    policy = TopologyPolicy("otd", {"threshold_asc": 1, "node_cpu_background": False})
    # Moving the spout next to its two heaviest consumers would save 80 + 30 - 10 tuples/s, but OTD never
    # moves a spout (OtdPins): the best bolt move brings [3,3] next to it (80).
    plan = java_planner.plan(keyed(), policy, set())
    assert [(x.executor, x.from_slot, x.to_slot) for x in plan.moves] == [("[3,3]", B, A)]
    assert plan.moves[0].expected_gain == 80.0 and "otd case 3" in plan.note and "ASC 80.0" in plan.note
    pinned = java_planner.plan(keyed(), policy, {"[3,3]"})
    assert [(x.executor, x.to_slot, x.expected_gain) for x in pinned.moves] == [("[4,4]", A, 30.0)]
    assert java_planner._process.starts == 1   # one JVM for every call


@needs_jar
def test_otd_takes_a_workers_last_executor_only_when_the_policy_allows_it(java_planner):
    # [3,3] is alone in its worker on B and would save 80 tuples/s next to the spout on A.
    m = model({"[1,1]": A, "[2,2]": A, "[3,3]": B}, {("[1,1]", "[2,2]"): 10.0, ("[1,1]", "[3,3]"): 80.0},
              components={"[1,1]": "spout", "[2,2]": "bolt", "[3,3]": "bolt"},
              dag=[("spout", "bolt")], worker_load={A: 0.2, B: 0.2}, node_cpus=2)
    base = {"threshold_asc": 1, "node_cpu_background": False}
    assert java_planner.plan(m, TopologyPolicy("otd", base), set()).moves == []
    plan = java_planner.plan(m, TopologyPolicy("otd", {**base, "may_take_last_executor": True}), set())
    assert [(x.executor, x.from_slot, x.to_slot, x.expected_gain) for x in plan.moves] == [("[3,3]", B, A, 80.0)]


@needs_jar
def test_otd_relieves_inside_a_node_only_when_the_policy_allows_it(java_planner):
    # h1:1 is overloaded and h1:2 on the same node has room; h2's only worker is busy but not overloaded.
    A2 = "h1:2"
    m = model({"[1,1]": A, "[2,2]": A, "[3,3]": A2, "[4,4]": B}, {("[1,1]", "[2,2]"): 10.0},
              components={"[1,1]": "spout", "[2,2]": "bolt", "[3,3]": "bolt", "[4,4]": "bolt"},
              dag=[("spout", "bolt")], worker_load={A: 0.95, A2: 0.05, B: 1.5}, node_cpus=2)
    base = {"high_cpu": 0.8, "low_cpu": 0.6, "node_cpu_background": False}
    inside = java_planner.plan(m, TopologyPolicy("otd", base), set())
    assert [(x.executor, x.from_slot, x.to_slot) for x in inside.moves] == [("[2,2]", A, A2)], inside.note
    across = java_planner.plan(m, TopologyPolicy("otd", {**base, "relieve_within_node": False}), set())
    assert across.moves == [] and "no LOW worker with room on another node" in across.note, across.note
