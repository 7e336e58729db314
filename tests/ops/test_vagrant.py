"""vagrant/Vagrantfile: valid for Vagrant, and the VMs and Ansible groups it makes are those of the
table the netns inventory reads (ansible/inventories/nodes.yml). No VM is booted (no hardware
virtualisation here, and boxes come from the network): the Vagrantfile is loaded by plain Ruby with
a stand-in for Vagrant that records every setting."""

from __future__ import annotations

import json

import pytest

from tests.ops.conftest import ANSIBLE_DIR, REPO, ops_bin, run, system_tool

pytestmark = pytest.mark.ops

VAGRANTFILE = REPO / "vagrant" / "Vagrantfile"

# A stand-in for Vagrant: Vagrant.configure yields a recorder; `x.y = v` records a setting, a call
# with arguments or a block (vm.define "n" do ... end, vm.provider "virtualbox" do ... end,
# vm.network "private_network", ip: ...) records the call and what its block set.
RECORDER = r"""
require "json"
class Recorder
  def initialize; @settings = {}; @calls = []; @children = {}; end
  def method_missing(name, *args, **kw, &block)
    key = name.to_s
    return @settings[key.chomp("=")] = args.first if key.end_with?("=")
    if args.empty? && kw.empty? && block.nil?
      return @children[key] ||= Recorder.new
    end
    inner = Recorder.new
    block&.call(inner)
    @calls << { "method" => key, "args" => args, "options" => kw, "block" => inner.to_h }
    inner
  end
  def respond_to_missing?(*) = true
  def to_h
    @settings.merge("calls" => @calls).merge(@children.transform_values(&:to_h))
  end
end
module Vagrant
  def self.configure(_version)
    $recorded = Recorder.new
    yield $recorded
  end
end
load ARGV.fetch(0)
puts JSON.generate($recorded.to_h)
"""


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> dict:
    script = tmp_path_factory.mktemp("vagrant") / "record.rb"
    script.write_text(RECORDER)
    p = run([system_tool("ruby"), script, VAGRANTFILE], cwd=VAGRANTFILE.parent)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def machines(recorded: dict) -> dict[str, dict]:
    return {c["args"][0]: c["block"] for c in recorded["vm"]["calls"] if c["method"] == "define"}


def netns_inventory() -> tuple[dict[str, set[str]], dict[str, dict]]:
    p = run([ops_bin("ansible-inventory"), "-i", "inventories/netns", "--list"], cwd=ANSIBLE_DIR, timeout_s=60)
    assert p.returncode == 0, p.stderr
    inv = json.loads(p.stdout)
    groups = {g: set(v.get("hosts", [])) for g, v in inv.items() if g not in ("_meta", "all", "ungrouped")}
    for g, v in inv.items():
        for child in v.get("children", []):
            if g not in ("all",):
                groups[g] = groups.get(g, set()) | groups.get(child, set())
    return groups, inv["_meta"]["hostvars"]


def test_vagrantfile_is_valid_ruby_and_valid_for_vagrant(tmp_path):
    assert run([system_tool("ruby"), "-c", VAGRANTFILE]).returncode == 0
    env = {"VAGRANT_HOME": str(tmp_path / "home"), "VAGRANT_DOTFILE_PATH": str(tmp_path / "dot"),
           "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    p = run([system_tool("vagrant"), "validate", "--ignore-provider"], cwd=VAGRANTFILE.parent, env=env, timeout_s=180)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "validated successfully" in p.stdout


def test_one_vm_per_table_host_with_its_own_address_and_size(recorded):
    _, hostvars = netns_inventory()
    vms = machines(recorded)
    assert sorted(vms) == sorted(hostvars)
    for name, vm in vms.items():
        index = int(hostvars[name]["node_index"])
        assert vm["vm"]["hostname"] == name
        (net,) = [c for c in vm["vm"]["calls"] if c["method"] == "network"]
        assert net["args"] == ["private_network"] and net["options"]["ip"] == f"192.168.56.{10 + index}"
        providers = {c["args"][0]: c["block"] for c in vm["vm"]["calls"] if c["method"] == "provider"}
        assert set(providers) == {"virtualbox", "libvirt"}
        for p in providers.values():
            assert p["memory"] == hostvars[name]["vm_memory_mb"] and p["cpus"] == hostvars[name]["vm_cpus"]


def test_one_ansible_run_provisions_every_vm_with_the_netns_inventory_groups(recorded):
    groups, hostvars = netns_inventory()
    vms = machines(recorded)
    provisioners = [(name, c) for name, vm in vms.items() for c in vm["vm"]["calls"] if c["method"] == "provision"]
    assert len(provisioners) == 1
    name, prov = provisioners[0]
    assert name == list(vms)[-1] and prov["args"] == ["ansible"]
    ans = prov["block"]
    assert ans["limit"] == "all"
    assert (VAGRANTFILE.parent / ans["playbook"]).resolve() == ANSIBLE_DIR / "site.yml"
    assert (VAGRANTFILE.parent / ans["config_file"]).resolve() == ANSIBLE_DIR / "ansible.cfg"
    assert {g: set(h) for g, h in ans["groups"].items()} == groups
    assert {h: v["node_address"] for h, v in ans["host_vars"].items()} == {
        h: f"192.168.56.{10 + int(v['node_index'])}" for h, v in hostvars.items()}
