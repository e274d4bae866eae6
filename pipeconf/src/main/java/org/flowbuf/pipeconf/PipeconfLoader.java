/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.pipeconf;

import org.onosproject.net.pi.service.PiPipeconfService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;

import static org.slf4j.LoggerFactory.getLogger;

/**
 * Registers the FlowBuf pipeconf with ONOS while the app is active, so
 * Stratum bmv2 devices whose netcfg names it get the FlowBuf pipeline.
 */
@Component(immediate = true)
public class PipeconfLoader {

    private final Logger log = getLogger(getClass());

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PiPipeconfService pipeconfService;

    @Activate
    protected void activate() {
        if (pipeconfService.getPipeconf(FlowBufPipeconfs.PIPECONF_ID).isPresent()) {
            // A leftover of an earlier activation: replace it with this bundle's.
            pipeconfService.unregister(FlowBufPipeconfs.PIPECONF_ID);
        }
        pipeconfService.register(FlowBufPipeconfs.build());
        log.info("Registered pipeconf {}", FlowBufPipeconfs.PIPECONF_ID);
    }

    @Deactivate
    protected void deactivate() {
        if (pipeconfService.getPipeconf(FlowBufPipeconfs.PIPECONF_ID).isPresent()) {
            pipeconfService.unregister(FlowBufPipeconfs.PIPECONF_ID);
        }
        log.info("Unregistered pipeconf {}", FlowBufPipeconfs.PIPECONF_ID);
    }
}
