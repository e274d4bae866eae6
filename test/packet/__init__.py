# SPDX-License-Identifier: Apache-2.0
"""Target-agnostic P4Runtime packet tests of the FlowBuf program."""
