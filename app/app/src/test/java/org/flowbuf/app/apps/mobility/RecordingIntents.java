/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;

import java.lang.reflect.Proxy;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * An intent service that installs every pause and resume and records each
 * call as text: "pause device:s1/1 buffer #3", "resume ...", "withdraw 3".
 */
final class RecordingIntents {

    private RecordingIntents() {
    }

    // record may throw to refuse the call; nextId numbers the intents.
    static FlowBufIntentService of(Consumer<String> record, IntSupplier nextId, String owner,
                                   FlowFilter flow) {
        return (FlowBufIntentService) Proxy.newProxyInstance(
                RecordingIntents.class.getClassLoader(),
                new Class<?>[]{FlowBufIntentService.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("withdraw")) {
                        record.accept("withdraw " + ((IntentId) args[0]).id());
                        return null;
                    }
                    DeviceId device = (DeviceId) args[0];
                    @SuppressWarnings("unchecked")
                    Optional<BufferId> buffer = (Optional<BufferId>) args[3];
                    int id = nextId.getAsInt();
                    record.accept(method.getName() + " " + device + "/" + args[1] + " "
                                          + buffer.orElseThrow() + " #" + id);
                    FlowBufIntent.Type type = method.getName().equals("pause")
                            ? FlowBufIntent.Type.PAUSE : FlowBufIntent.Type.RESUME;
                    return new FlowBufIntent(IntentId.intentId(id), type, device,
                                             (PortNumber) args[1], flow, buffer.get(),
                                             FlowBufIntent.State.INSTALLED, owner, null);
                });
    }
}
