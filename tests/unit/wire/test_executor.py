import pytest

from pycontrol.wire.executor import MAX_TASK_ID, ExecutorId


def test_the_wire_spelling_round_trips():
    e = ExecutorId.parse("[3,4]")
    assert e == ExecutorId(3, 4) and str(e) == "[3,4]"
    assert ExecutorId.parse(str(ExecutorId(-1, -1))) == ExecutorId(-1, -1)


def test_the_ui_spelling_is_read_only_where_it_is_asked_for():
    assert ExecutorId.from_ui("[3-4]") == ExecutorId(3, 4)
    assert ExecutorId.from_ui("[-1--1]").system
    assert ExecutorId(3, 4).ui == "[3-4]"
    with pytest.raises(ValueError):
        ExecutorId.parse("[3-4]")
    with pytest.raises(ValueError):
        ExecutorId.from_ui("[3,4]")


@pytest.mark.parametrize("text", ["", "3,4", "[3,4", "3,4]", "[ 3,4]", "[3, 4]", "[3,4] ", "[a,b]", "[3]",
                                  "[3,4,5]", "[0,0]", "[-2,-1]", "[5,4]", f"[1,{MAX_TASK_ID + 1}]",
                                  "[1,99999999999999999999999]"])
def test_the_wire_parser_is_strict(text):
    with pytest.raises(ValueError):
        ExecutorId.parse(text)


def test_an_id_is_not_made_of_anything_but_a_span():
    for start, end in [(0, 1), (4, 3), (-3, -3), (1, MAX_TASK_ID + 1), (True, 1)]:
        with pytest.raises(ValueError):
            ExecutorId(start, end)
    assert ExecutorId(1, MAX_TASK_ID).end == MAX_TASK_ID


def test_ids_order_as_storm_lists_executors_not_as_text():
    ids = [ExecutorId.parse(t) for t in ("[10,10]", "[2,2]", "[1,1]")]
    assert [str(e) for e in sorted(ids)] == ["[1,1]", "[2,2]", "[10,10]"]


@pytest.mark.parametrize("text, expected", [("[3-3]", (3, 3)), ("[3,5]", (3, 5)), ("3", (3, 3)), (" 4-6 ", (4, 6))])
def test_what_an_operator_types(text, expected):
    assert ExecutorId.from_typed(text) == ExecutorId(*expected)


@pytest.mark.parametrize("text, code", [("[0,0]", "bad_span"), ("[1,2147483647]", "span_too_large"),
                                        ("x", "not an executor")])
def test_what_an_operator_types_is_held_to_the_span_rule(text, code):
    with pytest.raises(ValueError, match=code):
        ExecutorId.from_typed(text)


def test_task_ids_of_a_span_never_run_away():
    assert list(ExecutorId(3, 4).task_ids) == [3, 4]
    assert ExecutorId(1, MAX_TASK_ID).task_ids == range(0)
    assert list(ExecutorId(-1, -1).task_ids) == [-1]
