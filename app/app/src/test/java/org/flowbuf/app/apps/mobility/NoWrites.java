/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.app.intent.MulticastGroupWriter;
import org.flowbuf.app.intent.SteeringRule;
import org.flowbuf.app.intent.SteeringRuleWriter;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.util.List;

/** Writers that write nothing, for tests that look only at buffers and records. */
final class NoWrites {

    /** Steering rules (an anchor's path rule) go nowhere. */
    static final SteeringRuleWriter RULES = new SteeringRuleWriter() {
        @Override
        public void install(DeviceId deviceId, SteeringRule rule) {
        }

        @Override
        public void modify(DeviceId deviceId, SteeringRule rule) {
        }

        @Override
        public void remove(DeviceId deviceId, SteeringRule rule) {
        }
    };

    /** Multicast groups go nowhere. */
    static final MulticastGroupWriter GROUPS = new MulticastGroupWriter() {
        @Override
        public void write(DeviceId deviceId, int groupId, List<PortNumber> ports) {
        }

        @Override
        public void remove(DeviceId deviceId, int groupId) {
        }
    };

    private NoWrites() {
    }
}
