/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.onosproject.net.DeviceId;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A test cluster of named instances, one device: which instances are dead
 * and which one masters the device are the test's to change; each instance
 * sees them through {@link #viewOf}.
 */
final class FakeRunnerCluster {

    private final DeviceId device;
    private final Set<String> dead = ConcurrentHashMap.newKeySet();
    private volatile String master;

    FakeRunnerCluster(DeviceId device, String master) {
        this.device = device;
        this.master = master;
    }

    /** An instance dies (ONOS's cluster sees it leave). */
    void kill(String node) {
        dead.add(node);
    }

    /** The device's master is now this instance. */
    void master(String node) {
        master = node;
    }

    /** What instance node sees of the cluster. */
    RunnerCluster viewOf(String node) {
        return new RunnerCluster() {
            @Override
            public String localNode() {
                return node;
            }

            @Override
            public boolean alive(String other) {
                return !dead.contains(other);
            }

            @Override
            public boolean masters(DeviceId d) {
                return node.equals(master);
            }

            @Override
            public Set<DeviceId> mastered() {
                return node.equals(master) ? Set.of(device) : Set.of();
            }
        };
    }
}
