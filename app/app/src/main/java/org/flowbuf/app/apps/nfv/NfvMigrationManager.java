/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.nfv;

import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.apps.NfvMigration;
import org.flowbuf.api.apps.NfvMigrationService;
import org.flowbuf.app.history.Retention;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * NFV flow migration as an ONOS component (and, constructed directly, in the
 * embedded host): begin = pause the flow into a buffer of its own; complete
 * = resume it towards the new instance's port; abort = towards the old one.
 */
@Component(immediate = true, service = NfvMigrationService.class)
public class NfvMigrationManager implements NfvMigrationService {

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected FlowBufIntentService intentService;

    private final AtomicLong nextId = new AtomicLong(1);
    private final Map<Long, NfvMigration> migrations = new ConcurrentHashMap<>();
    private final Retention<Long> finished = new Retention<>(Retention.DEFAULT_KEPT);

    /** For OSGi. */
    public NfvMigrationManager() {
    }

    /**
     * Creates the service on an intent service (embedded host, tests).
     *
     * @param intents the Buffer Service's intent API
     */
    public NfvMigrationManager(FlowBufIntentService intents) {
        this.intentService = intents;
    }

    @Override
    public NfvMigration begin(DeviceId deviceId, PortNumber inPort, FlowFilter flow) {
        FlowBufIntent pause = intentService.pause(deviceId, inPort, flow, Optional.empty(), OWNER);
        NfvMigration migration = new NfvMigration(nextId.getAndIncrement(), deviceId, inPort, flow,
                                                  pause.bufferId().orElseThrow(), pause.id(),
                                                  NfvMigration.State.HOLDING, null);
        migrations.put(migration.id(), migration);
        return migration;
    }

    @Override
    public synchronized NfvMigration complete(long id, PortNumber newPort) {
        return release(id, newPort, NfvMigration.State.COMPLETED);
    }

    @Override
    public synchronized NfvMigration abort(long id, PortNumber oldPort) {
        return release(id, oldPort, NfvMigration.State.ABORTED);
    }

    private NfvMigration release(long id, PortNumber port, NfvMigration.State state) {
        NfvMigration migration = Optional.ofNullable(migrations.get(id)).orElseThrow(
                () -> FlowBufException.notFound("no migration %d", id));
        if (migration.state() != NfvMigration.State.HOLDING) {
            throw FlowBufException.conflict("migration %d is %s, not HOLDING", id,
                                            migration.state());
        }
        intentService.resume(migration.deviceId(), port, migration.flow(),
                             Optional.of(migration.buffer()), OWNER);
        NfvMigration released = migration.released(state, port);
        migrations.put(id, released);
        finished.finished(id).forEach(migrations::remove);
        return released;
    }

    @Override
    public Collection<NfvMigration> migrations() {
        return List.copyOf(migrations.values());
    }
}
