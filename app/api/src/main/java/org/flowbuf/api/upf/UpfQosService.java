/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.upf;

import org.onosproject.net.DeviceId;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * UPF-QoS (hybrid P4 UPF, section 6.3.1): per device, delay-critical flows
 * into a high-priority queue, and each of them the heavy-hitter detector
 * reports rerouted to a high-bandwidth path until it idles.
 */
public interface UpfQosService {

    /**
     * Every device's policy.
     *
     * @return policies
     */
    Collection<UpfQosPolicy> policies();

    /**
     * A device's policy.
     *
     * @param deviceId device
     * @return its policy, if any
     */
    Optional<UpfQosPolicy> policy(DeviceId deviceId);

    /**
     * Installs a device's policy: its DC class as a UPF application and its
     * QFI's queue, then reroutes DC heavy hitters reported from now on.
     *
     * @param policy the policy
     * @return it
     * @throws org.flowbuf.api.FlowBufException NOT_FOUND (unknown device), CONFLICT (the
     *                                          device has a policy, the application id or
     *                                          the QFI's queue is taken), or what the UPF
     *                                          service refuses; nothing is left installed
     */
    UpfQosPolicy setPolicy(UpfQosPolicy policy);

    /**
     * Removes a device's policy: its reroutes, queue and application.
     *
     * @param deviceId device
     * @return the removed policy
     * @throws org.flowbuf.api.FlowBufException NOT_FOUND when it has none
     */
    UpfQosPolicy removePolicy(DeviceId deviceId);

    /**
     * The reroutes in force.
     *
     * @return reroutes, oldest first
     */
    List<UpfQosReroute> reroutes();
}
