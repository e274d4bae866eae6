# SPDX-License-Identifier: Apache-2.0
"""The REST reference page, generated from the OpenAPI (swagger 2.0) document
that ONOS's build makes from the REST resources and the embedded host serves
at /ui/apidoc/swagger.json (the host packages this very file: host/pom.xml)."""
import json
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCUMENT = ROOT / "app" / "app" / "target" / "swagger.json"
METHODS = ("get", "put", "post", "delete", "patch")


def load_document(path=DOCUMENT):
    if not path.exists():
        raise SystemExit(f"{path} is missing: it is made by the app's Maven build "
                         "(make docs builds it first)")
    return json.loads(path.read_text())


def operations(doc):
    """(method, path, operation) for every operation, grouped by tag, in path order."""
    ops = [(m, p, o) for p, item in doc["paths"].items()
           for m, o in item.items() if m in METHODS]
    return sorted(ops, key=lambda op: (op[2].get("tags", [""])[0], op[1], METHODS.index(op[0])))


def anchor(method, path):
    return re.sub(r"[^a-z0-9]+", "-", f"{method} {path}".lower()).strip("-")


def schema_anchor(name):
    return "schema-" + re.sub(r"[^a-z0-9]+", "-", name.lower())


def _one_line(text):
    return " ".join((text or "").split()).replace("|", "\\|")


def _type(schema):
    """A short type: string, integer (int64), array of X, a link to a named schema."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return f"[{name}](#{schema_anchor(name)})"
    kind = schema.get("type", "any")
    if kind == "array":
        return "array of " + _type(schema.get("items", {}))
    if "oneOf" in schema:
        return " or ".join(_type(s) for s in schema["oneOf"])
    return kind + (f" ({schema['format']})" if "format" in schema else "")


def _rules(schema):
    """Constraints as words: range, length, items, pattern, enum, default."""
    words = []
    pairs = (("minimum", "≥ {}"), ("maximum", "≤ {}"), ("exclusiveMinimum", "> {}"),
             ("minLength", "length ≥ {}"), ("maxLength", "length ≤ {}"),
             ("minItems", "≥ {} items"), ("maxItems", "≤ {} items"),
             ("pattern", "matches `{}`"), ("default", "default `{}`"))
    for key, form in pairs:
        if key in schema:
            value = json.dumps(schema[key]) if key == "default" else schema[key]
            words.append(form.format(value))
    if "enum" in schema:
        words.append("one of " + ", ".join(f"`{v}`" for v in schema["enum"]))
    if "minProperties" in schema:
        words.append(f"names ≥ {schema['minProperties']} field(s)")
    if "oneOf" in schema:
        words.append("exactly one of: " + " / ".join(_branch(b) for b in schema["oneOf"]))
    if "anyOf" in schema:
        words.append("at least one of: " + " / ".join(_branch(b) for b in schema["anyOf"]))
    for field, needs in schema.get("dependencies", {}).items():
        # A property dependency names fields; a schema dependency is a schema.
        need = (", ".join(f"`{n}`" for n in needs) if isinstance(needs, list)
                else _branch(needs))
        words.append(f"`{field}` needs {need}")
    return "; ".join(words).replace("|", "\\|")


def _branch(schema):
    """One alternative of a oneOf/anyOf (or what a dependency asks) in words."""
    if "title" in schema:
        return schema["title"]
    words = [f"`{name}`" for name in schema.get("required", [])]
    for name, rule in schema.get("properties", {}).items():
        if "enum" in rule:
            words.append(f"`{name}` " + " or ".join(f"`{json.dumps(v)}`" for v in rule["enum"]))
        elif "pattern" in rule:
            words.append(f"`{name}` matching `{rule['pattern']}`")
    return ", ".join(words) or "any"


def _properties_table(schema, lines, prefix=""):
    """Rows for an object's fields, nested objects' fields as a.b."""
    required = set(schema.get("required", []))
    for name, prop in schema.get("properties", {}).items():
        lines.append(f"| `{prefix}{name}` | {_type(prop)} | {'yes' if name in required else ''} | "
                     f"{_rules(prop)} | {_one_line(prop.get('description'))} |")
        if prop.get("type") == "object" and "properties" in prop:
            _properties_table(prop, lines, f"{prefix}{name}.")
        items = prop.get("items", {})
        if items.get("type") == "object" and "properties" in items:
            _properties_table(items, lines, f"{prefix}{name}[].")


def render_schema(name, schema):
    lines = [f"### {name} {{#{schema_anchor(name)}}}", ""]
    if schema.get("description"):
        lines += [_one_line(schema["description"]), ""]
    if "properties" in schema:
        if _rules(schema):
            lines += [f"Rules: {_rules(schema)}.", ""]
        lines += ["| field | type | required | rules | meaning |", "|---|---|---|---|---|"]
        _properties_table(schema, lines)
    else:
        lines.append(f"Type: {_type(schema)}. {_rules(schema)}")
    return lines + [""]


def render_operation(method, path, op):
    lines = [f"### `{method.upper()} {path}` {{#{anchor(method, path)}}}", ""]
    lines += [_one_line(op.get("summary")), ""]
    if op.get("description"):
        lines += [op["description"].strip(), ""]
    params = op.get("parameters", [])
    if params:
        lines += ["| parameter | in | type | required | rules | meaning |", "|---|---|---|---|---|---|"]
        for p in params:
            schema = p.get("schema", p)
            lines.append(f"| `{p['name']}` | {p['in']} | {_type(schema)} | "
                         f"{'yes' if p.get('required') else ''} | {_rules(p)} | "
                         f"{_one_line(p.get('description'))} |")
        lines.append("")
    lines += ["| status | meaning | body |", "|---|---|---|"]
    for status, resp in op.get("responses", {}).items():
        body = _type(resp["schema"]) if "schema" in resp else ""
        lines.append(f"| {status} | {_one_line(resp.get('description'))} | {body} |")
    return lines + [""]


def render(doc):
    tags = {t["name"]: t.get("description", "") for t in doc.get("tags", [])}
    lines = ["# REST operations (generated)", "",
             f"Generated at `make docs` time from the OpenAPI document the host serves "
             f"(`/ui/apidoc/swagger.json`, base path `{doc.get('basePath', '')}`; ONOS's build "
             "writes it to `app/app/target/swagger.json` from the REST resources). "
             f"{len(operations(doc))} operations. How errors look, ownership and examples: "
             "[REST API](rest.md).", ""]
    current = None
    for method, path, op in operations(doc):
        tag = op.get("tags", ["other"])[0]
        if tag != current:
            current = tag
            lines += [f"## {tag} {{#{schema_anchor(tag).replace('schema-', 'tag-', 1)}}}", "", _one_line(tags.get(tag)), ""]
        lines += render_operation(method, path, op)
    lines += ["## Schemas", ""]
    for name in sorted(doc.get("definitions", {})):
        lines += render_schema(name, doc["definitions"][name])
    return "\n".join(lines) + "\n"
