/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.cc;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.apps.CcUpload;
import org.flowbuf.api.apps.ConnectionlessService;
import org.flowbuf.app.history.Retention;
import org.junit.Test;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.flowbuf.app.FlowBufAssert.assertReason;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The sequence of Buffer Service calls of an upload, and out-of-order steps refused.
 */
public class ConnectionlessManagerTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private final List<String> calls = new ArrayList<>();

    private <T> T fake(Class<T> type) {
        return type.cast(Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{type}, (proxy, method, args) -> {
                    calls.add(method.getName() + Arrays.toString(args));
                    if (method.getName().equals("pause") || method.getName().equals("resume")) {
                        return new FlowBufIntent(IntentId.intentId(calls.size()),
                                                 FlowBufIntent.Type.PAUSE, S1,
                                                 (PortNumber) args[1], FlowFilter.builder().build(),
                                                 BufferId.bufferId("auto-1"),
                                                 FlowBufIntent.State.INSTALLED,
                                                 ConnectionlessService.OWNER, null);
                    }
                    return null;
                }));
    }

    @Test
    public void anUploadIsHeldStoredServedAndReleasedInThatOrder() {
        ConnectionlessManager cc = new ConnectionlessManager(fake(FlowBufIntentService.class),
                                                             fake(BufferService.class));
        CcUpload u = cc.requestUpload(S1, PortNumber.portNumber(1), FlowFilter.builder().build());
        try {
            cc.download(u.id(), PortNumber.portNumber(3));
            fail("served before it was stored");
        } catch (FlowBufException e) {
            assertEquals(FlowBufException.Reason.CONFLICT, e.reason());
        }
        assertEquals(CcUpload.State.STORED, cc.stored(u.id()).state());
        assertEquals(CcUpload.State.SERVED, cc.download(u.id(), PortNumber.portNumber(3)).state());
        assertEquals(CcUpload.State.RELEASED, cc.release(u.id()).state());
        List<String> names = new ArrayList<>();
        calls.forEach(c -> names.add(c.substring(0, c.indexOf('['))));
        assertEquals(List.of("pause", "moveBuffer", "resume", "withdraw", "withdraw",
                             "removeBuffer"), names);
        assertEquals("moveBuffer[device:s1, auto-1, org.flowbuf.apps.cc, STORING]", calls.get(1));
    }

    @Test
    public void anUploadGivenUpIsReleasedWithWhatItHeldAndOnlyOnce() {
        ConnectionlessManager cc = new ConnectionlessManager(fake(FlowBufIntentService.class),
                                                             fake(BufferService.class));
        CcUpload u = cc.requestUpload(S1, PortNumber.portNumber(1), FlowFilter.builder().build());
        assertEquals(CcUpload.State.RELEASED, cc.release(u.id()).state());
        assertEquals(List.of("pause", "withdraw", "removeBuffer"),
                     calls.stream().map(c -> c.substring(0, c.indexOf('[')))
                             .collect(Collectors.toList()));
        assertTrue(calls.get(2), calls.get(2).endsWith(", true]")); // discarded
        calls.clear();
        assertReason(() -> cc.release(u.id()), FlowBufException.Reason.CONFLICT);
        assertReason(() -> cc.stored(u.id()), FlowBufException.Reason.CONFLICT);
        assertEquals(List.of(), calls);
    }

    @Test
    public void aSecondUploadOfAFlowStillOpenIsRefusedWithoutACall() {
        ConnectionlessManager cc = new ConnectionlessManager(fake(FlowBufIntentService.class),
                                                             fake(BufferService.class));
        FlowFilter sensor = FlowFilter.builder().ipProto(17).l4DstPort(9100).build();
        CcUpload first = cc.requestUpload(S1, PortNumber.portNumber(1), sensor);
        calls.clear();
        assertReason(() -> cc.requestUpload(S1, PortNumber.portNumber(2), sensor),
                     FlowBufException.Reason.CONFLICT);
        assertEquals(List.of(), calls);
        assertEquals(1, cc.uploads().size());
        // Once released, the sensor may upload again; another device is another flow.
        cc.release(first.id());
        cc.requestUpload(S1, PortNumber.portNumber(1), sensor);
        cc.requestUpload(DeviceId.deviceId("device:s2"), PortNumber.portNumber(1), sensor);
        assertEquals(3, cc.uploads().size());
    }

    @Test
    public void onlyTheLatestReleasedUploadsAreListed() {
        ConnectionlessManager cc = new ConnectionlessManager(fake(FlowBufIntentService.class),
                                                             fake(BufferService.class));
        FlowFilter sensor = FlowFilter.builder().ipProto(17).build();
        long first = cc.requestUpload(S1, PortNumber.portNumber(1), sensor).id();
        cc.release(first);
        for (int i = 1; i < Retention.DEFAULT_KEPT; i++) {
            cc.release(cc.requestUpload(S1, PortNumber.portNumber(1), sensor).id());
        }
        assertEquals(Retention.DEFAULT_KEPT, cc.uploads().size());
        cc.release(cc.requestUpload(S1, PortNumber.portNumber(1), sensor).id());
        assertEquals(Retention.DEFAULT_KEPT, cc.uploads().size());
        assertTrue(cc.uploads().stream().noneMatch(u -> u.id() == first));
        assertReason(() -> cc.release(first), FlowBufException.Reason.NOT_FOUND);
    }
}
