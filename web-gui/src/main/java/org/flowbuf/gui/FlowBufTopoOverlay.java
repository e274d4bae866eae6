/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.gui;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.upf.HybridPlacementService;
import org.onlab.osgi.DefaultServiceDirectory;
import org.onlab.osgi.ServiceNotFoundException;
import org.onosproject.net.DeviceId;
import org.onosproject.ui.UiTopoOverlay;
import org.onosproject.ui.topo.ButtonId;
import org.onosproject.ui.topo.PropertyPanel;

import java.util.Collection;
import java.util.Optional;

/**
 * The FlowBuf overlay of ONOS's topology view: the details panel of a
 * FlowBuf device lists its buffers and offers pause and resume; the hybrid
 * UPF's fast-path switch also lists its placed UEs.
 */
public class FlowBufTopoOverlay extends UiTopoOverlay {

    static final String OVERLAY_ID = "flowbuf-overlay";
    static final ButtonId PAUSE_BUTTON = new ButtonId("flowbufPause");
    static final ButtonId RESUME_BUTTON = new ButtonId("flowbufResume");

    /** Creates the overlay. */
    public FlowBufTopoOverlay() {
        super(OVERLAY_ID);
    }

    @Override
    public void modifyDeviceDetails(PropertyPanel pp, DeviceId deviceId) {
        describe(pp, DefaultServiceDirectory.getService(BufferService.class), deviceId);
        placement().ifPresent(p -> PlacementDetails.addTo(pp, p, deviceId));
    }

    /** The placement service; none when it is not running. */
    private static Optional<HybridPlacementService> placement() {
        try {
            return Optional.ofNullable(DefaultServiceDirectory.getService(
                    HybridPlacementService.class));
        } catch (ServiceNotFoundException e) {
            return Optional.empty();
        }
    }

    /**
     * Adds a device's buffers to its details panel.
     *
     * @param pp       the panel
     * @param service  buffer service
     * @param deviceId device
     */
    static void describe(PropertyPanel pp, BufferService service, DeviceId deviceId) {
        if (!service.getDevices().contains(deviceId)) {
            return;
        }
        Collection<Buffer> buffers = service.getBuffers(deviceId);
        pp.addSeparator();
        pp.addProp("flowbuf-buffers", "FlowBuf buffers", buffers.size());
        for (Buffer b : buffers) {
            pp.addProp("flowbuf-" + b.id().id(), b.id().id(),
                       String.format("%s, %d held (%d%%), vport %s", b.state(),
                                     b.occupancyPackets(), BufferHighlights.fillPercent(b),
                                     b.vport().id()));
        }
        pp.addButton(PAUSE_BUTTON).addButton(RESUME_BUTTON);
    }
}
