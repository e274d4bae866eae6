/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.upf;

import org.onlab.packet.Ip4Address;

import java.util.List;
import java.util.Optional;

/**
 * The hybrid UPF's placement (hybrid P4 UPF, sections 5.3 and 5.4): every
 * session runs on the slow path; a heavy hitter's downlink is promoted to
 * the fast path's small session table, the coldest promoted UE is demoted
 * when the table is full, and a promoted UE that stays under the
 * heavy-hitter rate is demoted. A move holds the UE's packets until the old
 * path has drained, so none is lost or reordered.
 */
public interface HybridPlacementService {

    /**
     * The current settings.
     *
     * @return settings
     */
    HybridSettings settings();

    /**
     * New settings: the fast path's slow port is written at once; UEs over
     * a smaller budget are demoted, coldest first.
     *
     * @param settings settings
     * @throws org.flowbuf.api.FlowBufException INVALID when they name a device that is not
     *                                          configured; UNAVAILABLE when the fast path
     *                                          did not take them (kept, written again when
     *                                          it comes back)
     */
    void configure(HybridSettings settings);

    /**
     * Every UE that was placed on the fast path since the settings last changed, and
     * where it is now.
     *
     * @return placements, by UE address
     */
    List<UePlacement> placements();

    /**
     * One UE's placement.
     *
     * @param ueAddress UE
     * @return its placement, empty when it was never promoted
     */
    Optional<UePlacement> placement(Ip4Address ueAddress);
}
