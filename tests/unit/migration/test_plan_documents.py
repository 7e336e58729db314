import pytest

from pycontrol.errors import UserError
from pycontrol.migration.migrate import executor_arg
from pycontrol.wire.decision_document import BadDocument, Decision
from pycontrol.wire.executor import ExecutorId
from pycontrol.wire.plan_document import parse_target, placement_problem, plan_doc


@pytest.mark.parametrize("text, expected", [("[3-3]", (3, 3)), ("[3,5]", (3, 5)), ("3", (3, 3)), (" 4-6 ", (4, 6))])
def test_executor_ids_in_every_spelling(text, expected):
    assert executor_arg(text) == ExecutorId(*expected)


@pytest.mark.parametrize("text", ["", "x", "[5-3]", "[3;3]"])
def test_bad_executor_ids_are_refused(text):
    with pytest.raises(UserError):
        executor_arg(text)


def test_targets_split_at_the_last_colon_and_need_a_port():
    assert parse_target("127.0.0.12:37121") == ("127.0.0.12", 37121)
    assert parse_target("sup-1:a:6700") == ("sup-1:a", 6700)
    for bad in ("127.0.0.12", ":6700", "h:0", "h:99999", "h:x"):
        with pytest.raises(UserError):
            parse_target(bad)


def test_plan_document_uses_the_schedulers_spelling():
    doc = plan_doc({ExecutorId(3, 3): ("127.0.0.12", 37121), ExecutorId(1, 2): ("h", 1)}, "r1")
    assert doc == {"request_id": "r1", "placement": {"[1,2]": "h:1", "[3,3]": "127.0.0.12:37121"}}


def test_a_decision_answers_only_its_own_plan_version_and_topology_instance():
    d = Decision.from_doc({"status": "applied", "plan_version": 4, "topology_id": "relay-1-9", "request_id": "r",
                           "decided_at_ms": 5, "moves": [{"executor": "[3,3]"}]})
    assert d.answers("relay-1-9", 4)
    assert not d.answers("relay-1-9", 3)
    assert not d.answers("relay-2-10", 4)


@pytest.mark.parametrize("text, code", [("[0,0]", "bad_span"), ("[-1,-1]", "bad_span"),
                                        ("[1,2147483647]", "span_too_large")])
def test_an_executor_outside_the_span_rule_is_refused_before_a_plan_is_written(text, code):
    with pytest.raises(UserError, match=code):
        executor_arg(text)


def test_placement_problem_names_the_executor_the_topology_lacks():
    assert placement_problem({"[2,2]": "h:1"}, {(2, 2)}, "t-1") is None
    assert (placement_problem({"[9-9]": "h:1"}, {(2, 2)}, "t-1")
            == "unknown_executor: executor [9,9] is not an executor of t-1")
    assert placement_problem({"[1,200000]": "h:1"}, None, "t-1").startswith("executor [1,200000]: span_too_large")


def test_the_writer_refuses_a_placement_the_scheduler_would_reject_by_the_span_rule():
    assert plan_doc({ExecutorId(3, 3): ("h", 1)}, "r")["placement"] == {"[3,3]": "h:1"}
    with pytest.raises(UserError, match=r"plan not written: executor \[1,2147483647\]: span_too_large"):
        plan_doc({ExecutorId(1, 2**31 - 1): ("h", 1)}, "r")


@pytest.mark.parametrize("doc, fragment", [
    ([1, 2], "must be a JSON object"),
    ({"status": "applied", "plan_version": "four"}, "plan_version must be an integer"),
    ({"status": "applied", "plan_version": True}, "plan_version must be an integer"),
    ({"status": "applied", "plan_version": 4, "decided_at_ms": "soon"}, "decided_at_ms must be an integer"),
    ({"status": "applied", "plan_version": 4, "moves": "all"}, "moves must be a list of objects"),
    ({"status": "applied", "plan_version": 4, "request_id": 7}, "request_id must be a string"),
])
def test_a_malformed_decision_raises_the_one_documented_error(doc, fragment):
    with pytest.raises(BadDocument, match=fragment):
        Decision.from_doc(doc)
