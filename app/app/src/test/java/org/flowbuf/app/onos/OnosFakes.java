/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.onosproject.core.CoreServiceAdapter;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.mastership.MastershipEvent;
import org.onosproject.mastership.MastershipInfo;
import org.onosproject.mastership.MastershipListener;
import org.onosproject.mastership.MastershipService;
import org.onosproject.mastership.MastershipServiceAdapter;
import org.onosproject.net.DeviceId;
import org.onosproject.net.packet.OutboundPacket;
import org.onosproject.net.packet.PacketProcessor;
import org.onosproject.net.packet.PacketServiceAdapter;
import org.onosproject.net.pi.PiPipeconfServiceAdapter;
import org.onosproject.net.pi.model.PiPipeconfId;
import org.onosproject.net.pi.service.PiPipeconfService;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import static org.junit.Assert.fail;

/** The small ONOS stand-ins every FlowBuf component's test needs, and its wait. */
final class OnosFakes {

    private OnosFakes() {
    }

    /** ONOS's core: every application registers as id 7 under its own name. */
    static CoreService core() {
        return new CoreServiceAdapter() {
            @Override
            public ApplicationId registerApplication(String name) {
                return new DefaultApplicationId(7, name);
            }
        };
    }

    /** This instance masters a device while {@code master} says so. */
    static MastershipService mastership(BooleanSupplier master) {
        return new MastershipServiceAdapter() {
            @Override
            public boolean isLocalMaster(DeviceId deviceId) {
                return master.getAsBoolean();
            }
        };
    }

    /** ONOS's mastership: this instance masters every device while {@code master} is set. */
    static class Mastership extends MastershipServiceAdapter {
        final List<MastershipListener> listeners = new CopyOnWriteArrayList<>();
        volatile boolean master = true;

        @Override
        public boolean isLocalMaster(DeviceId deviceId) {
            return master;
        }

        @Override
        public void addListener(MastershipListener listener) {
            listeners.add(listener);
        }

        @Override
        public void removeListener(MastershipListener listener) {
            listeners.remove(listener);
        }

        /** This instance became the device's master (the one before died). */
        void becomesMaster(DeviceId device) {
            master = true;
            MastershipEvent e = new MastershipEvent(MastershipEvent.Type.MASTER_CHANGED, device,
                                                    new MastershipInfo());
            listeners.stream().filter(l -> l.isRelevant(e)).forEach(l -> l.event(e));
        }
    }

    /** The pipeconf ONOS says each device runs. */
    static PiPipeconfService pipeconfs(Function<DeviceId, PiPipeconfId> ofDevice) {
        return new PiPipeconfServiceAdapter() {
            @Override
            public Optional<PiPipeconfId> ofDevice(DeviceId deviceId) {
                return Optional.of(ofDevice.apply(deviceId));
            }
        };
    }

    /** ONOS's packet service: the processors added and not removed, the packets emitted. */
    static final class Packets extends PacketServiceAdapter {
        final List<PacketProcessor> processors = new CopyOnWriteArrayList<>();
        final List<OutboundPacket> emitted = new CopyOnWriteArrayList<>();

        @Override
        public void emit(OutboundPacket packet) {
            emitted.add(packet);
        }

        @Override
        public void addProcessor(PacketProcessor processor, int priority) {
            processors.add(processor);
        }

        @Override
        public void removeProcessor(PacketProcessor processor) {
            processors.remove(processor);
        }
    }

    /** Waits up to 10 s for a condition a component's worker makes true. */
    static void waitFor(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 10_000;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                fail("waited 10 s for " + what);
            }
            Thread.sleep(10);
        }
    }
}
