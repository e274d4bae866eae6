/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import org.onlab.rest.AbstractWebApplication;

import java.util.Set;

/**
 * The FlowBuf REST application: its resources, error mappers, the
 * Server-Timing filter and the request-size bound.
 */
public class FlowBufWebApplication extends AbstractWebApplication {

    @Override
    public Set<Class<?>> getClasses() {
        return getClasses(DevicesWebResource.class, BuffersWebResource.class,
                          IntentsWebResource.class, NfvMigrationsWebResource.class,
                          CcUploadsWebResource.class, LmmHandoffsWebResource.class,
                          FmmSessionsWebResource.class,
                          ControllerHoldsWebResource.class,
                          ServerTimingFilter.class,
                          RequestSizeFilter.class,
                          FlowBufExceptionMapper.class,
                          MalformedJsonMapper.class,
                          RequestTooLargeMapper.class);
    }
}
