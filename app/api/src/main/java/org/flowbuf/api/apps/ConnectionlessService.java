/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.apps;

import org.flowbuf.api.FlowFilter;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.util.Collection;

/**
 * Connectionless communication (Programmable Buffers, SOSR'18): a sensor
 * uploads into a switch buffer without a connection to the collector; the
 * collector downloads later, from the buffer.
 */
public interface ConnectionlessService {

    /** Owner of the buffers and intents of uploads. */
    String OWNER = "org.flowbuf.apps.cc";

    /**
     * A sensor asks to upload: a buffer in Buffering, with its uplink steered into it.
     *
     * @param deviceId   switch
     * @param sensorPort port the sensor's uplink arrives on
     * @param flow       the sensor's uplink
     * @return the upload, UPLOADING
     */
    CcUpload requestUpload(DeviceId deviceId, PortNumber sensorPort, FlowFilter flow);

    /**
     * The upload is complete: the buffer goes Storing.
     *
     * @param id upload id
     * @return the upload, STORED
     */
    CcUpload stored(long id);

    /**
     * The collector asks for the data: the buffer serves it, in order,
     * towards the collector's port.
     *
     * @param id            upload id
     * @param collectorPort port of the collector
     * @return the upload, SERVED
     */
    CcUpload download(long id, PortNumber collectorPort);

    /**
     * Removes the upload's rules and buffer: once served, or to give up an
     * upload before (what its buffer holds is dropped).
     *
     * @param id upload id
     * @return the upload, RELEASED
     */
    CcUpload release(long id);

    /**
     * Every upload.
     *
     * @return uploads
     */
    Collection<CcUpload> uploads();
}
