"""Performance model tables: interpolation, T(ω), ω̂/τ̂, the paper's anchors, the file format."""

from __future__ import annotations

import pytest

from pycontrol.errors import UserError
from pycontrol.sizing.models import (ORIGINS, ModelRow, StaticModel, TableModel, load_models, model_catalog,
                                     origin_counts, paper_models, parse_models)


def table(*rows):
    return TableModel("m", tuple(ModelRow(q, w, c, m) for q, w, c, m in rows))


def test_interpolates_linearly_between_measured_thread_counts():
    m = table((1, 10, 0.1, 0.2), (5, 30, 0.5, 0.6))
    assert m.peak_rate(3) == pytest.approx(20)
    assert m.cpu(2) == pytest.approx(0.2)
    assert m.memory(4) == pytest.approx(0.5)
    assert m.peak_rate(5) == 30


def test_values_are_held_flat_beyond_the_last_measured_count():
    m = table((1, 10, 0.1, 0.2), (5, 30, 0.5, 0.6))
    assert (m.peak_rate(50), m.cpu(50), m.memory(50)) == (30, 0.5, 0.6)


def test_threads_for_is_the_smallest_count_reaching_the_rate():
    m = table((1, 10, 0.1, 0.1), (5, 30, 0.5, 0.5))
    assert m.threads_for(10) == 1
    assert m.threads_for(10.0001) == 2
    assert m.threads_for(20) == 3
    assert m.threads_for(0.3) == 1
    with pytest.raises(ValueError, match="exceeds one slot's best rate"):
        m.threads_for(31)


def test_best_rate_and_bundle_on_a_bell_curve_take_the_smallest_count():
    m = table((1, 5, 0.1, 0.1), (4, 20, 0.4, 0.4), (6, 20, 0.5, 0.5), (8, 15, 0.6, 0.6))
    assert m.best_rate == 20
    assert m.bundle_threads == 4


def test_invalid_thread_count_is_rejected():
    m = table((1, 10, 0.1, 0.1))
    with pytest.raises(ValueError):
        m.peak_rate(0)


@pytest.mark.parametrize("rows, message", [
    ((), "has no rows"),
    (((2, 10, 0.1, 0.1),), "needs a row for 1 thread"),
    (((1, 10, 0.1, 0.1), (1, 12, 0.1, 0.1)), "distinct thread counts"),
    (((1, 0, 0.1, 0.1),), "rate > 0"),
])
def test_bad_tables_are_rejected(rows, message):
    with pytest.raises(UserError, match=message):
        table(*rows)


# --- the paper's models --------------------------------------------------------------------------

def test_paper_models_cover_the_five_tasks_and_static_source_and_sink():
    models = paper_models()
    assert set(models) == {"parse_xml", "pi", "file_write", "azure_blob", "azure_table", "source", "sink"}
    assert models["source"] == StaticModel("source", 1, 0.10, 0.15, models["source"].description)
    assert (models["sink"].cpu, models["sink"].memory) == (0.10, 0.20)


def test_every_paper_model_value_says_where_it_comes_from():
    counts = origin_counts(paper_models())
    assert counts["unknown"] == 0
    assert counts["stated"] > 0 and counts["chosen"] > 0
    assert set(counts) == {*ORIGINS, "unknown"}


@pytest.mark.parametrize("model, best_rate, bundle", [
    ("parse_xml", 310, 1),    # peak with 1 thread, falling after
    ("pi", 110, 2),           # "about 110 tuples/sec" with 2 threads
    ("file_write", 60000, 1),
    ("azure_blob", 30, 50),   # "30 tuple/sec with 50 threads"
    ("azure_table", 40, 60),  # §8 behaviour: a full slot of 60 threads gives 40 t/s
])
def test_paper_bundles(model, best_rate, bundle):
    m = paper_models()[model]
    assert (m.best_rate, m.bundle_threads) == (best_rate, bundle)


def test_paper_anchor_values():
    m = paper_models()
    blob, table_, xml, pi = m["azure_blob"], m["azure_table"], m["parse_xml"], m["pi"]
    assert (blob.peak_rate(1), blob.cpu(1), blob.memory(1)) == (2, 0.0674, 0.2392)
    assert blob.threads_for(10) == 20 and (blob.cpu(20), blob.memory(20)) == (0.15, 0.26)
    assert table_.threads_for(20) == 40
    assert table_.peak_rate(2) == 5 and table_.peak_rate(9) == 10   # §8.4.1
    assert table_.threads_for(10) == 9
    assert (xml.peak_rate(1), xml.cpu(1), xml.memory(1)) == (310, 0.85, 0.2298)
    assert xml.peak_rate(7) == 255
    assert (pi.peak_rate(1), pi.cpu(1), pi.cpu(2)) == (105, 0.90, 0.95)


def test_interpolated_three_table_threads_give_about_six_tuples_per_second():
    # §8.5.1: "we interpolate ... which estimates the rate supported at 6 tuples/sec"
    assert paper_models()["azure_table"].peak_rate(3) == pytest.approx(5.714, abs=1e-3)


# --- file format ---------------------------------------------------------------------------------

def test_a_models_file_adds_to_and_replaces_the_paper_models(tmp_path):
    path = tmp_path / "m.yaml"
    path.write_text(
        "models:\n"
        "  azure_blob:\n"
        "    rows:\n"
        "      - {threads: 1, rate: 4, cpu: 0.1, memory: 0.1}\n"
        "  enrich:\n"
        "    static: {cpu: 0.3, memory: 0.2}\n")
    models = model_catalog(path)
    assert models["azure_blob"].peak_rate(1) == 4
    assert models["enrich"] == StaticModel("enrich", 1, 0.3, 0.2)
    assert models["pi"] == paper_models()["pi"]
    assert load_models(path)["azure_blob"].max_threads == 1


def test_rows_may_come_in_any_order():
    models = parse_models({"models": {"m": {"rows": [
        {"threads": 4, "rate": 8, "cpu": 0.4, "memory": 0.4},
        {"threads": 1, "rate": 2, "cpu": 0.1, "memory": 0.1}]}}})
    assert models["m"].peak_rate(2) == pytest.approx(4)


@pytest.mark.parametrize("doc, message", [
    ({}, r"missing key\(s\) models"),
    ({"models": {}}, "defines no models"),
    ({"models": {"m": {}}}, "exactly one of 'rows'"),
    ({"models": {"m": {"rows": [], "static": {"cpu": 0, "memory": 0}}}}, "exactly one of 'rows'"),
    ({"models": {"m": {"rows": [{"threads": 1, "rate": 2, "cpu": 0.1}]}}}, r"missing key\(s\) memory"),
    ({"models": {"m": {"rows": [{"threads": 1.5, "rate": 2, "cpu": 0.1, "memory": 0.1}]}}}, "whole number"),
    ({"models": {"m": {"rows": [{"threads": 1, "rate": -2, "cpu": 0.1, "memory": 0.1}]}}}, "must be > 0"),
    ({"models": {"m": {"rows": [{"threads": 1, "rate": 2, "cpu": 0.1, "memory": 0.1,
                                 "origin": {"rate": "guessed"}}]}}}, "origin must be one of"),
    ({"models": {"m": {"static": {"cpu": 0.1}}}}, r"missing key\(s\) memory"),
])
def test_malformed_model_documents_are_rejected_clearly(doc, message):
    with pytest.raises(UserError, match=message):
        parse_models(doc, origin="m.yaml")


def test_unknown_model_name_lists_the_known_ones():
    with pytest.raises(UserError, match=r"task 'Q' uses model 'nope'.*known: azure_blob"):
        paper_models().require("nope", task="Q")
