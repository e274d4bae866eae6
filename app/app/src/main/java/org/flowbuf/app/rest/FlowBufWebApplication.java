/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import org.onlab.rest.AbstractWebApplication;

import java.util.Map;
import java.util.Set;

/**
 * The FlowBuf REST application: its resources, error mappers, the
 * Server-Timing filter and the request-size bound.
 */
public class FlowBufWebApplication extends AbstractWebApplication {

    /** Jersey's ServerProperties.WADL_FEATURE_DISABLE. */
    static final String DISABLE_WADL = "jersey.config.server.wadl.disableWadl";

    @Override
    public Set<Class<?>> getClasses() {
        return getClasses(DevicesWebResource.class, BuffersWebResource.class,
                          IntentsWebResource.class, NfvMigrationsWebResource.class,
                          CcUploadsWebResource.class, LmmHandoffsWebResource.class,
                          FmmSessionsWebResource.class,
                          ControllerHoldsWebResource.class,
                          UpfInterfacesWebResource.class, UpfSessionsWebResource.class,
                          UpfApplicationsWebResource.class, UpfFirewallWebResource.class,
                          UpfQueuesWebResource.class, UpfDevicesWebResource.class,
                          UpfHeavyHittersWebResource.class,
                          UpfPlacementWebResource.class,
                          UpfQosWebResource.class,
                          CongestionFlowsWebResource.class,
                          GnbWebResource.class,
                          ServerTimingFilter.class,
                          RequestSizeFilter.class,
                          JsonErrorFilter.class,
                          FlowBufExceptionMapper.class,
                          MalformedJsonMapper.class,
                          RequestTooLargeMapper.class);
    }

    /**
     * No WADL: the API's description is its OpenAPI document, and Jersey's
     * WADL needs JAXB, which a JDK 11+ runtime may lack: an OPTIONS request
     * then failed with 500 in the embedded host. Jersey answers OPTIONS with
     * the allowed methods instead.
     *
     * @return Jersey properties
     */
    @Override
    public Map<String, Object> getProperties() {
        return Map.of(DISABLE_WADL, true);
    }
}
