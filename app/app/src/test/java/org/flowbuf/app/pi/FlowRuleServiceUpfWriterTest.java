/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.pi;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.upf.UpfInterface;
import org.flowbuf.api.upf.UpfMeter;
import org.flowbuf.app.upf.MeterCell;
import org.flowbuf.app.upf.UpfEntries;
import org.flowbuf.app.upf.UpfWrite;
import org.flowbuf.pipeconf.UpfP4Names;
import org.junit.Test;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.flow.FlowRuleOperation;
import org.onosproject.net.flow.FlowRuleOperations;
import org.onosproject.net.flow.FlowRuleServiceAdapter;
import org.onosproject.net.meter.Meter;
import org.onosproject.net.meter.MeterCellId;
import org.onosproject.net.meter.MeterFailReason;
import org.onosproject.net.meter.MeterRequest;
import org.onosproject.net.meter.MeterServiceAdapter;
import org.onosproject.net.pi.runtime.PiMeterCellId;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

/** The ONOS UPF writer: stages, meter requests, and taking back a refused write. */
public class FlowRuleServiceUpfWriterTest {

    private static final ApplicationId APP = new DefaultApplicationId(1, "org.flowbuf.app");
    private static final DeviceId S1 = DeviceId.deviceId("device:s1");

    /** Answers batches as told (the first `accept` succeed) and records the operation types. */
    private static final class Rules extends FlowRuleServiceAdapter {
        private final List<FlowRuleOperation.Type> applied = new ArrayList<>();
        private int accept;

        Rules(int accept) {
            this.accept = accept;
        }

        @Override
        public void apply(FlowRuleOperations ops) {
            ops.stages().forEach(stage -> stage.forEach(op -> applied.add(op.type())));
            if (accept-- > 0) {
                ops.callback().onSuccess(ops);
            } else {
                ops.callback().onError(ops);
            }
        }
    }

    /** Refuses or confirms every meter request. */
    private static final class Meters extends MeterServiceAdapter {
        private final boolean refuse;
        private boolean throwing;
        private final List<MeterRequest> submitted = new ArrayList<>();
        private final List<MeterCellId> withdrawn = new ArrayList<>();

        @Override
        public void withdraw(MeterRequest meter, MeterCellId cellId) {
            withdrawn.add(cellId);
        }

        Meters(boolean refuse) {
            this.refuse = refuse;
        }

        @Override
        public Meter submit(MeterRequest meter) {
            if (throwing) {
                throw new IllegalArgumentException("index not allowed");
            }
            submitted.add(meter);
            meter.context().ifPresent(c -> {
                if (refuse) {
                    c.onError(meter, MeterFailReason.INVALID_METER);
                } else {
                    c.onSuccess(meter);
                }
            });
            return null;
        }
    }

    private static UpfWrite write() {
        UpfWrite w = new UpfWrite();
        w.removes().add(UpfEntries.interfaceRule(APP, new UpfInterface(
                S1, UpfInterface.Kind.CORE, Ip4Prefix.valueOf("10.251.0.0/16"))));
        w.inserts().add(UpfEntries.interfaceRule(APP, new UpfInterface(
                S1, UpfInterface.Kind.CORE, Ip4Prefix.valueOf("10.250.0.0/16"))));
        w.meters().add(new MeterCell(UpfP4Names.APP_METER, 7, UpfMeter.of(100, 200, 300, 400)));
        return w;
    }

    @Test
    public void removalsThenInsertsThenTheMeterCells() {
        Rules rules = new Rules(10);
        Meters meters = new Meters(false);
        new FlowRuleServiceUpfWriter(APP, rules, meters, Duration.ofMillis(500)).write(S1, write());
        assertEquals(List.of(FlowRuleOperation.Type.REMOVE, FlowRuleOperation.Type.ADD), rules.applied);
        MeterRequest cell = meters.submitted.get(0);
        assertEquals(UpfP4Names.APP_METER.id(), cell.scope().id());
        assertEquals(Long.valueOf(7), cell.index().get());
        assertEquals(List.of(100L, 300L), cell.bands().stream().map(b -> b.rate())
                .collect(java.util.stream.Collectors.toList()));
    }

    @Test
    public void aResetCellIsWithdrawnByItsCellId() {
        Meters meters = new Meters(false);
        UpfWrite w = new UpfWrite();
        w.meters().add(new MeterCell(UpfP4Names.SESSION_METER, 3, null));
        new FlowRuleServiceUpfWriter(APP, new Rules(10), meters, Duration.ofMillis(500)).write(S1, w);
        assertEquals(List.of(PiMeterCellId.ofIndirect(UpfP4Names.SESSION_METER, 3)), meters.withdrawn);
        assertEquals(List.of(), meters.submitted);
    }

    @Test
    public void refusedInsertsAndRefusedMeterCellsAreTakenBack() {
        Rules rules = new Rules(1);
        try {
            new FlowRuleServiceUpfWriter(APP, rules, new Meters(false), Duration.ofMillis(500))
                    .write(S1, write());
            fail("a refused batch was accepted");
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.UNAVAILABLE, e.reason());
        }
        assertEquals(List.of(FlowRuleOperation.Type.REMOVE, FlowRuleOperation.Type.ADD,
                             FlowRuleOperation.Type.REMOVE), rules.applied);
        Rules accepting = new Rules(10);
        try {
            new FlowRuleServiceUpfWriter(APP, accepting, new Meters(true), Duration.ofMillis(500))
                    .write(S1, write());
            fail("a refused meter cell was accepted");
        } catch (FlowBufException e) {
            assertEquals(true, e.getMessage().contains("INVALID_METER"));
        }
        assertEquals(List.of(FlowRuleOperation.Type.REMOVE, FlowRuleOperation.Type.ADD,
                             FlowRuleOperation.Type.REMOVE), accepting.applied);
        Meters throwing = new Meters(false);
        throwing.throwing = true;
        try {
            new FlowRuleServiceUpfWriter(APP, new Rules(10), throwing, Duration.ofMillis(500))
                    .write(S1, write());
            fail("a meter request ONOS threw on was accepted");
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.UNAVAILABLE, e.reason());
            assertEquals(true, e.getMessage().contains("index not allowed"));
        }
    }
}
