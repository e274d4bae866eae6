/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.apps.FmmPlan;
import org.flowbuf.api.apps.HandoffPlan;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.device.DeviceService;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * An LMM handoff plan or an FMM session's plan checked against the network
 * before its first step.
 * A step that fails later is undone, but the undo is no "nothing changed":
 * it pauses and resumes the UE's resident buffer again (new intents, the
 * downlink held meanwhile), and a port no switch has is refused by nothing
 * at all (the handoff starts and the UE's packets go out of a port that
 * does not exist at attach).
 */
final class PlanCheck {

    /**
     * What the controller knows of the network's devices and ports.
     */
    interface Network {
        /** Everything known: where the controller has no port model. */
        Network ANY = new Network() {
            @Override
            public boolean hasDevice(DeviceId device) {
                return true;
            }

            @Override
            public boolean hasPort(ConnectPoint port) {
                return true;
            }
        };

        /**
         * ONOS's devices and their ports (from the device drivers: gNMI for Stratum).
         *
         * @param devices ONOS's device service
         * @return the network
         */
        static Network of(DeviceService devices) {
            return new Network() {
                @Override
                public boolean hasDevice(DeviceId device) {
                    return devices.getDevice(device) != null;
                }

                @Override
                public boolean hasPort(ConnectPoint port) {
                    return devices.getPort(port) != null;
                }
            };
        }

        /**
         * Whether the device exists.
         *
         * @param device device id
         * @return true when known
         */
        boolean hasDevice(DeviceId device);

        /**
         * Whether the device has the port.
         *
         * @param port a port of a known device
         * @return true when known
         */
        boolean hasPort(ConnectPoint port);
    }

    private final Network network;
    private final Supplier<Set<DeviceId>> agentDevices;

    /**
     * A check on a network and on the devices that have a buffer agent.
     *
     * @param network      devices and ports
     * @param agentDevices devices with a buffer agent (the Buffer Service's)
     */
    PlanCheck(Network network, Supplier<Set<DeviceId>> agentDevices) {
        this.network = Objects.requireNonNull(network);
        this.agentDevices = Objects.requireNonNull(agentDevices);
    }

    /**
     * Refuses a plan naming a device or a port the network does not have,
     * or buffering at an eNB without a buffer agent.
     *
     * @param plan the plan
     * @throws FlowBufException NOT_FOUND naming the plan's field
     */
    void check(HandoffPlan plan) {
        checkPorts(ports(plan));
        if (plan.buffered()) {
            checkAgents(List.of(plan.source(), plan.target()), "a FlowBuf handoff buffers at "
                    + "both eNBs");
        }
    }

    /**
     * Refuses an FMM plan naming a device or a port the network does not
     * have, or a cell without a buffer agent (each cell holds a window).
     *
     * @param plan the plan
     * @throws FlowBufException NOT_FOUND naming the plan's field
     */
    void check(FmmPlan plan) {
        Map<String, ConnectPoint> ports = new LinkedHashMap<>();
        ports.put("anchorIn", plan.anchorIn());
        for (int i = 0; i < plan.cells().size(); i++) {
            FmmPlan.Cell cell = plan.cells().get(i);
            ports.put("cells[" + i + "].anchor", cell.anchorPort());
            ports.put("cells[" + i + "].in", cell.in());
            ports.put("cells[" + i + "].ue", cell.ue());
        }
        checkPorts(ports);
        checkAgents(plan.cells().stream().map(FmmPlan.Cell::enb)
                            .collect(Collectors.toList()),
                    "every cell of an FMM session holds a window");
    }

    private void checkPorts(Map<String, ConnectPoint> ports) {
        for (Map.Entry<String, ConnectPoint> e : ports.entrySet()) {
            ConnectPoint port = e.getValue();
            if (!network.hasDevice(port.deviceId())) {
                throw FlowBufException.notFound("%s: unknown device %s", e.getKey(),
                                                port.deviceId());
            }
            if (!network.hasPort(port)) {
                throw FlowBufException.notFound("%s: %s has no port %s", e.getKey(),
                                                port.deviceId(), port.port());
            }
        }
    }

    private void checkAgents(Collection<DeviceId> enbs, String why) {
        Set<DeviceId> agents = agentDevices.get();
        for (DeviceId enb : enbs) {
            if (!agents.contains(enb)) {
                throw FlowBufException.notFound("%s has no buffer agent: %s", enb, why);
            }
        }
    }

    private static Map<String, ConnectPoint> ports(HandoffPlan plan) {
        Map<String, ConnectPoint> ports = new LinkedHashMap<>();
        ports.put("anchor.in", plan.anchorIn());
        ports.put("anchor.toSource", plan.anchorToSource());
        ports.put("anchor.toTarget", plan.anchorToTarget());
        ports.put("source.in", plan.sourceIn());
        ports.put("source.x2", plan.sourceX2());
        ports.put("target.in", plan.targetIn());
        ports.put("target.x2", plan.targetX2());
        ports.put("target.ue", plan.targetUe());
        return ports;
    }
}
