"""The one Java command line: argv building, exit codes named, timeouts and start failures as one line."""

from __future__ import annotations

import subprocess

import pytest

from pycontrol.jvm import classpath, plancli, storm_client
from pycontrol.jvm.command import ExitCodes, JavaCommand, JvmError, failure_message, run


def test_a_class_command_puts_options_before_the_classpath_and_arguments_after_the_main_class():
    cmd = JavaCommand("a.b.Main", ("--x", "1"), ("one.jar", "lib/*"), ("-Xmx1g", "-Dk=v"))
    assert cmd.argv("/jdk/bin/java") == ["/jdk/bin/java", "-Xmx1g", "-Dk=v", "-cp", "one.jar:lib/*", "a.b.Main",
                                         "--x", "1"]
    assert cmd.name == "Main"


def test_a_jar_command_runs_the_jar_and_refuses_a_classpath():
    assert JavaCommand("/d/sim.jar", ("-n",), options=("-Xmx1g",), jar=True).argv("java") == [
        "java", "-Xmx1g", "-jar", "/d/sim.jar", "-n"]
    with pytest.raises(ValueError):
        JavaCommand("/d/sim.jar", classpath=("x.jar",), jar=True).argv("java")


@pytest.mark.parametrize("code, stderr, stdout, expected", [
    (2, "INFO noise\nerror: bad input\n", "", "the planner failed (exit 2: bad input): INFO noise / error: bad input"),
    (3, "", "only stdout\n", "the planner failed (exit 3: internal error): only stdout"),
    (7, "", "", "the planner failed (exit 7): no output"),
    (-9, "", "", "the planner failed (killed by signal 9): no output"),
])
def test_a_failed_exit_is_one_line_with_the_codes_meaning_and_the_last_output(code, stderr, stdout, expected):
    done = subprocess.CompletedProcess([], code, stdout, stderr)
    assert failure_message(JavaCommand("M", what="the planner"), done, plancli.EXIT_CODES) == expected
    assert plancli.failure(done) == expected


def test_exit_codes_without_a_meaning_are_plain():
    assert ExitCodes().describe(1) == "exit 1"


def test_a_command_past_its_timeout_is_stopped_and_named(tmp_path):
    java = tmp_path / "java"   # a stand-in that ignores its command line and hangs
    java.write_text("#!/bin/sh\nexec sleep 30\n")
    java.chmod(0o755)
    with pytest.raises(JvmError, match=r"the sleeper took longer than 0.5 s and was stopped \(raise it\)"):
        run(JavaCommand("M", what="the sleeper"), 0.5, "raise it", java=str(java))


def test_a_program_that_cannot_start_is_named(tmp_path):
    with pytest.raises(JvmError, match="cannot run the planner"):
        run(JavaCommand("M", what="the planner"), 5, java=str(tmp_path / "no-java"))


def test_a_missing_build_says_how_to_build(tmp_path, monkeypatch):
    monkeypatch.setenv("PYCONTROL_DIST", str(tmp_path))
    with pytest.raises(Exception, match="mvn -q -pl storm-plugins/scheduling -am package"):
        classpath.planner()


def test_a_storm_client_sees_the_interfaces_topology_components_implement(tmp_path):
    cmd = storm_client.command(tmp_path / "topo.jar", "a.Submit", ["x"], tmp_path / "conf", tmp_path / "dist")
    assert cmd.classpath[0] == str(tmp_path / "topo.jar")
    # Stream groupings and HandoffState: the submitter serialises components that use them.
    assert str(tmp_path / "dist" / classpath.GROUPING_JAR) in cmd.classpath
    assert str(tmp_path / "dist" / classpath.MIGRATION_JAR) in cmd.classpath
    assert cmd.classpath[-1] == str(tmp_path / "conf")
