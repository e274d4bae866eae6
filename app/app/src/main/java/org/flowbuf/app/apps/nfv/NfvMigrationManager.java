/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.nfv;

import com.google.common.util.concurrent.Striped;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.apps.NfvMigration;
import org.flowbuf.api.apps.NfvMigrationService;
import org.flowbuf.app.history.Retention;
import org.flowbuf.app.store.DistributedIdRecords;
import org.flowbuf.app.store.IdRecords;
import org.flowbuf.app.store.InMemoryIdRecords;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.store.service.StorageService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.Lock;
import java.util.function.Supplier;

/**
 * NFV flow migration as an ONOS component (and, constructed directly, in the
 * embedded host): begin = pause the flow into a buffer of its own; complete
 * = resume it towards the new instance's port; abort = towards the old one.
 */
@Component(immediate = true, service = NfvMigrationService.class)
public class NfvMigrationManager implements NfvMigrationService {

    /** The migrations' map in the cluster (its ids: a counter of the same name + "-ids"). */
    static final String MIGRATIONS = "flowbuf-nfv-migrations";

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected FlowBufIntentService intentService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected StorageService storageService;

    /** In ONOS the cluster's: another instance completes a migration this one began. */
    private IdRecords<NfvMigration> migrations = new InMemoryIdRecords<>();
    private final Retention<Long> finished = new Retention<>(Retention.DEFAULT_KEPT);
    /** Turns of migrations (Guava striped locks): many more than release at once. */
    private final Striped<Lock> turns = Striped.lazyWeakLock(1024);

    /** For OSGi. */
    public NfvMigrationManager() {
    }

    /**
     * Creates the service on an intent service (embedded host, tests).
     *
     * @param intents the Buffer Service's intent API
     */
    public NfvMigrationManager(FlowBufIntentService intents) {
        this(intents, new InMemoryIdRecords<>());
    }

    /**
     * As above, on given records (tests: two instances on one cluster's storage).
     *
     * @param intents    the Buffer Service's intent API
     * @param migrations the migrations' records
     */
    NfvMigrationManager(FlowBufIntentService intents, IdRecords<NfvMigration> migrations) {
        this.intentService = intents;
        this.migrations = migrations;
    }

    @Activate
    protected void activate() {
        migrations = new DistributedIdRecords<>(storageService, MIGRATIONS,
                                              NfvMigrationCodec.SERIALIZER);
    }

    @Override
    public NfvMigration begin(DeviceId deviceId, PortNumber inPort, FlowFilter flow) {
        FlowBufIntent pause = intentService.pause(deviceId, inPort, flow, Optional.empty(), OWNER);
        NfvMigration migration = new NfvMigration(migrations.nextId(), deviceId, inPort, flow,
                                                  pause.bufferId().orElseThrow(), pause.id(),
                                                  NfvMigration.State.HOLDING, null);
        migrations.put(migration.id(), migration);
        return migration;
    }

    @Override
    public NfvMigration complete(long id, PortNumber newPort) {
        return inTurn(id, () -> release(id, newPort, NfvMigration.State.COMPLETED));
    }

    @Override
    public NfvMigration abort(long id, PortNumber oldPort) {
        return inTurn(id, () -> release(id, oldPort, NfvMigration.State.ABORTED));
    }

    // A release checks HOLDING, resumes the flow and records the outcome:
    // one release of a migration at a time, so it is released once; those
    // of different migrations run in parallel with their intent calls.
    private NfvMigration inTurn(long id, Supplier<NfvMigration> release) {
        Lock turn = turns.get(id);
        turn.lock();
        try {
            return release.get();
        } finally {
            turn.unlock();
        }
    }

    private NfvMigration release(long id, PortNumber port, NfvMigration.State state) {
        NfvMigration migration = migrations.get(id).orElseThrow(
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
