/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.flowbuf.api.BufferId;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.apps.FmmPlan;
import org.flowbuf.api.apps.FmmSession;
import org.onlab.util.KryoNamespace;
import org.onosproject.store.serializers.KryoNamespaces;
import org.onosproject.store.service.Serializer;

/**
 * How FMM sessions and their runners are kept in the cluster's maps. A class of its own so
 * that only ONOS loads it: the embedded host has no ONOS store serializers.
 */
final class FmmSessionSerializer {

    static final Serializer SERIALIZER = Serializer.using(
            KryoNamespace.newBuilder().register(KryoNamespaces.API)
                    .register(FmmSession.class, FmmSession.State.class,
                              FmmSession.Counters.class, FmmPlan.class, FmmPlan.Cell.class,
                              FlowFilter.class, BufferId.class)
                    .build("flowbuf-fmm"));
    /** Which instance runs each open session (node ids as strings). */
    static final Serializer RUNNERS_SERIALIZER = Serializer.using(KryoNamespaces.API);

    private FmmSessionSerializer() {
    }
}
