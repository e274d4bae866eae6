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
import org.onosproject.net.flow.FlowRule;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleOperationsContext;
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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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
    private final FlowRuleService flowRules;
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
        this.flowRules = Objects.requireNonNull(flowRules);
        this.meters = Objects.requireNonNull(meters);
        this.timeout = Objects.requireNonNull(timeout);
    }

    @Override
    public void write(DeviceId deviceId, UpfWrite write) {
        if (!write.removes().isEmpty()) {
            FlowRuleOperations.Builder removes = FlowRuleOperations.builder();
            write.removes().forEach(removes::remove);
            apply(removes, "remove " + write.removes().size() + " UPF entries from " + deviceId);
        }
        if (!write.inserts().isEmpty()) {
            FlowRuleOperations.Builder adds = FlowRuleOperations.builder();
            write.inserts().forEach(adds::add);
            try {
                apply(adds, "install " + write.inserts().size() + " UPF entries on " + deviceId);
            } catch (FlowBufException e) {
                takeBack(write.inserts(), e);
                throw e;
            }
        }
        try {
            for (MeterCell cell : write.meters()) {
                configure(deviceId, cell);
            }
        } catch (FlowBufException e) {
            takeBack(write.inserts(), e);
            throw e;
        }
    }

    @Override
    public void rewrite(DeviceId deviceId, UpfWrite write) {
        // The FlowRuleService keeps rules it has: adding them again is a no-op.
        write(deviceId, write);
    }

    // ONOS does not say which of a failed batch were applied; removing one that was not is harmless.
    private void takeBack(List<FlowRule> inserted, FlowBufException cause) {
        if (inserted.isEmpty()) {
            return;
        }
        FlowRuleOperations.Builder removes = FlowRuleOperations.builder();
        inserted.forEach(removes::remove);
        try {
            apply(removes, "take back " + inserted.size() + " UPF entries");
        } catch (FlowBufException alsoRefused) {
            cause.addSuppressed(alsoRefused);
        }
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
        MeterFailReason failed = await(done, what);
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

    private void apply(FlowRuleOperations.Builder ops, String what) {
        CompletableFuture<MeterFailReason> done = new CompletableFuture<>();
        flowRules.apply(ops.build(new FlowRuleOperationsContext() {
            @Override
            public void onSuccess(FlowRuleOperations operations) {
                done.complete(null);
            }

            @Override
            public void onError(FlowRuleOperations operations) {
                done.complete(MeterFailReason.UNKNOWN);
            }
        }));
        if (await(done, what) != null) {
            throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE, "device refused to " + what);
        }
    }

    private <T> T await(CompletableFuture<T> done, String what) {
        try {
            return done.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE,
                                       "interrupted while waiting to " + what, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new FlowBufException(FlowBufException.Reason.UNAVAILABLE,
                                       "device did not confirm " + what + " within "
                                               + timeout.toMillis() + " ms", e);
        }
    }
}
