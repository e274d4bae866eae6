# SPDX-License-Identifier: Apache-2.0
"""Schemathesis hooks for test_rest_api (loaded through SCHEMATHESIS_HOOKS).

Generated path parameters and bodies are as often as not about the lab's
switch and its objects, so that requests get past "no such device" into the
code that acts on them; the rest stay what schemathesis makes up."""
import json
import pathlib
import re
import tomllib

import schemathesis
from hypothesis import strategies as st
from schemathesis.core.failures import Failure
from schemathesis.specs.openapi.checks import (content_type_conformance,
                                               negative_data_rejection,
                                               positive_data_acceptance)

DEVICE = "device:s1"
KNOWN = {
    "deviceId": [DEVICE],
    "bufferId": ["b1", "held", "ready-1", "auto-1", "auto-2"],
    "intentId": ["1", "2", "3"],
    "id": ["1", "2"],
}


# The document's formats of the parameters above (the overlay the build lays
# over ONOS's document), so that a value schemathesis made invalid on purpose
# (a negative case) stays what it made: swapped for a known valid one, it
# would be a valid request that the negative checks still count as invalid.
OVERLAY = json.loads(pathlib.Path(__file__).parents[2].joinpath(
    "app", "app", "src", "main", "openapi", "overlay.json").read_text())


def _format(name):
    ref = OVERLAY["parameters"][name]["$ref"]
    return OVERLAY["definitions"][ref.rsplit("/", 1)[1]]


def _valid(name, value):
    schema = _format(name)
    if schema["type"] == "integer":
        if isinstance(value, str) and re.fullmatch(r"-?[0-9]+", value):
            value = int(value)
        return (isinstance(value, int) and not isinstance(value, bool)
                and schema["minimum"] <= value <= schema["maximum"])
    return (isinstance(value, str) and len(value) <= schema.get("maxLength", len(value))
            and re.search(schema["pattern"], value) is not None)


def _maybe_known(name, generated):
    if name not in KNOWN or not _valid(name, generated):
        return st.just(generated)
    return st.one_of(st.just(generated), st.sampled_from(KNOWN[name]))


@schemathesis.hook
def flatmap_path_parameters(context, path_parameters):
    if not path_parameters:
        return st.just(path_parameters)
    return st.fixed_dictionaries({name: _maybe_known(name, value)
                                  for name, value in path_parameters.items()})


GNB_CELL = 1  # the lab's gNodeB's one cell


@schemathesis.hook
def flatmap_body(context, body):
    if isinstance(body, dict) and _valid_cell(body.get("cell")):
        # A bearer: as often on the lab gNodeB's cell as on one made up.
        return st.sampled_from([body, dict(body, cell=GNB_CELL)])
    if not isinstance(body, dict) or not _valid("deviceId", body.get("deviceId")):
        return st.just(body)
    return st.sampled_from([body, dict(body, deviceId=DEVICE)])


def _valid_cell(value):
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 65535


@schemathesis.check
def content_type_unless_no_content(ctx, response, case):
    """content_type_conformance, except for a 204 No Content: with no body
    there is no type to send (a DELETE answers 204, its errors JSON)."""
    if response.status_code == 204 and not response.content:
        return None
    return content_type_conformance(ctx, response, case)


# --checks all: schemathesis also asks that every schema-valid request be
# accepted (positive_data_acceptance) and every schema-violating one refused
# (negative_data_rejection). What the document cannot state is listed, each
# with why, in openapi_exceptions.toml: a refusal matched there by the
# operation and the server's own message passes; any other fails the run.
EXCEPTIONS = pathlib.Path(__file__).with_name("openapi_exceptions.toml")
KNOWN_REFUSALS = tuple((e["rule"], e["operations"], e["message"])
                       for e in tomllib.loads(EXCEPTIONS.read_text())["refusal"])


def _label(case):
    return f"{case.method.upper()} {case.operation.path}"


def _known_refusal(case, response):
    try:
        message = response.json().get("message", "")
    except Exception:  # noqa: BLE001 - not JSON: not a known refusal
        return None
    label = _label(case)
    for reason, operation, pattern in KNOWN_REFUSALS:
        if re.search(operation, label) and re.search(pattern, message):
            return reason
    return None


def _has_null(value):
    if value is None:
        return True
    if isinstance(value, dict):
        return any(_has_null(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_null(v) for v in value)
    return False


@schemathesis.check
def positive_data_acceptance_but_known(ctx, response, case):
    """positive_data_acceptance, except the known refusals above."""
    try:
        return positive_data_acceptance(ctx, response, case)
    except Failure:
        if _known_refusal(case, response):
            return None
        raise


@schemathesis.check
def negative_data_rejection_but_known(ctx, response, case):
    """negative_data_rejection, except one known acceptance and one refusal
    it does not count: an explicit JSON null in a body is taken as the
    field's absence (the document has no way to say "nullable" in swagger
    2.0); a 413 (a body over 1 MiB, e.g. a batch far over its maxItems) is
    a refusal that changed nothing, which schemathesis does not list among
    the rejection statuses."""
    if response.status_code == 413:
        return None
    try:
        return negative_data_rejection(ctx, response, case)
    except Failure:
        if _has_null(case.body):
            return None
        raise
