# SPDX-License-Identifier: Apache-2.0
"""The CLI reference page, generated from the commands' own help: the ONOS
(Karaf) commands' @Command/@Argument/@Option annotations, read from their
sources with a Java parser (javalang), and cli/flowbuf's argparse parser."""
import argparse
import ast
import importlib.machinery
import importlib.util
import pathlib
import re

import javalang

ROOT = pathlib.Path(__file__).resolve().parents[2]
KARAF_SOURCES = ROOT / "cli" / "src" / "main" / "java" / "org" / "flowbuf" / "cli"
FLOWBUF_CLI = ROOT / "cli" / "flowbuf"


def _value(node):
    """An annotation element's value: literals, string concatenation, arrays."""
    if node is None:
        return None
    if isinstance(node, javalang.tree.Literal):
        return ast.literal_eval(node.value) if node.value not in ("true", "false") \
            else node.value == "true"
    if isinstance(node, javalang.tree.BinaryOperation) and node.operator == "+":
        return f"{_value(node.operandl)}{_value(node.operandr)}"
    if isinstance(node, javalang.tree.ElementArrayValue):
        return [_value(v) for v in node.values]
    if isinstance(node, javalang.tree.MemberReference):
        return f"{node.qualifier + '.' if node.qualifier else ''}{node.member}"
    return None


def _annotation(annotations, name):
    for a in annotations:
        if a.name == name:
            if a.element is None:
                return {}
            if isinstance(a.element, list):
                return {pair.name: _value(pair.value) for pair in a.element}
            return {"value": _value(a.element)}
    return None


def _classes():
    """Every class of the CLI package: name -> (declaration, superclass name)."""
    found = {}
    for path in sorted(KARAF_SOURCES.glob("*.java")):
        tree = javalang.parse.parse(path.read_text())
        for decl in tree.types:
            if isinstance(decl, javalang.tree.ClassDeclaration):
                found[decl.name] = (decl, decl.extends.name if decl.extends else None)
    return found


def _fields(decl, annotation):
    out = []
    for field in decl.fields:
        ann = _annotation(field.annotations, annotation)
        if ann is not None:
            ann.setdefault("field", field.declarators[0].name)
            out.append(ann)
    return out


def karaf_commands():
    """[{name, description, class, arguments, options}] for every @Command class,
    with the arguments and options it inherits from the package's base classes."""
    classes = _classes()
    commands = []
    for name, (decl, _) in classes.items():
        command = _annotation(decl.annotations, "Command")
        if command is None:
            continue
        arguments, options, chain = [], [], name
        while chain in classes:
            base_decl, chain = classes[chain]
            arguments += _fields(base_decl, "Argument")
            options += _fields(base_decl, "Option")
        arguments.sort(key=lambda a: a.get("index", 0))
        commands.append({"name": command.get("name"), "description": command.get("description", ""),
                         "class": name, "arguments": arguments, "options": options})
    return sorted(commands, key=lambda c: c["name"])


def _flowbuf_module():
    loader = importlib.machinery.SourceFileLoader("flowbuf_cli", str(FLOWBUF_CLI))
    spec = importlib.util.spec_from_loader("flowbuf_cli", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def flowbuf_verbs():
    """(verb, its -h text) for every verb of cli/flowbuf, and the top-level help."""
    module = _flowbuf_module()
    top = module.parser()
    sub = next(a for a in top._actions if isinstance(a, argparse._SubParsersAction))
    verbs = [(verb, p.format_help()) for verb, p in sub.choices.items()]
    return top.format_help(), sorted(verbs)


def anchor(name):
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _cell(text):
    return " ".join(str(text or "").split()).replace("|", "\\|")


def render_karaf(command):
    lines = [f"### `{command['name']}` {{#{anchor(command['name'])}}}", "",
             _cell(command["description"]) + f" (`{command['class']}`)", ""]
    if command["arguments"] or command["options"]:
        lines += ["| argument or option | required | meaning |", "|---|---|---|"]
        for a in command["arguments"]:
            many = " …" if a.get("multiValued") else ""
            lines.append(f"| `{a.get('name', a['field'])}`{many} | {'yes' if a.get('required') else ''} "
                         f"| {_cell(a.get('description'))} |")
        for o in command["options"]:
            names = ", ".join([o.get("name", "")] + list(o.get("aliases") or []))
            many = " (repeatable)" if o.get("multiValued") else ""
            lines.append(f"| `{names}`{many} | {'yes' if o.get('required') else ''} "
                         f"| {_cell(o.get('description'))} |")
        lines.append("")
    return lines


def render():
    top_help, verbs = flowbuf_verbs()
    commands = karaf_commands()
    lines = ["# CLI commands (generated)", "",
             "Generated at `make docs` time from the commands' own help: the ONOS (Karaf) "
             "commands' `@Command`, `@Argument` and `@Option` annotations in `cli/src`, and "
             "`cli/flowbuf`'s argument parser (`cli/flowbuf VERB -h`). "
             f"{len(commands)} ONOS commands, {len(verbs)} `cli/flowbuf` verbs. "
             "How they fit together: [CLI](cli.md).", "",
             "## ONOS (Karaf) commands", ""]
    for command in commands:
        lines += render_karaf(command)
    lines += ["## `cli/flowbuf` (over REST)", "", "`cli/flowbuf -h`:", "", "```text",
              top_help.rstrip(), "```", ""]
    for verb, text in verbs:
        lines += [f"### `flowbuf {verb}` {{#flowbuf-{anchor(verb)}}}", "", "```text",
                  text.rstrip(), "```", ""]
    return "\n".join(lines) + "\n"
