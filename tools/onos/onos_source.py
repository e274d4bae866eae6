#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Reads what an ONOS 2.7 runtime is made of from a checkout of ONOS's source.

ONOS builds with Bazel, which cannot run here, but its build files are
Starlark, close enough to Python to be evaluated with stand-ins for Bazel's
rules. From them this tool takes, without copying any of it by hand:

- the Maven coordinates of every third-party jar
  (tools/build/bazel/generate_workspace.bzl's artifact_map),
- ONOS's Karaf features (tools/package/features/BUILD: onos-api, onos-core, ...),

and it writes a Maven pom that downloads a feature set's jars from Maven
Central, and the Karaf features repository that lists the features whose
bundles are all present in a Karaf system/ directory.

Subcommands (see --help): pom, features-xml, coords.
"""

import argparse
import builtins
import json
import os
import sys
from xml.sax.saxutils import escape, quoteattr

ONOS_GROUP = "org.onosproject"
NON_OSGI = "NON-OSGI"
KARAF_VERSION = "4.2.9"


class _Anything:
    """Stands for whatever a build file uses that this tool does not need
    (Bazel's native module, java_import_external, ...)."""

    def __call__(self, *args, **kwargs):
        return _Anything()

    def __getattr__(self, name):
        return _Anything()


class _BazelBuiltins(dict):
    """Python's builtins, and a stand-in for any other name (Bazel's rule, attr, ...).
    exec() looks names up here with __getitem__ when this is not a plain dict."""

    def __missing__(self, name):
        return _Anything()


class BazelFiles:
    """Evaluates ONOS's .bzl and BUILD files with stand-ins for Bazel's rules."""

    def __init__(self, onos_src):
        self.onos_src = onos_src
        self._modules = {}
        self.rules = []  # (rule kind, kwargs) of every rule a BUILD declared

    def _path(self, label):
        # "//tools/build/bazel:modules.bzl" -> <src>/tools/build/bazel/modules.bzl
        package, _, name = label.lstrip("/").partition(":")
        return os.path.join(self.onos_src, package, name)

    def _load(self, namespace, keep=()):
        def load(label, *symbols, **aliases):
            symbols = [s for s in symbols if s not in keep]
            if label.startswith("@"):  # Bazel's own or an external repository
                for symbol in symbols:
                    namespace[symbol] = _Anything()
                for alias in aliases:
                    namespace[alias] = _Anything()
                return
            module = self.module(label)
            for symbol in symbols:
                namespace[symbol] = module.get(symbol, _Anything())
            for alias, symbol in aliases.items():
                namespace[alias] = module.get(symbol, _Anything())
        return load

    def _namespace(self, extra=None):
        namespace = {"__builtins__": _BazelBuiltins(vars(builtins)),
                     "native": _Anything(), "select": lambda d: d}
        namespace.update(extra or {})
        # load() must not replace the stand-ins this tool gave a BUILD file.
        namespace["load"] = self._load(namespace, keep=set(extra or {}))
        return namespace

    def module(self, label):
        """The globals of a .bzl file after evaluating it."""
        if label not in self._modules:
            namespace = self._namespace()
            with open(self._path(label)) as source:
                code = compile(source.read(), self._path(label), "exec")
            exec(code, namespace)  # noqa: S102 - ONOS's own build file, read-only evaluation
            self._modules[label] = namespace
        return self._modules[label]

    def build_file(self, package):
        """Evaluates //package:BUILD with Bazel's prelude; returns its rules."""
        prelude = dict(self.module("//tools/build/bazel:generate_workspace.bzl"))
        declared = []

        def rule(kind):
            def declare(**kwargs):
                declared.append((kind, kwargs))
            return declare

        names = {name: rule(name) for name in (
            "osgi_feature", "osgi_feature_repo", "osgi_jar", "osgi_jar_with_tests",
            "onos_app", "java_library", "genrule", "filegroup", "java_binary",
            "osgi_proto_jar", "wrapped_osgi_jar")}
        prelude.update(names)
        namespace = self._namespace(prelude)
        path = os.path.join(self.onos_src, package, "BUILD")
        with open(path) as source:
            exec(compile(source.read(), path, "exec"), namespace)  # noqa: S102
        return declared


class Artifacts:
    """Maps Bazel labels to Maven coordinates as ONOS's maven_coordinates() does."""

    def __init__(self, bazel):
        workspace = bazel.module("//tools/build/bazel:generate_workspace.bzl")
        variables = bazel.module("//tools/build/bazel:variables.bzl")
        self.artifact_map = workspace["artifact_map"]
        self.onos_version = variables["ONOS_VERSION"]

    def coordinates(self, label):
        """A dict: group, artifact, version, classifier, type, wrap (a NON-OSGI jar), onos."""
        if label.startswith("@"):
            name = label[1:].split("//")[0]
            mvn = self.artifact_map.get("@%s//:%s" % (name, name))
            if mvn is None:
                raise KeyError("no Maven coordinates for %s in generate_workspace.bzl" % label)
            return parse_mvn(mvn)
        name = label.split(":")[-1]
        return {"group": ONOS_GROUP, "artifact": name, "version": self.onos_version,
                "classifier": "", "type": "jar", "wrap": False, "onos": True}


def parse_mvn(mvn):
    """mvn:group:artifact[:type[:classifier]]:version, classifier NON-OSGI[x] = wrap."""
    parts = mvn.split(":")[1:]
    group, artifact, version = parts[0], parts[1], parts[-1]
    kind = parts[2] if len(parts) > 3 else "jar"
    classifier = parts[3] if len(parts) > 4 else ""
    wrap = classifier.startswith(NON_OSGI)
    if wrap:
        classifier = classifier[len(NON_OSGI):]
    return {"group": group, "artifact": artifact, "version": version,
            "classifier": classifier, "type": kind, "wrap": wrap,
            "onos": group == ONOS_GROUP}


def karaf_url(coord):
    """The Karaf bundle URL: mvn:g/a/v[/type/classifier], wrapped for NON-OSGI jars."""
    url = "mvn:%(group)s/%(artifact)s/%(version)s" % coord
    if coord["classifier"]:
        url += "/%(type)s/%(classifier)s" % coord
    if coord["wrap"]:
        url = "wrap:%s$Bundle-SymbolicName=%s.%s&Bundle-Version=%s" % (
            url, coord["group"], coord["artifact"], coord["version"])
    return url


def repository_path(coord):
    """Where a coordinate's jar sits in a Maven repository layout."""
    name = "%(artifact)s-%(version)s" % coord
    if coord["classifier"]:
        name += "-" + coord["classifier"]
    return os.path.join(coord["group"].replace(".", "/"), coord["artifact"],
                        coord["version"], name + "." + coord["type"])


def onos_features(bazel, artifacts):
    """ONOS's Karaf features as declared in tools/package/features/BUILD."""
    features = {}
    for kind, rule in bazel.build_file("tools/package/features"):
        if kind != "osgi_feature":
            continue
        features[rule["name"]] = {
            "name": rule["name"],
            "description": rule.get("description", rule["name"]),
            "version": rule.get("version", artifacts.onos_version),
            "required": list(rule.get("required_features", ["onos-api"])),
            "bundles": [artifacts.coordinates(label) for label in rule.get("included_bundles", [])],
        }
    return features


def onos_app(bazel, artifacts, package):
    """The ONOS app a package's BUILD declares (onos_app), with ONOS's defaults
    (tools/build/bazel/onos_app.bzl): name onos-<package path>, app name
    org.onosproject.<last path element>, one bundle: the package's own jar."""
    default_name = "onos-" + package.replace("/", "-")
    for kind, rule in bazel.build_file(package):
        if kind != "onos_app":
            continue
        name = rule.get("name", default_name)
        labels = rule.get("included_bundles") or [":" + name]
        return {
            "package": package,
            "name": name,
            "app_name": rule.get("app_name", "org.onosproject." + package.split("/")[-1]),
            "title": rule.get("title", name),
            "origin": rule.get("origin", "ONOS Community"),
            "category": rule.get("category", "Utility"),
            "url": rule.get("url", "http://onosproject.org"),
            "description": rule.get("description") or rule.get("title", name),
            "version": artifacts.onos_version,
            "required_apps": list(rule.get("required_apps", [])),
            "required_features": list(rule.get("required_features", ["onos-api"])),
            "bundles": [artifacts.coordinates(label) for label in labels],
        }
    raise SystemExit("no onos_app in %s/BUILD" % package)


def write_app(app, system_dir, apps_dir):
    """Stages an app as ONOS's packaging does: apps/<app>/app.xml and its
    features repository in system/. Returns the bundles missing from system/."""
    missing = [repository_path(c) for c in app["bundles"]
               if not os.path.exists(os.path.join(system_dir, repository_path(c)))]
    if missing:
        return missing
    version, name = app["version"], app["name"]
    repo_dir = os.path.join(system_dir, ONOS_GROUP.replace(".", "/"), name, version)
    os.makedirs(repo_dir, exist_ok=True)
    feature = ['    <feature name=%s version=%s description=%s>' % (
        quoteattr(name), quoteattr(version), quoteattr(app["title"]))]
    feature += ["        <feature>%s</feature>" % escape(f) for f in app["required_features"]]
    feature += ["        <bundle>%s</bundle>" % escape(karaf_url(c)) for c in app["bundles"]]
    feature.append("    </feature>")
    with open(os.path.join(repo_dir, "%s-%s-features.xml" % (name, version)), "w") as out:
        out.write('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                  '<features xmlns="http://karaf.apache.org/xmlns/features/v1.2.0" '
                  'name=%s>\n%s\n</features>\n' % (quoteattr("%s-%s" % (name, version)),
                                                   "\n".join(feature)))
    app_dir = os.path.join(apps_dir, app["app_name"])
    os.makedirs(app_dir, exist_ok=True)
    artifacts = "".join("    <artifact>%s</artifact>\n" % escape(karaf_url(c))
                        for c in app["bundles"])
    with open(os.path.join(app_dir, "app.xml"), "w") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                  '<app name=%s origin=%s version=%s\n'
                  '        title=%s category=%s url=%s\n'
                  '        featuresRepo=%s\n'
                  '        features=%s apps=%s>\n'
                  '    <description>%s</description>\n%s</app>\n' % (
                      quoteattr(app["app_name"]), quoteattr(app["origin"]), quoteattr(version),
                      quoteattr(app["title"]), quoteattr(app["category"]), quoteattr(app["url"]),
                      quoteattr("mvn:%s/%s/%s/xml/features" % (ONOS_GROUP, name, version)),
                      quoteattr(name), quoteattr(",".join(app["required_apps"])),
                      escape(app["description"]), artifacts))
    return []


def stage_apps(apps, system_dir, apps_dir):
    """Stages every app whose bundles are in system/ and whose required apps
    are staged, in whatever order they are given. Returns (staged app names,
    {left-out app name: what it misses})."""
    staged, left_out, pending = [], {}, list(apps)
    progress = True
    while pending and progress:
        progress = False
        for app in [a for a in pending if all(r in staged for r in a["required_apps"])]:
            pending.remove(app)
            progress = True
            missing = write_app(app, system_dir, apps_dir)
            if missing:
                left_out[app["app_name"]] = missing
            else:
                staged.append(app["app_name"])
    for app in pending:  # a required app is neither staged nor stageable
        left_out[app["app_name"]] = ["app " + r for r in app["required_apps"] if r not in staged]
    return staged, left_out


def select_features(features, wanted):
    unknown = [name for name in wanted if name not in features]
    if unknown:
        raise SystemExit("unknown ONOS feature(s): %s (ONOS declares: %s)"
                         % (", ".join(unknown), ", ".join(sorted(features))))
    return [features[name] for name in wanted]


def write_pom(selected, path, include_onos):
    """A pom whose dependencies are the features' jars, each without its own dependencies."""
    seen, deps = set(), []
    for feature in selected:
        for coord in feature["bundles"]:
            key = repository_path(coord)
            if key in seen or (coord["onos"] and coord["artifact"] not in include_onos):
                continue
            seen.add(key)
            classifier = ("<classifier>%s</classifier>" % escape(coord["classifier"])
                          if coord["classifier"] else "")
            deps.append(
                "    <dependency><groupId>%s</groupId><artifactId>%s</artifactId>"
                "<version>%s</version><type>%s</type>%s"
                "<exclusions><exclusion><groupId>*</groupId><artifactId>*</artifactId>"
                "</exclusion></exclusions></dependency>" % (
                    escape(coord["group"]), escape(coord["artifact"]), escape(coord["version"]),
                    escape(coord["type"]), classifier))
    with open(path, "w") as pom:
        pom.write(POM_TEMPLATE % "\n".join(deps))
    return len(deps)


POM_TEMPLATE = """<?xml version="1.0" encoding="UTF-8"?>
<!-- Generated by tools/onos/onos_source.py: the jars of ONOS's Karaf features. -->
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.flowbuf.tools</groupId>
  <artifactId>onos-runtime-bundles</artifactId>
  <version>0</version>
  <packaging>pom</packaging>
  <dependencies>
%s
  </dependencies>
</project>
"""


def write_features_xml(selected, system_dir, path, onos_version):
    """Writes the features whose bundles are all in system_dir (and whose
    required ONOS features are written too); returns {feature: missing jars}."""
    written, skipped = [], {}
    blocks = []
    for feature in selected:
        missing = [repository_path(c) for c in feature["bundles"]
                   if not os.path.exists(os.path.join(system_dir, repository_path(c)))]
        missing_features = [f for f in feature["required"]
                            if f.startswith("onos-") and f not in written]
        if missing or missing_features:
            skipped[feature["name"]] = missing + ["feature " + f for f in missing_features]
            continue
        written.append(feature["name"])
        lines = ['    <feature name=%s version=%s description=%s>' % (
            quoteattr(feature["name"]), quoteattr(feature["version"]),
            quoteattr(feature["description"]))]
        lines += ["        <feature>%s</feature>" % escape(f) for f in feature["required"]]
        lines += ["        <bundle>%s</bundle>" % escape(karaf_url(c)) for c in feature["bundles"]]
        lines.append("    </feature>")
        blocks.append("\n".join(lines))
    with open(path, "w") as out:
        out.write('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                  '<features xmlns="http://karaf.apache.org/xmlns/features/v1.2.0" '
                  'name="onos-%s">\n' % escape(onos_version))
        out.write("    <repository>mvn:org.apache.karaf.features/standard/%s/xml/features"
                  "</repository>\n" % KARAF_VERSION)
        out.write("\n".join(blocks) + "\n</features>\n")
    return written, skipped


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--onos-src", required=True, help="checkout of ONOS's 2.7.0 source")
    parser.add_argument("--features", default="",
                        help="comma-separated ONOS features, in dependency order")
    parser.add_argument("--apps", default="",
                        help="comma-separated source packages of ONOS apps (drivers/default,...)")
    sub = parser.add_subparsers(dest="command", required=True)
    coords = sub.add_parser("coords", help="print the features' jars as JSON lines")
    coords.add_argument("--onos-only", action="store_true")
    pom = sub.add_parser("pom", help="write a pom of the features' third-party jars")
    pom.add_argument("--out", required=True)
    pom.add_argument("--include-onos", default="",
                     help="comma-separated ONOS artifacts to include (those on Maven Central)")
    stage = sub.add_parser("apps", help="stage the apps whose bundles are all in system/")
    stage.add_argument("--system", required=True, help="Karaf's system/ directory")
    stage.add_argument("--apps-dir", required=True, help="ONOS's apps/ directory")
    xml = sub.add_parser("features-xml", help="write the features repository for what is staged")
    xml.add_argument("--system", required=True, help="Karaf's system/ directory")
    xml.add_argument("--out", required=True)
    args = parser.parse_args(argv)

    bazel = BazelFiles(args.onos_src)
    artifacts = Artifacts(bazel)
    selected = select_features(onos_features(bazel, artifacts),
                               [f for f in args.features.split(",") if f])
    apps = [onos_app(bazel, artifacts, p) for p in args.apps.split(",") if p]
    # An app's bundles count as a feature's for coords and pom.
    selected += [{"name": a["app_name"], "bundles": a["bundles"]} for a in apps]

    if args.command == "coords":
        seen = set()
        for feature in selected:
            for coord in feature["bundles"]:
                if args.onos_only and not coord["onos"]:
                    continue
                if repository_path(coord) not in seen:
                    seen.add(repository_path(coord))
                    print(json.dumps(dict(coord, path=repository_path(coord),
                                          feature=feature["name"])))
    elif args.command == "pom":
        count = write_pom(selected, args.out, set(args.include_onos.split(",")))
        print("%d jars in %s" % (count, args.out))
    elif args.command == "apps":
        staged, left_out = stage_apps(apps, args.system, args.apps_dir)
        for app in staged:
            print("app %s staged" % app)
        for app, missing in left_out.items():
            print("app %s left out, missing: %s" % (app, ", ".join(missing)), file=sys.stderr)
    else:
        selected = [f for f in selected if "required" in f]
        written, skipped = write_features_xml(selected, args.system, args.out,
                                              artifacts.onos_version)
        print("features written: %s" % (", ".join(written) or "none"))
        for name, missing in skipped.items():
            print("feature %s left out, missing: %s" % (name, ", ".join(missing)),
                  file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
