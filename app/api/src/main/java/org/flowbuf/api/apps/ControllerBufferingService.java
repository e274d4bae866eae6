/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.apps;

import org.flowbuf.api.FlowFilter;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.util.Collection;

/**
 * The Programmable Buffers paper's baseline: a flow is held by punting its
 * packets to the controller (packet-in) and replayed from controller memory
 * by packet-out. It exists so that FlowBuf's figures are compared with it in
 * the same run; every held packet crosses the control channel twice.
 */
public interface ControllerBufferingService {

    /**
     * Starts punting a flow to the controller and keeping its packets.
     *
     * @param deviceId switch
     * @param inPort   port the flow arrives on
     * @param filter   the flow (its in-port, if any, must equal inPort)
     * @return the new hold
     * @throws org.flowbuf.api.FlowBufException INVALID on bad arguments,
     *         CONFLICT when the flow is already held, or the rule's refusal
     */
    ControllerHold hold(DeviceId deviceId, PortNumber inPort, FlowFilter filter);

    /**
     * Sends the held packets out of a port of any switch in arrival order
     * (packet-out there), then stops punting the flow; packets punted
     * meanwhile follow the held ones.
     *
     * @param id  hold id
     * @param out switch and port the packets leave from
     * @return the released hold
     * @throws org.flowbuf.api.FlowBufException NOT_FOUND for an unknown hold,
     *         CONFLICT for one already released, INVALID for a bad port
     */
    ControllerHold release(long id, ConnectPoint out);

    /**
     * Every hold, released ones included.
     *
     * @return holds by id
     */
    Collection<ControllerHold> holds();

    /**
     * Takes a packet-in; packets of a held flow are kept, others ignored.
     *
     * @param deviceId switch the packet came from
     * @param inPort   port it arrived on
     * @param frame    Ethernet frame
     * @return whether a hold took the packet
     */
    boolean packetIn(DeviceId deviceId, PortNumber inPort, byte[] frame);
}
