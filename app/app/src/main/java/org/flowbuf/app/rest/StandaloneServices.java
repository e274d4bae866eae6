/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import org.onlab.osgi.ServiceDirectory;
import org.onlab.osgi.ServiceNotFoundException;
import org.onlab.rest.BaseResource;

import org.flowbuf.api.BufferService;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.apps.ConnectionlessService;
import org.flowbuf.api.apps.ControllerBufferingService;
import org.flowbuf.api.apps.FmmService;
import org.flowbuf.api.apps.LmmService;
import org.flowbuf.api.apps.NfvMigrationService;
import org.flowbuf.api.codec.FlowBufCodecs;
import org.flowbuf.api.codec.MapCodecService;
import org.flowbuf.app.FlowBufCore;
import org.flowbuf.app.apps.cc.ConnectionlessManager;
import org.flowbuf.app.apps.mobility.FmmManager;
import org.flowbuf.app.apps.mobility.LmmManager;
import org.flowbuf.app.apps.nfv.NfvMigrationManager;
import org.flowbuf.app.baseline.ControllerBufferingManager;
import org.flowbuf.app.intent.MulticastGroupWriter;
import org.flowbuf.app.intent.SteeringRuleWriter;
import org.flowbuf.app.packet.PacketEmitter;
import org.onosproject.codec.CodecService;

import java.lang.reflect.Field;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The services the REST resources find when they run outside OSGi (the
 * embedded host, REST tests). ONOS resources look services up in a static
 * directory of BaseResource, which in ONOS is the OSGi registry; ONOS's own
 * REST tests replace it the same way.
 */
public final class StandaloneServices implements ServiceDirectory {

    private final Map<Class<?>, Object> services = new ConcurrentHashMap<>();

    /**
     * Every FlowBuf service on one core, with the JSON codecs: what the
     * embedded host serves and what the REST tests use.
     *
     * @param core    the Buffer Service core
     * @param rules   writer of the applications' own rules (the LMM and FMM anchor)
     * @param groups  writer of multicast groups (the FMM anchor)
     * @param packets packet-out (the LMM end marker)
     * @return the directory, not yet installed
     */
    public static StandaloneServices forCore(FlowBufCore core, SteeringRuleWriter rules,
                                             MulticastGroupWriter groups, PacketEmitter packets) {
        MapCodecService codecs = new MapCodecService();
        FlowBufCodecs.register(codecs);
        ControllerBufferingService controllerBuffering =
                new ControllerBufferingManager(rules, packets);
        return new StandaloneServices().add(BufferService.class, core.buffers())
                .add(FlowBufIntentService.class, core.intents())
                .add(NfvMigrationService.class, new NfvMigrationManager(core.intents()))
                .add(ConnectionlessService.class,
                     new ConnectionlessManager(core.intents(), core.buffers()))
                .add(ControllerBufferingService.class, controllerBuffering)
                .add(LmmService.class,
                     new LmmManager(core.intents(), core.buffers(), controllerBuffering, rules,
                                    packets))
                .add(FmmService.class,
                     new FmmManager(core.intents(), core.buffers(), rules, groups))
                .add(CodecService.class, codecs);
    }

    /**
     * Adds a service.
     *
     * @param type    service interface
     * @param service implementation
     * @param <T>     service type
     * @return this directory
     */
    public <T> StandaloneServices add(Class<T> type, T service) {
        services.put(type, Objects.requireNonNull(service));
        return this;
    }

    @Override
    public <T> T get(Class<T> type) {
        Object service = services.get(type);
        if (service == null) {
            throw new ServiceNotFoundException("no " + type.getName() + " outside ONOS");
        }
        return type.cast(service);
    }

    /**
     * Makes this directory the one every REST resource reads.
     */
    public void install() {
        try {
            Field field = BaseResource.class.getDeclaredField("services");
            field.setAccessible(true);
            field.set(null, this);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot install REST services: " + e, e);
        }
    }
}
