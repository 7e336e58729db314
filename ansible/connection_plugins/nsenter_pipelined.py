"""community.docker.nsenter with pipelining: the netns test inventory's connection.

The collection's plugin already hands a command's stdin to the process it starts inside the
namespaces, but declares no pipelining, so Ansible copied every module into a remote temp directory
before running it (three nsenter calls a task instead of one). The netns hosts have no `become` and no
requiretty, so a pipelined module is safe; real hosts use ssh and its own pipelining setting.
"""

from ansible_collections.community.docker.plugins.connection.nsenter import Connection as NsenterConnection

DOCUMENTATION = r"""
name: nsenter_pipelined
short_description: community.docker.nsenter with module pipelining
description:
  - Runs tasks in the namespaces of a process, as community.docker.nsenter does, and pipes each module
    to the remote Python on stdin instead of copying it to a temporary file first.
options:
  nsenter_pid:
    description: PID whose namespaces the tasks enter.
    type: int
    default: 1
    vars:
      - name: ansible_nsenter_pid
  pipelining:
    description: Pipe modules on stdin.
    type: bool
    default: true
    vars:
      - name: ansible_pipelining
"""


class Connection(NsenterConnection):
    transport = "nsenter_pipelined"
    has_pipelining = True
