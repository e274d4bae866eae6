/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.flowbuf.pipeconf.FlowBufPipeconfs;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.Device;
import org.onosproject.net.DeviceId;
import org.onosproject.net.device.DeviceEvent;
import org.onosproject.net.device.DeviceListener;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.slf4j.Logger;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Predicate;

/**
 * What the components share for the switches this ONOS instance masters:
 * a component's action runs on its worker (a device event must not wait
 * for a switch) for each such switch that is available when the component
 * starts, if it asks, and again whenever one is added or available again.
 * A failed action is logged, since nobody waits for it.
 */
final class MasteredSwitches {

    /** What a component does with one of its switches. */
    interface Action {
        /**
         * Runs on the component's worker.
         *
         * @param device the switch
         * @param again  true when the switch came (back) after the start
         */
        void run(DeviceId device, boolean again);
    }

    private final DeviceService deviceService;
    private final Predicate<DeviceId> ours;
    private final Executor worker;
    private final Action action;
    private final Logger log;
    private final String failure;
    private final DeviceListener reconnects = new Reconnects();

    /**
     * @param deviceService the devices
     * @param ours          which devices are the component's
     * @param worker        where the action runs
     * @param action        what the component does with a switch
     * @param log           the component's log
     * @param failure       what a failed action did not do, for the log
     */
    MasteredSwitches(DeviceService deviceService, Predicate<DeviceId> ours, Executor worker,
                     Action action, Logger log, String failure) {
        this.deviceService = deviceService;
        this.ours = ours;
        this.worker = worker;
        this.action = action;
        this.log = log;
        this.failure = failure;
    }

    /**
     * Devices this instance masters.
     *
     * @param mastershipService the mastership
     * @return the test
     */
    static Predicate<DeviceId> mastered(MastershipService mastershipService) {
        return mastershipService::isLocalMaster;
    }

    /**
     * FlowBuf switches (any profile of the FlowBuf program) this instance masters.
     *
     * @param mastershipService the mastership
     * @param pipeconfService   the devices' pipeconfs
     * @return the test
     */
    static Predicate<DeviceId> masteredFlowBuf(MastershipService mastershipService,
                                               PiPipeconfService pipeconfService) {
        return device -> mastershipService.isLocalMaster(device)
                && pipeconfService.ofDevice(device).map(FlowBufPipeconfs::isFlowBuf)
                .orElse(false);
    }

    /**
     * Listens for switches that come (back).
     *
     * @param takeOnAvailable whether the action runs at once for the available ones
     */
    void start(boolean takeOnAvailable) {
        deviceService.addListener(reconnects);
        if (takeOnAvailable) {
            available().forEach(device -> takeOn(device, false));
        }
    }

    /** Stops listening. */
    void stop() {
        deviceService.removeListener(reconnects);
    }

    /**
     * The component's switches that are available now.
     *
     * @return their ids
     */
    List<DeviceId> available() {
        List<DeviceId> out = new ArrayList<>();
        for (Device d : deviceService.getAvailableDevices()) {
            if (ours.test(d.id())) {
                out.add(d.id());
            }
        }
        return out;
    }

    private void takeOn(DeviceId device, boolean again) {
        worker.execute(() -> {
            try {
                action.run(device, again);
            } catch (RuntimeException e) {
                log.warn("{}: {}: {}", device, failure, e.getMessage());
            }
        });
    }

    /** A switch that is added or available again is taken on again. */
    private final class Reconnects implements DeviceListener {
        @Override
        public boolean isRelevant(DeviceEvent event) {
            return (event.type() == DeviceEvent.Type.DEVICE_ADDED
                    || event.type() == DeviceEvent.Type.DEVICE_AVAILABILITY_CHANGED)
                    && deviceService.isAvailable(event.subject().id());
        }

        @Override
        public void event(DeviceEvent event) {
            DeviceId device = event.subject().id();
            if (ours.test(device)) {
                takeOn(device, true);
            }
        }
    }
}
