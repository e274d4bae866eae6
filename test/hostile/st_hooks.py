# SPDX-License-Identifier: Apache-2.0
"""Schemathesis hooks for test_rest_api (loaded through SCHEMATHESIS_HOOKS).

Generated path parameters and bodies are as often as not about the lab's
switch and its objects, so that requests get past "no such device" into the
code that acts on them; the rest stay what schemathesis makes up."""
import schemathesis
from hypothesis import strategies as st
from schemathesis.specs.openapi.checks import content_type_conformance

DEVICE = "device:s1"
KNOWN = {
    "deviceId": [DEVICE],
    "bufferId": ["b1", "held", "ready-1", "auto-1", "auto-2"],
    "intentId": ["1", "2", "3"],
    "id": ["1", "2"],
}


def _maybe_known(name, generated):
    if name not in KNOWN:
        return st.just(generated)
    return st.one_of(st.just(generated), st.sampled_from(KNOWN[name]))


@schemathesis.hook
def flatmap_path_parameters(context, path_parameters):
    if not path_parameters:
        return st.just(path_parameters)
    return st.fixed_dictionaries({name: _maybe_known(name, value)
                                  for name, value in path_parameters.items()})


@schemathesis.hook
def flatmap_body(context, body):
    if not isinstance(body, dict) or not isinstance(body.get("deviceId"), str):
        return st.just(body)
    return st.sampled_from([body, dict(body, deviceId=DEVICE)])


@schemathesis.check
def content_type_unless_no_content(ctx, response, case):
    """content_type_conformance, except for a 204 No Content: with no body
    there is no type to send (a DELETE answers 204, its errors JSON)."""
    if response.status_code == 204 and not response.content:
        return None
    return content_type_conformance(ctx, response, case)
