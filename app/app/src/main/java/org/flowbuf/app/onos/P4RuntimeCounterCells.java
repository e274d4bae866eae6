/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.flowbuf.api.FlowBufException;
import org.onosproject.net.AnnotationKeys;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.pi.model.PiCounterId;
import org.onosproject.net.pi.model.PiPipeconf;
import org.onosproject.net.pi.runtime.PiCounterCell;
import org.onosproject.net.pi.runtime.PiCounterCellHandle;
import org.onosproject.net.pi.runtime.PiCounterCellId;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.onosproject.p4runtime.api.P4RuntimeClient;
import org.onosproject.p4runtime.api.P4RuntimeController;
import org.onosproject.p4runtime.api.P4RuntimeReadClient;

import java.net.URI;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Reads cells of an indirect counter over ONOS's P4Runtime client (ONOS's
 * FlowRuleService reads direct counters only). The P4Runtime device id is
 * the device_id of the switch's management address
 * (grpc://host:port?device_id=N), as ONOS's P4Runtime driver takes it.
 */
final class P4RuntimeCounterCells {

    private final P4RuntimeController controller;
    private final DeviceService devices;
    private final PiPipeconfService pipeconfs;

    P4RuntimeCounterCells(P4RuntimeController controller, DeviceService devices,
                          PiPipeconfService pipeconfs) {
        this.controller = controller;
        this.devices = devices;
        this.pipeconfs = pipeconfs;
    }

    /**
     * Bytes counted in cells of a counter.
     *
     * @param device  the switch
     * @param counter the counter
     * @param cells   its cells
     * @return bytes by cell (cells the switch did not answer are absent)
     * @throws FlowBufException UNAVAILABLE when the switch cannot be read
     */
    Map<Integer, Long> bytes(DeviceId device, PiCounterId counter, Collection<Integer> cells) {
        if (cells.isEmpty()) {
            return Map.of();
        }
        P4RuntimeClient client = controller.get(device);
        if (client == null) {
            throw unavailable(device, "no P4Runtime client");
        }
        PiPipeconf pipeconf = pipeconfs.getPipeconf(device)
                .orElseThrow(() -> unavailable(device, "no pipeconf"));
        List<PiCounterCellHandle> handles = cells.stream()
                .map(c -> PiCounterCellHandle.of(device, PiCounterCellId.ofIndirect(counter, c)))
                .collect(Collectors.toList());
        P4RuntimeReadClient.ReadResponse response =
                client.read(p4DeviceId(device), pipeconf).handles(handles).submitSync();
        if (!response.isSuccess()) {
            throw unavailable(device, "counter read failed: " + response.explanation());
        }
        Map<Integer, Long> bytes = new HashMap<>();
        for (PiCounterCell cell : response.all(PiCounterCell.class)) {
            bytes.put((int) cell.cellId().index(), cell.data().bytes());
        }
        return bytes;
    }

    /** device_id of the management address's query. */
    private long p4DeviceId(DeviceId device) {
        Device d = devices.getDevice(device);
        String address = d == null ? null : d.annotations().value(AnnotationKeys.MANAGEMENT_ADDRESS);
        Optional<Long> id = parseDeviceId(address);
        return id.orElseThrow(() -> unavailable(
                device, "no device_id in its management address " + address));
    }

    /**
     * The device_id of grpc://host:port?device_id=N.
     *
     * @param address management address, or null
     * @return N, empty when it has none
     */
    static Optional<Long> parseDeviceId(String address) {
        if (address == null) {
            return Optional.empty();
        }
        try {
            String query = URI.create(address).getQuery();
            if (query == null) {
                return Optional.empty();
            }
            for (String pair : query.split("&")) {
                if (pair.startsWith("device_id=")) {
                    return Optional.of(Long.parseUnsignedLong(pair.substring("device_id=".length())));
                }
            }
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    private static FlowBufException unavailable(DeviceId device, String why) {
        return new FlowBufException(FlowBufException.Reason.UNAVAILABLE,
                                    device + ": session counters not read (" + why + ")");
    }
}
