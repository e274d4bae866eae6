/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.congestion.CcFlowRequest;
import org.flowbuf.api.congestion.CcPath;
import org.flowbuf.api.congestion.CongestionMode;
import org.flowbuf.api.congestion.LatencyCriticalFlow;
import org.flowbuf.api.congestion.SwitchOver;
import org.onosproject.codec.CodecContext;
import org.onosproject.codec.JsonCodec;

/**
 * JSON of a latency-critical flow: the request, its index, the path it
 * takes ("primary"), its "backup" (absent when none), each also as a list of
 * switches ("primaryDevices", "backupDevices": what a GUI draws), its
 * thresholds per switch, its switch-overs (the latest kept, and
 * "switchOverCount" of all) and the delays of the latest ("lastDelays");
 * with orderedSwitchover, its merge buffer ("ordered": mergeSwitch,
 * markersSeen, boundExpiries, armed); in PROBING mode its "probeIntervalMs"
 * and "probes" (sent, lost, late, lastDelayUs).
 */
public final class LatencyCriticalFlowCodec extends JsonCodec<LatencyCriticalFlow> {

    @Override
    public ObjectNode encode(LatencyCriticalFlow f, CodecContext context) {
        CcFlowRequest r = f.request();
        ObjectNode json = context.mapper().createObjectNode()
                .put("id", f.id()).put("index", f.index())
                .put("srcHost", r.srcHost()).put("dstHost", r.dstHost())
                .put("budgetUs", r.budgetUs()).put("m", r.m())
                .put("mode", r.mode().name()).put("orderedSwitchover", r.orderedSwitchover());
        r.factor().ifPresent(x -> json.put("x", x));
        if (r.mode() == CongestionMode.PROBING) {
            json.put("probeIntervalMs", r.probeIntervalMs());
        }
        f.probes().ifPresent(p -> {
            ObjectNode probes = json.putObject("probes").put("sent", p.sent())
                    .put("lost", p.lost()).put("late", p.late());
            p.lastDelayUs().ifPresent(us -> probes.put("lastDelayUs", us));
        });
        json.set("filter", context.codec(FlowFilter.class).encode(r.filter(), context));
        json.set("primary", path(f.primary(), context));
        json.set("primaryDevices", devices(f.primary(), context));
        f.backup().ifPresent(b -> {
            json.set("backup", path(b, context));
            json.set("backupDevices", devices(b, context));
        });
        ArrayNode limits = json.putArray("thresholds");
        f.thresholds().forEach((device, t) -> limits.addObject()
                .put("deviceId", device.toString()).put("queueUs", t.queueUs())
                .put("procUs", t.procUs()).put("m", t.m()));
        ArrayNode records = json.putArray("switchOvers");
        f.switchOvers().forEach(s -> records.add(switchOver(s, context)));
        json.put("switchOverCount", f.switchOverCount());
        f.lastSwitchOver().ifPresent(s -> json.putObject("lastDelays")
                .put("deviceId", s.device().toString()).put("queueUs", s.queueUs())
                .put("procUs", s.procUs()));
        f.ordered().ifPresent(o -> json.putObject("ordered")
                .put("mergeSwitch", o.mergeSwitch().toString()).put("markersSeen", o.markersSeen())
                .put("boundExpiries", o.boundExpiries()).put("armed", o.armed()));
        return json;
    }

    private static ArrayNode path(CcPath path, CodecContext context) {
        ArrayNode hops = context.mapper().createArrayNode();
        path.hops().forEach(h -> hops.addObject().put("deviceId", h.device().toString())
                .put("outPort", h.outPort().toLong()));
        return hops;
    }

    private static ArrayNode devices(CcPath path, CodecContext context) {
        ArrayNode devices = context.mapper().createArrayNode();
        path.hops().forEach(h -> devices.add(h.device().toString()));
        return devices;
    }

    private static ObjectNode switchOver(SwitchOver s, CodecContext context) {
        return context.mapper().createObjectNode().put("deviceId", s.device().toString())
                .put("queueUs", s.queueUs()).put("procUs", s.procUs())
                .put("time", s.time().toString()).put("newBackup", s.newBackup())
                .put("cause", s.cause().name());
    }
}
