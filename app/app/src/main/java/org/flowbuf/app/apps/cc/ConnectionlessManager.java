/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.cc;

import org.flowbuf.api.BufferService;
import org.flowbuf.api.BufferState;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.apps.CcUpload;
import org.flowbuf.api.apps.ConnectionlessService;
import org.flowbuf.app.history.Retention;
import org.flowbuf.app.task.StripedTurns;
import com.google.common.util.concurrent.Striped;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.function.Supplier;

/**
 * Connectionless uploads as an ONOS component (and, constructed directly, in
 * the embedded host): request = pause the sensor's uplink into its own
 * buffer; stored = Storing; download = resume towards the collector;
 * release = withdraw the intents and remove the buffer.
 *
 * <p>Per-object turns instead of a manager lock: a request runs in its
 * flow's turn (one open upload per flow), each later step in its upload's
 * turn (each step once, in order); uploads of different flows run in
 * parallel with their intent and buffer calls.
 */
@Component(immediate = true, service = ConnectionlessService.class)
public class ConnectionlessManager implements ConnectionlessService {

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected FlowBufIntentService intentService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected BufferService bufferService;

    private final AtomicLong nextId = new AtomicLong(1);
    private final Map<Long, CcUpload> uploads = new ConcurrentHashMap<>();
    // The intents of each upload not yet released.
    private final Map<Long, List<IntentId>> intents = new ConcurrentHashMap<>();
    private final Retention<Long> released = new Retention<>(Retention.DEFAULT_KEPT);
    /** Turns of flows (requests) and of uploads (their steps): Guava striped locks. */
    private final Striped<Lock> flowTurns = Striped.lazyWeakLock(1024);
    private final Striped<Lock> uploadTurns = Striped.lazyWeakLock(1024);

    /** For OSGi. */
    public ConnectionlessManager() {
    }

    /**
     * Creates the service on the Buffer Service's APIs (embedded host, tests).
     *
     * @param intentService intent API
     * @param bufferService task API
     */
    public ConnectionlessManager(FlowBufIntentService intentService, BufferService bufferService) {
        this.intentService = intentService;
        this.bufferService = bufferService;
    }

    @Override
    public CcUpload requestUpload(DeviceId deviceId, PortNumber sensorPort, FlowFilter flow) {
        return StripedTurns.inTurn(flowTurns, List.of(deviceId, flow.withoutInPort()),
                                   () -> request(deviceId, sensorPort, flow));
    }

    private CcUpload request(DeviceId deviceId, PortNumber sensorPort, FlowFilter flow) {
        // A second pause of the flow would join the first upload's buffer and
        // take over its rule, leaving the first upload unable to release.
        Optional<CcUpload> open = openUploadOf(deviceId, flow);
        if (open.isPresent()) {
            throw FlowBufException.conflict("flow %s on %s already has upload %d (%s); "
                                                    + "release it first", flow, deviceId,
                                            open.get().id(), open.get().state());
        }
        FlowBufIntent pause = intentService.pause(deviceId, sensorPort, flow, Optional.empty(),
                                                  OWNER);
        CcUpload upload = new CcUpload(nextId.getAndIncrement(), deviceId, sensorPort, flow,
                                       pause.bufferId().orElseThrow(), CcUpload.State.UPLOADING,
                                       null);
        uploads.put(upload.id(), upload);
        intents.put(upload.id(), new ArrayList<>(List.of(pause.id())));
        return upload;
    }

    @Override
    public CcUpload stored(long id) {
        return inTurn(id, () -> store(id));
    }

    private CcUpload store(long id) {
        CcUpload upload = in(id, CcUpload.State.UPLOADING);
        bufferService.moveBuffer(upload.deviceId(), upload.buffer(), OWNER, BufferState.STORING);
        return record(upload.with(CcUpload.State.STORED, null));
    }

    @Override
    public CcUpload download(long id, PortNumber collectorPort) {
        return inTurn(id, () -> serve(id, collectorPort));
    }

    private CcUpload serve(long id, PortNumber collectorPort) {
        CcUpload upload = in(id, CcUpload.State.STORED);
        FlowBufIntent resume = intentService.resume(upload.deviceId(), collectorPort,
                                                    upload.flow(), Optional.of(upload.buffer()),
                                                    OWNER);
        intents.get(id).add(resume.id());
        return record(upload.with(CcUpload.State.SERVED, collectorPort));
    }

    @Override
    public CcUpload release(long id) {
        return inTurn(id, () -> releaseInTurn(id));
    }

    private CcUpload releaseInTurn(long id) {
        // Served, or given up on before (a sensor that never finished): what
        // the buffer still holds goes with it.
        CcUpload upload = in(id, EnumSet.of(CcUpload.State.UPLOADING, CcUpload.State.STORED,
                                            CcUpload.State.SERVED));
        // The pause first (nothing new enters), then the replay rule, then the buffer.
        for (IntentId intent : intents.get(id)) {
            intentService.withdraw(intent, OWNER);
        }
        bufferService.removeBuffer(upload.deviceId(), upload.buffer(), OWNER, true);
        intents.remove(id);
        CcUpload done = record(upload.with(CcUpload.State.RELEASED, null));
        released.finished(id).forEach(uploads::remove);
        return done;
    }

    @Override
    public Collection<CcUpload> uploads() {
        return List.copyOf(uploads.values());
    }

    // Only open uploads have intents: a look at those, not at the released ones.
    private Optional<CcUpload> openUploadOf(DeviceId deviceId, FlowFilter flow) {
        FlowFilter wanted = flow.withoutInPort();
        return intents.keySet().stream().map(uploads::get)
                .filter(u -> u.deviceId().equals(deviceId)
                        && u.flow().withoutInPort().equals(wanted))
                .findFirst();
    }

    private CcUpload inTurn(long id, Supplier<CcUpload> step) {
        return StripedTurns.inTurn(uploadTurns, id, step);
    }

    private CcUpload in(long id, CcUpload.State expected) {
        return in(id, EnumSet.of(expected));
    }

    private CcUpload in(long id, Set<CcUpload.State> expected) {
        CcUpload upload = Optional.ofNullable(uploads.get(id)).orElseThrow(
                () -> FlowBufException.notFound("no upload %d", id));
        if (!expected.contains(upload.state())) {
            throw FlowBufException.conflict("upload %d is %s, not %s", id, upload.state(),
                                            expected.size() == 1 ? expected.iterator().next()
                                                                 : "one of " + expected);
        }
        return upload;
    }

    private CcUpload record(CcUpload upload) {
        uploads.put(upload.id(), upload);
        return upload;
    }
}
