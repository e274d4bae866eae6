/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.pi;

import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.flow.DefaultTrafficTreatment;
import org.onosproject.net.group.DefaultGroupBucket;
import org.onosproject.net.group.DefaultGroupDescription;
import org.onosproject.net.group.DefaultGroupKey;
import org.onosproject.net.group.GroupBuckets;
import org.onosproject.net.group.GroupDescription;
import org.onosproject.net.group.GroupKey;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Clone sessions as ONOS writes them: a group of type CLONE whose id is the
 * session id, with one bucket that outputs to a port (CONTROLLER for the
 * CPU port; the pipeconf's interpreter maps it).
 */
public final class CloneSessions {

    private CloneSessions() {
    }

    /**
     * The ONOS group key of a clone session.
     *
     * @param sessionId session id
     * @return group key
     */
    public static GroupKey groupKey(int sessionId) {
        return new DefaultGroupKey(("flowbuf-clone-" + sessionId).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A clone session to one port.
     *
     * @param appId     owner
     * @param deviceId  device
     * @param sessionId session id, at least 1
     * @param port      where the copies go
     * @return group description
     */
    public static GroupDescription toPort(ApplicationId appId, DeviceId deviceId, int sessionId,
                                          PortNumber port) {
        if (sessionId < 1) {
            throw new IllegalArgumentException("a clone session id is at least 1, not "
                                                       + sessionId);
        }
        GroupBuckets buckets = new GroupBuckets(List.of(DefaultGroupBucket.createCloneGroupBucket(
                DefaultTrafficTreatment.builder().setOutput(port).build())));
        return new DefaultGroupDescription(deviceId, GroupDescription.Type.CLONE, buckets,
                                           groupKey(sessionId), sessionId, appId);
    }
}
