"""`pycontrol simulate grouping`: argument handling, stream preparation, and real runs of the simulator jar."""

from __future__ import annotations

import gzip
import json

import pytest
from click.testing import CliRunner

from pycontrol import paths
from pycontrol.cli import main
from pycontrol.errors import UserError
from pycontrol.grouping import simulator, streams
from pycontrol.traces.replay import ReplayEvent

JAR = paths.dist_dir() / simulator.SIM_JAR
needs_jar = pytest.mark.skipif(not JAR.is_file(), reason="build the simulator first: "
                               "mvn -q -pl storm-plugins/grouping -am package")


def invoke(*args: str):
    return CliRunner().invoke(main, ["simulate", "grouping", *args], standalone_mode=False, catch_exceptions=True)


def option(args: list[str], name: str) -> str:
    return args[args.index(name) + 1]


@pytest.mark.parametrize("changes, message", [
    (dict(schemes=("kg", "magic")), "schemes must be among"),
    (dict(capacities="heterogeneous", strong_workers=10), "0 < strong workers < workers"),
    (dict(changes=("100=1,1",)), "need --capacities changing"),
    (dict(idle_below=0.9, busy_above=0.7), "idle-below < busy-above"),
    (dict(zipf_exponent=0.0), "Zipf exponent must be > 0"),
    (dict(messages=0, sources=0), "messages must be positive"),
])
def test_a_bad_request_names_what_is_wrong(changes, message):
    with pytest.raises(UserError, match=message):
        simulator.Request(**changes)


def test_jar_arguments_follow_the_request(tmp_path):
    zipf = simulator.Request(zipf_exponent=1.5, keys=300, workers=4, capacities="heterogeneous", strong_workers=1,
                             strong_factor=3.0, schemes=("kg", "cg")).jar_args(tmp_path / "o.json")
    assert (option(zipf, "--zipf-exponent"), option(zipf, "--keys"), option(zipf, "--schemes")) == ("1.5", "300", "kg,cg")
    assert (option(zipf, "--workers"), option(zipf, "--strong-workers"), option(zipf, "--strong-factor")) == ("4", "1", "3")
    assert "--keys-file" not in zipf and "--time-slot" not in zipf
    keyed = simulator.Request(keys_file=tmp_path / "k.txt", time_slot=77).jar_args(tmp_path / "o.json")
    assert option(keyed, "--keys-file") == str(tmp_path / "k.txt") and "--zipf-exponent" not in keyed
    assert option(keyed, "--time-slot") == "77" and "--strong-workers" not in keyed


def test_changing_capacities_default_to_two_changes_that_keep_the_total():
    args = simulator.Request(capacities="changing", workers=5, messages=900, strong_factor=3.0).capacity_args()
    changes = [args[i + 1] for i, a in enumerate(args) if a == "--capacity-change"]
    assert [c.split("=")[0] for c in changes] == ["300", "600"]
    first, second = ([float(x) for x in c.split("=")[1].split(",")] for c in changes)
    assert len(first) == 5 and sum(first) == pytest.approx(5.0) and sum(second) == pytest.approx(5.0)
    assert first[0] == pytest.approx(3 * first[-1]) and second == list(reversed(first))
    explicit = simulator.Request(capacities="changing", workers=2, changes=("10=2,1",)).capacity_args()
    assert explicit == ["--workers", "2", "--capacity-change", "10=2,1"]


def test_sweeps_parse_typed_values_and_refuse_unknown_parameters():
    assert simulator.parse_sweep("workers=5, 10,20") == ("workers", [5, 10, 20])
    assert simulator.parse_sweep("epsilon=0.05,0.5") == ("epsilon", [0.05, 0.5])
    with pytest.raises(UserError, match="PARAM one of"):
        simulator.parse_sweep("colour=1,2")
    with pytest.raises(UserError, match="must be ints"):
        simulator.parse_sweep("workers=5,ten")
    with pytest.raises(UserError, match="no values"):
        simulator.parse_sweep("epsilon=")


def test_the_cli_refuses_inconsistent_streams_before_running_anything(tmp_path):
    r = invoke("--stream", "replay", "--out", str(tmp_path / "o"))
    assert isinstance(r.exception, UserError) and "--stream replay needs --input" in str(r.exception)
    keys = tmp_path / "k.txt"
    keys.write_text("a\n")
    r = invoke("--stream", "zipf", "--input", str(keys), "--out", str(tmp_path / "o"))
    assert isinstance(r.exception, UserError) and "--input is for" in str(r.exception)
    r = invoke("--stream", "file", "--input", str(keys), "--sweep", "zipf-exponent=1,2", "--out", str(tmp_path / "o"))
    assert isinstance(r.exception, UserError) and "needs --stream zipf" in str(r.exception)
    r = invoke("--schemes", "kg,nope", "--out", str(tmp_path / "o"))
    assert isinstance(r.exception, UserError) and "nope" in str(r.exception)
    assert not (tmp_path / "o" / "simulation.json").exists()


def test_replay_keys_are_written_one_per_line_in_replay_order(tmp_path):
    replay = tmp_path / "trace" / "replay.ndjson.gz"
    replay.parent.mkdir()
    events = [ReplayEvent(0, "/a"), ReplayEvent(5, "b\nc", "p"), ReplayEvent(9, "  "), ReplayEvent(9, "/a")]
    with gzip.open(replay, "wt", encoding="utf-8") as f:
        f.write("".join(e.to_line() + "\n" for e in events))
    path, n = streams.replay_keys_file(replay.parent, tmp_path / "keys.txt")
    assert (n, path.read_text()) == (3, "/a\nb c\n/a\n")
    assert streams.replay_keys_file(replay, tmp_path / "two.txt", limit=2)[1] == 2
    with pytest.raises(UserError, match="no replay file"):
        streams.replay_keys_file(tmp_path / "nothing", tmp_path / "x.txt")


def test_brown_words_split_like_the_word_counts():
    assert streams.words_of(["The jury said", "  it  did\tso "]) == ["the", "jury", "said", "it", "did", "so"]


@needs_jar
def test_a_real_run_on_a_tiny_keys_file_writes_json_and_figures(tmp_path):
    keys = tmp_path / "keys.txt"
    keys.write_text("".join(f"k{i % 40 if i % 3 else 0}\n" for i in range(3000)))
    out = tmp_path / "run"
    r = invoke("--stream", "file", "--input", str(keys), "--workers", "4", "--sources", "2", "--virtual-workers", "5",
               "--capacities", "heterogeneous", "--strong-factor", "3", "--schemes", "kg,sg,cg", "--samples", "20",
               "--out", str(out), "--json")
    assert r.exception is None, r.output
    summaries = json.loads(r.output[r.output.index("{"):])
    doc = json.loads((out / "simulation.json").read_text())
    assert [run["scheme"] for run in doc["runs"]] == ["kg", "sg", "cg"]
    assert doc["trace"]["messages"] == 3000 and doc["trace"]["distinct_keys"] == 40
    assert summaries["kg"]["memory_total"] == 40, "KG keeps each key on one worker"
    assert sum(summaries["cg"]["virtual_workers_final"]) == 4 * 5, "pairing conserves the virtual workers"
    assert summaries["sg"]["memory_total"] > summaries["kg"]["memory_total"]
    for figure in ("timeseries.png", "summary.png", "virtual-workers.png"):
        assert (out / figure).stat().st_size > 1000


@needs_jar
def test_a_sweep_runs_once_per_value_and_plots_them(tmp_path):
    out = tmp_path / "sweep"
    r = invoke("--messages", "2000", "--keys", "50", "--workers", "3", "--sources", "2", "--schemes", "kg,porc",
               "--sweep", "epsilon=0.05,1.0", "--samples", "10", "--out", str(out))
    assert r.exception is None, r.output
    result = json.loads((out / "sweep.json").read_text())
    assert [p["value"] for p in result["points"]] == [0.05, 1.0]
    assert all((out / p["file"]).is_file() for p in result["points"])
    low, high = (p["summaries"]["porc"] for p in result["points"])
    assert high["memory_total"] <= low["memory_total"], "a larger epsilon replicates keys less"
    assert (out / "sweep.png").is_file()
    assert "epsilon=0.05" in r.output
