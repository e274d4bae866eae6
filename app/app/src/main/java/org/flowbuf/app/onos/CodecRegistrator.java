/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.flowbuf.api.codec.FlowBufCodecs;
import org.onosproject.codec.CodecService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;

/**
 * Registers FlowBuf's JSON codecs with ONOS, for the REST API, the CLI's -j
 * and the GUI overlay.
 */
@Component(immediate = true)
public class CodecRegistrator {

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CodecService codecService;

    @Activate
    protected void activate() {
        FlowBufCodecs.register(codecService);
    }

    @Deactivate
    protected void deactivate() {
        FlowBufCodecs.unregister(codecService);
    }
}
