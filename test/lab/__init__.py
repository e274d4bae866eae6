# SPDX-License-Identifier: Apache-2.0
"""Namespace lab: hosts in Linux network namespaces, veth links, processes.

Used by the demo, the end-to-end tests, the packet tests and the scenarios.
Everything a lab creates carries the lab's name prefix and is removed when the
lab closes, also after a failure.
"""
from .netns import Lab, Host, LabError  # noqa: F401
from .procs import Process, wait_for_tcp  # noqa: F401
