"""The UI REST token of a local cluster: generated into the control conf only, read back by clients."""

import stat
from pathlib import Path

import pytest
import yaml

from pycontrol.cli import topology_cmd
from pycontrol.cluster import storm_conf, storm_home, ui_token
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.spec import make_spec
from pycontrol.errors import UserError


def test_generated_tokens_are_long_random_and_url_safe():
    tokens = {ui_token.generate() for _ in range(20)}
    assert len(tokens) == 20
    for t in tokens:
        assert len(t) >= 40 and all(c.isalnum() or c in "-_" for c in t)


def test_the_token_goes_to_the_control_conf_and_never_to_nodes():
    spec = make_spec(Path("/tmp/home"), nodes=2, slots=2)
    layout = Layout(spec.home)
    assert storm_conf.control_conf(spec, layout, ui_token="t" * 43)["nonstop.ui.token"] == "t" * 43
    assert "nonstop.ui.token" not in storm_conf.control_conf(spec, layout)
    for node in spec.node_specs:
        assert "nonstop.ui.token" not in storm_conf.node_conf(spec, layout, node)


def test_read_gives_the_token_or_none(tmp_path):
    assert ui_token.read(tmp_path) is None
    (tmp_path / "storm.yaml").write_text(yaml.safe_dump({"ui.port": 8080}))
    assert ui_token.read(tmp_path) is None
    (tmp_path / "storm.yaml").write_text(yaml.safe_dump({"nonstop.ui.token": "abc-0123456789-xyz"}))
    assert ui_token.read(tmp_path) == "abc-0123456789-xyz"
    (tmp_path / "storm.yaml").write_text("nonstop.ui.token: [unclosed")
    with pytest.raises(UserError, match="cannot read nonstop.ui.token"):
        ui_token.read(tmp_path)


def test_the_control_conf_holding_the_token_is_private_to_its_owner(tmp_path):
    path = tmp_path / "conf" / "storm.yaml"
    path.parent.mkdir()
    path.write_text("old: 1\n")
    path.chmod(0o644)
    storm_home._write_yaml(path, {"nonstop.ui.token": "secret-0123456789"}, private=True)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert yaml.safe_load(path.read_text()) == {"nonstop.ui.token": "secret-0123456789"}


def test_the_cli_sends_the_local_token_only_to_the_local_cluster(tmp_path, monkeypatch):
    (tmp_path / "storm.yaml").write_text(yaml.safe_dump({"nonstop.ui.token": "local-token-0123456789"}))
    monkeypatch.delenv(topology_cmd.UI_TOKEN_ENV, raising=False)
    assert topology_cmd._rest("http://127.0.0.1:8080", tmp_path).token == "local-token-0123456789"
    assert topology_cmd._rest("http://other:8080", tmp_path, explicit_ui=True).token is None
    monkeypatch.setenv(topology_cmd.UI_TOKEN_ENV, "other-token-0123456789")
    assert topology_cmd._rest("http://other:8080", tmp_path, explicit_ui=True).token == "other-token-0123456789"
