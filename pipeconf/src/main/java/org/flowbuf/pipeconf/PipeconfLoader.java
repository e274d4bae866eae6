/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.pipeconf;

import org.onosproject.net.pi.model.PiPipeconfId;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;

import static org.slf4j.LoggerFactory.getLogger;

/**
 * Registers the FlowBuf pipeconfs with ONOS while the app is active (the
 * default one and the hybrid UPF's fast and slow profiles), so Stratum
 * bmv2 devices whose netcfg names one get that pipeline.
 */
@Component(immediate = true)
public class PipeconfLoader {

    private final Logger log = getLogger(getClass());

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PiPipeconfService pipeconfService;

    @Activate
    protected void activate() {
        for (PiPipeconfId id : FlowBufPipeconfs.ALL_IDS) {
            if (pipeconfService.getPipeconf(id).isPresent()) {
                // A leftover of an earlier activation: replace it with this bundle's.
                pipeconfService.unregister(id);
            }
            pipeconfService.register(FlowBufPipeconfs.build(id));
            log.info("Registered pipeconf {}", id);
        }
    }

    @Deactivate
    protected void deactivate() {
        for (PiPipeconfId id : FlowBufPipeconfs.ALL_IDS) {
            if (pipeconfService.getPipeconf(id).isPresent()) {
                pipeconfService.unregister(id);
                log.info("Unregistered pipeconf {}", id);
            }
        }
    }
}
