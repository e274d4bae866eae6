/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.pi;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.upf.UpfMeter;
import org.flowbuf.app.upf.MeterCell;
import org.flowbuf.app.upf.UpfWrite;
import org.flowbuf.app.upf.UpfWriter;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.meter.Band;
import org.onosproject.net.meter.DefaultBand;
import org.onosproject.net.meter.DefaultMeterRequest;
import org.onosproject.net.meter.Meter;
import org.onosproject.net.meter.MeterContext;
import org.onosproject.net.meter.MeterFailReason;
import org.onosproject.net.meter.MeterRequest;
import org.onosproject.net.meter.MeterScope;
import org.onosproject.net.meter.MeterService;
import org.onosproject.net.pi.runtime.PiMeterCellId;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Writes the UPF's entries through ONOS's FlowRuleService (ONOS sends them
 * to the device's master, which writes them over P4Runtime and keeps them
 * there across reconnects) and its meter cells through the MeterService as
 * indexed meters of the pipeconf (scope: the P4 meter, index: the cell;
 * two bands, committed then peak, in bytes/s). Waits for the device to
 * confirm each step.
 */
public final class FlowRuleServiceUpfWriter implements UpfWriter {

    private final ApplicationId appId;
    private final FlowRuleBatches batches;
    private final MeterService meters;
    private final Duration timeout;

    /**
     * Creates the writer.
     *
     * @param appId     owner of the rules and meters
     * @param flowRules ONOS flow rule service
     * @param meters    ONOS meter service
     * @param timeout   how long to wait for the device to confirm a step
     */
    public FlowRuleServiceUpfWriter(ApplicationId appId, FlowRuleService flowRules,
                                    MeterService meters, Duration timeout) {
        this.appId = Objects.requireNonNull(appId);
        this.batches = new FlowRuleBatches(flowRules, timeout);
        this.meters = Objects.requireNonNull(meters);
        this.timeout = Objects.requireNonNull(timeout);
    }

    @Override
    public void write(DeviceId deviceId, UpfWrite write) {
        batches.remove(write.removes(),
                       "remove " + write.removes().size() + " UPF entries from " + deviceId);
        try {
            batches.add(write.inserts(),
                        "install " + write.inserts().size() + " UPF entries on " + deviceId);
            for (MeterCell cell : write.meters()) {
                configure(deviceId, cell);
            }
        } catch (FlowBufException e) {
            batches.takeBack(write.inserts(), e);
            throw e;
        }
    }

    @Override
    public void rewrite(DeviceId deviceId, UpfWrite write) {
        // The FlowRuleService keeps rules it has: adding them again is a no-op.
        write(deviceId, write);
    }

    private void configure(DeviceId deviceId, MeterCell cell) {
        CompletableFuture<MeterFailReason> done = new CompletableFuture<>();
        MeterRequest.Builder request = DefaultMeterRequest.builder().forDevice(deviceId)
                .fromApp(appId).withUnit(Meter.Unit.BYTES_PER_SEC).burst()
                .withScope(MeterScope.of(cell.meterId().id())).withIndex(cell.index())
                .withContext(new MeterContext() {
                    @Override
                    public void onSuccess(MeterRequest op) {
                        done.complete(null);
                    }

                    @Override
                    public void onError(MeterRequest op, MeterFailReason reason) {
                        done.complete(reason);
                    }
                });
        String what = (cell.config().isPresent() ? "configure " : "reset ") + cell + " on " + deviceId;
        try {
            if (cell.config().isPresent()) {
                request.withBands(bands(cell.config().get()));
                meters.submit(request.add());
            } else {
                request.withBands(List.of());
                meters.withdraw(request.remove(),
                                PiMeterCellId.ofIndirect(cell.meterId(), cell.index()));
                // A withdraw of an unconfigured cell may never be confirmed: nothing to wait for.
                return;
            }
        } catch (IllegalArgumentException | IllegalStateException e) {
            // The MeterService refuses a request it cannot take (e.g. an
            // index while it allocates indexes itself): not the client's fault.
            throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE,
                                       "ONOS's meter service refused to " + what + ": "
                                               + e.getMessage(), e);
        }
        MeterFailReason failed = FlowRuleBatches.await(done, what, timeout);
        if (failed != null) {
            throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE,
                                       "device refused to " + what + ": " + failed);
        }
    }

    /**
     * The bands of a meter: committed (MARK_YELLOW above it), then peak
     * (MARK_RED above it).
     *
     * @param m meter
     * @return bands
     */
    static List<Band> bands(UpfMeter m) {
        return List.of(DefaultBand.builder().ofType(Band.Type.MARK_YELLOW).withRate(m.cir())
                               .burstSize(m.cburst()).build(),
                       DefaultBand.builder().ofType(Band.Type.MARK_RED).withRate(m.pir())
                               .burstSize(m.pburst()).build());
    }
}
