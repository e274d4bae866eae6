/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import org.onlab.osgi.ServiceDirectory;
import org.onlab.osgi.ServiceNotFoundException;
import org.onlab.rest.BaseResource;

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
