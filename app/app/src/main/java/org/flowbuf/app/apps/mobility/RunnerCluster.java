/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.onosproject.cluster.ClusterService;
import org.onosproject.cluster.ControllerNode;
import org.onosproject.cluster.NodeId;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.DeviceId;

import java.util.Set;

/**
 * What a handoff's runner needs to know of its cluster: who it is, whether
 * another instance still lives, which devices it masters. A run is adopted
 * by the new master of its source device only when the instance that ran it
 * is gone (dead, or this one after the app restarted here); an instance that
 * lost mastership but lives keeps its run.
 */
interface RunnerCluster {

    /** The embedded host: one instance, master of everything. */
    RunnerCluster SINGLE = new RunnerCluster() {
        @Override
        public String localNode() {
            return "local";
        }

        @Override
        public boolean alive(String node) {
            return true;
        }

        @Override
        public boolean masters(DeviceId device) {
            return true;
        }

        @Override
        public Set<DeviceId> mastered() {
            return Set.of();
        }
    };

    /**
     * @return this instance's node id
     */
    String localNode();

    /**
     * @param node a node id
     * @return whether that instance is active in the cluster
     */
    boolean alive(String node);

    /**
     * @param device a device
     * @return whether this instance is its master
     */
    boolean masters(DeviceId device);

    /**
     * @return the devices this instance masters now
     */
    Set<DeviceId> mastered();

    /**
     * The cluster as ONOS sees it.
     *
     * @param cluster    cluster service
     * @param mastership mastership service
     * @return the view
     */
    static RunnerCluster of(ClusterService cluster, MastershipService mastership) {
        return new RunnerCluster() {
            @Override
            public String localNode() {
                return cluster.getLocalNode().id().id();
            }

            @Override
            public boolean alive(String node) {
                ControllerNode.State state = cluster.getState(NodeId.nodeId(node));
                return state != null && state.isActive();
            }

            @Override
            public boolean masters(DeviceId device) {
                return mastership.isLocalMaster(device);
            }

            @Override
            public Set<DeviceId> mastered() {
                return mastership.getDevicesOf(cluster.getLocalNode().id());
            }
        };
    }
}
