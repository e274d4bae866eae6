/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferEvent;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.BufferStatistics;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.TriggerFire;
import org.flowbuf.api.Vport;
import org.flowbuf.api.apps.CcUpload;
import org.flowbuf.api.apps.FmmPlan;
import org.flowbuf.api.apps.FmmSession;
import org.flowbuf.api.apps.HandoffPlan;
import org.flowbuf.api.apps.LmmHandoff;
import org.flowbuf.api.apps.NfvMigration;
import org.flowbuf.api.congestion.CcFlowRequest;
import org.flowbuf.api.congestion.LatencyCriticalFlow;
import org.flowbuf.api.gnb.GnbBearer;
import org.flowbuf.api.gnb.GnbDevice;
import org.flowbuf.api.upf.FirewallRule;
import org.flowbuf.api.upf.HeavyHitter;
import org.flowbuf.api.upf.HeavyHitterSettings;
import org.flowbuf.api.upf.HybridSettings;
import org.flowbuf.api.upf.UePlacement;
import org.flowbuf.api.upf.UpfQosPolicy;
import org.flowbuf.api.upf.UpfQosReroute;
import org.flowbuf.api.upf.PduSession;
import org.flowbuf.api.upf.UpfApplication;
import org.flowbuf.api.upf.UpfDeviceSummary;
import org.flowbuf.api.upf.UpfInterface;
import org.flowbuf.api.upf.UpfQueue;
import org.onosproject.codec.CodecService;
import org.onosproject.codec.JsonCodec;

import java.util.Map;

/**
 * Every FlowBuf codec, registered with a CodecService by the ONOS component
 * and by the embedded host alike.
 */
public final class FlowBufCodecs {

    private static final Map<Class<?>, JsonCodec<?>> CODECS = Map.ofEntries(
            Map.entry(Buffer.class, new BufferCodec()),
            Map.entry(BufferSpec.class, new BufferSpecCodec()),
            Map.entry(BufferStatistics.class, new BufferStatisticsCodec()),
            Map.entry(BufferEvent.class, new BufferEventCodec()),
            Map.entry(FlowFilter.class, new FlowFilterCodec()),
            Map.entry(FlowBufIntent.class, new FlowBufIntentCodec()),
            Map.entry(Vport.class, new VportCodec()),
            Map.entry(TriggerFire.class, new TriggerFireCodec()),
            Map.entry(NfvMigration.class, new NfvMigrationCodec()),
            Map.entry(CcUpload.class, new CcUploadCodec()),
            Map.entry(CcFlowRequest.class, new CcFlowRequestCodec()),
            Map.entry(LatencyCriticalFlow.class, new LatencyCriticalFlowCodec()),
            Map.entry(HandoffPlan.class, new HandoffPlanCodec()),
            Map.entry(LmmHandoff.class, new LmmHandoffCodec()),
            Map.entry(FmmPlan.class, new FmmPlanCodec()),
            Map.entry(FmmSession.class, new FmmSessionCodec()),
            Map.entry(PduSession.class, new PduSessionCodec()),
            Map.entry(UpfApplication.class, new UpfApplicationCodec()),
            Map.entry(FirewallRule.class, new FirewallRuleCodec()),
            Map.entry(UpfInterface.class, new UpfInterfaceCodec()),
            Map.entry(UpfQueue.class, new UpfQueueCodec()),
            Map.entry(UpfDeviceSummary.class, new UpfDeviceSummaryCodec()),
            Map.entry(HeavyHitterSettings.class, new HeavyHitterSettingsCodec()),
            Map.entry(HeavyHitter.class, new HeavyHitterCodec()),
            Map.entry(HybridSettings.class, new HybridSettingsCodec()),
            Map.entry(UePlacement.class, new UePlacementCodec()),
            Map.entry(UpfQosPolicy.class, new UpfQosPolicyCodec()),
            Map.entry(UpfQosReroute.class, new UpfQosRerouteCodec()),
            Map.entry(GnbBearer.class, new GnbBearerCodec()),
            Map.entry(GnbDevice.class, new GnbDeviceCodec()));

    private FlowBufCodecs() {
    }

    /**
     * Registers every codec.
     *
     * @param service codec service
     */
    public static void register(CodecService service) {
        CODECS.forEach((type, codec) -> registerOne(service, type, codec));
    }

    /**
     * Unregisters every codec.
     *
     * @param service codec service
     */
    public static void unregister(CodecService service) {
        CODECS.keySet().forEach(service::unregisterCodec);
    }

    @SuppressWarnings("unchecked")
    private static <T> void registerOne(CodecService service, Class<T> type, JsonCodec<?> codec) {
        service.registerCodec(type, (JsonCodec<T>) codec);
    }
}
