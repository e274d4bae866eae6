/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.nfv;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.apps.NfvMigration;
import org.onlab.util.KryoNamespace;
import org.onosproject.store.serializers.KryoNamespaces;
import org.onosproject.store.service.Serializer;

/**
 * How NFV migrations are kept in the cluster's map. A class of its own so
 * that only ONOS loads it: the embedded host has no ONOS store serializers.
 */
final class NfvMigrationCodec {

    static final Serializer SERIALIZER = Serializer.using(
            KryoNamespace.newBuilder().register(KryoNamespaces.API)
                    .register(NfvMigration.class, NfvMigration.State.class, FlowFilter.class,
                              BufferId.class, IntentId.class)
                    .build("flowbuf-nfv"));

    private NfvMigrationCodec() {
    }
}
