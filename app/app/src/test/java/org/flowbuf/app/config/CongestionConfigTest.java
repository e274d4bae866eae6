/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.app.congestion.IdleDelay;
import org.junit.Test;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.DefaultApplicationId;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;
import org.onosproject.net.LinkKey;
import org.onosproject.net.PortNumber;
import org.onosproject.net.config.Config;
import org.onosproject.net.config.NetworkConfigRegistryAdapter;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * The congestion sections of ONOS's netcfg, read by the embedded host's
 * rules: the app's settings and a link's idle delays, and the source of
 * idle delays the ONOS component derives thresholds from.
 */
public class CongestionConfigTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final ApplicationId APP = new DefaultApplicationId(1, "org.flowbuf.app");
    private static final ConnectPoint S1_10 = ConnectPoint.deviceConnectPoint("device:s1/10");
    private static final ConnectPoint S3_10 = ConnectPoint.deviceConnectPoint("device:s3/10");
    private static final LinkKey S1_S3 = LinkKey.linkKey(S1_10, S3_10);

    private static <S, C extends Config<S>> C load(C config, S subject, String json)
            throws IOException {
        config.init(subject, "congestion", (ObjectNode) MAPPER.readTree(json), MAPPER, c -> { });
        return config;
    }

    private static List<Long> delays(IdleDelay d) {
        return List.of(d.queueUs(), d.procUs());
    }

    @Test
    public void theAppsSectionIsReadAsTheHostReadsIt() throws IOException {
        CongestionAppConfig config = load(new CongestionAppConfig(), APP,
                                          "{\"factor\": 2.5, \"idleQueueUs\": 200, "
                                                  + "\"markerBoundMs\": 80}");
        assertTrue(config.isValid());
        assertEquals(2.5, config.settings().factor(), 0);
        assertEquals(80, config.settings().markerBoundMs());
        assertEquals(List.of(200L, CcSettings.DEFAULT_IDLE_PROC_US),
                     delays(config.settings().defaultIdle()));
        assertFalse(load(new CongestionAppConfig(), APP, "{\"factor\": 0.5}").isValid());
        assertFalse(load(new CongestionAppConfig(), APP, "{\"markerBoundMs\": 0}").isValid());
    }

    @Test
    public void aLinksSectionGivesItsIdleDelays() throws IOException {
        CongestionLinkConfig link = load(new CongestionLinkConfig(), S1_S3,
                                         "{\"idleQueueUs\": 200, \"idleProcUs\": 5000}");
        assertTrue(link.isValid());
        assertEquals(List.of(200L, 5000L), delays(link.idle()));
        assertFalse(load(new CongestionLinkConfig(), S1_S3, "{\"idleQueueUs\": 0}").isValid());
    }

    @Test
    public void idleDelaysComeFromEitherEndsLinkElseTheAppsDefault() throws IOException {
        CongestionLinkConfig link = load(new CongestionLinkConfig(), S1_S3,
                                         "{\"idleQueueUs\": 200, \"idleProcUs\": 5000}");
        CongestionLinkConfig bad = load(new CongestionLinkConfig(),
                                        LinkKey.linkKey(ConnectPoint.deviceConnectPoint(
                                                "device:s1/11"), S3_10), "{\"idleProcUs\": -1}");
        Map<LinkKey, CongestionLinkConfig> links = Map.of(link.subject(), link, bad.subject(), bad);
        NetcfgIdleDelays idle = new NetcfgIdleDelays(new NetworkConfigRegistryAdapter() {
            @Override
            @SuppressWarnings("unchecked")
            public <S, C extends Config<S>> Set<S> getSubjects(Class<S> subjectClass,
                                                                Class<C> configClass) {
                return (Set<S>) links.keySet();
            }

            @Override
            @SuppressWarnings("unchecked")
            public <S, C extends Config<S>> C getConfig(S subject, Class<C> configClass) {
                return (C) links.get(subject);
            }
        }, CcSettings::defaults);
        assertEquals(List.of(200L, 5000L), delays(idle.of(S1_10.deviceId(), S1_10.port())));
        assertEquals(List.of(200L, 5000L), delays(idle.of(S3_10.deviceId(), S3_10.port())));
        // A port of no link, and one whose link's section is invalid: the default.
        List<Long> defaults = List.of(CcSettings.DEFAULT_IDLE_QUEUE_US,
                                      CcSettings.DEFAULT_IDLE_PROC_US);
        assertEquals(defaults, delays(idle.of(DeviceId.deviceId("device:s1"),
                                              PortNumber.portNumber(1))));
        assertEquals(defaults, delays(idle.of(DeviceId.deviceId("device:s1"),
                                              PortNumber.portNumber(11))));
    }
}
