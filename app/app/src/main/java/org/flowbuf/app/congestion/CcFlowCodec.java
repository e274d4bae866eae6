/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.congestion;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.congestion.CcFlowRequest;
import org.flowbuf.api.congestion.CcHop;
import org.flowbuf.api.congestion.CcPath;
import org.flowbuf.api.congestion.CcThresholds;
import org.flowbuf.api.congestion.CongestionMode;
import org.flowbuf.api.congestion.LatencyCriticalFlow;
import org.flowbuf.api.congestion.OrderedSwitchover;
import org.flowbuf.api.congestion.ProbeStats;
import org.flowbuf.api.congestion.SwitchOver;
import org.onlab.util.KryoNamespace;
import org.onosproject.store.serializers.KryoNamespaces;
import org.onosproject.store.service.Serializer;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How congestion flows are kept in the cluster's maps. A class of its own so
 * that only ONOS loads it: the embedded host has no ONOS store serializers.
 * The flows hold the JDK's immutable lists and maps (List.copyOf,
 * Map.copyOf), whose classes are private to java.util: they are written as
 * their elements and read back as List.copyOf / Map.copyOf.
 */
final class CcFlowCodec {

    static final Serializer SERIALIZER = Serializer.using(
            KryoNamespace.newBuilder().register(KryoNamespaces.API)
                    .register(new ImmutableListSerializer(), List.of().getClass(),
                              List.of(1).getClass(), List.of(1, 2, 3).getClass())
                    .register(new ImmutableMapSerializer(), Map.of().getClass(),
                              Map.of(1, 1).getClass(), Map.of(1, 1, 2, 2).getClass())
                    .register(CcRecord.class, CcLayout.class, CcSink.class, CcPath.class,
                              CcHop.class, CcThresholds.class, CongestionMode.class,
                              LatencyCriticalFlow.class, CcFlowRequest.class, SwitchOver.class,
                              SwitchOver.Cause.class, OrderedSwitchover.class, ProbeStats.class,
                              FlowFilter.class, Instant.class)
                    .build("flowbuf-cc"));

    private CcFlowCodec() {
    }

    /** A JDK immutable list: its size, then its elements. */
    private static final class ImmutableListSerializer
            extends com.esotericsoftware.kryo.Serializer<List<?>> {
        ImmutableListSerializer() {
            super(false, true);
        }

        @Override
        public void write(Kryo kryo, Output output, List<?> list) {
            output.writeInt(list.size(), true);
            list.forEach(e -> kryo.writeClassAndObject(output, e));
        }

        @Override
        public List<?> read(Kryo kryo, Input input, Class<List<?>> type) {
            int size = input.readInt(true);
            List<Object> elements = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                elements.add(kryo.readClassAndObject(input));
            }
            return List.copyOf(elements);
        }
    }

    /** A JDK immutable map: its size, then its keys and values. */
    private static final class ImmutableMapSerializer
            extends com.esotericsoftware.kryo.Serializer<Map<?, ?>> {
        ImmutableMapSerializer() {
            super(false, true);
        }

        @Override
        public void write(Kryo kryo, Output output, Map<?, ?> map) {
            output.writeInt(map.size(), true);
            map.forEach((k, v) -> {
                kryo.writeClassAndObject(output, k);
                kryo.writeClassAndObject(output, v);
            });
        }

        @Override
        public Map<?, ?> read(Kryo kryo, Input input, Class<Map<?, ?>> type) {
            int size = input.readInt(true);
            Map<Object, Object> entries = new HashMap<>(size);
            for (int i = 0; i < size; i++) {
                entries.put(kryo.readClassAndObject(input), kryo.readClassAndObject(input));
            }
            return Map.copyOf(entries);
        }
    }
}
