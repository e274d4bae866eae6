/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.upf;

import org.flowbuf.api.upf.UpfMeter;
import org.onosproject.net.pi.model.PiMeterId;

import java.util.Objects;
import java.util.Optional;

/** One cell of an indexed meter with its configuration (empty: back to unconfigured). */
public final class MeterCell {

    private final PiMeterId meterId;
    private final long index;
    private final UpfMeter config;

    /**
     * A cell.
     *
     * @param meterId meter
     * @param index   cell
     * @param config  configuration, null to reset the cell (no meter: green)
     */
    public MeterCell(PiMeterId meterId, long index, UpfMeter config) {
        this.meterId = Objects.requireNonNull(meterId);
        this.index = index;
        this.config = config;
    }

    /**
     * The meter.
     *
     * @return meter id
     */
    public PiMeterId meterId() {
        return meterId;
    }

    /**
     * The cell.
     *
     * @return index
     */
    public long index() {
        return index;
    }

    /**
     * The configuration.
     *
     * @return config, empty to reset
     */
    public Optional<UpfMeter> config() {
        return Optional.ofNullable(config);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof MeterCell)) {
            return false;
        }
        MeterCell c = (MeterCell) o;
        return meterId.equals(c.meterId) && index == c.index && Objects.equals(config, c.config);
    }

    @Override
    public int hashCode() {
        return Objects.hash(meterId, index, config);
    }

    @Override
    public String toString() {
        return meterId + "[" + index + "] " + (config == null ? "reset" : config);
    }
}
