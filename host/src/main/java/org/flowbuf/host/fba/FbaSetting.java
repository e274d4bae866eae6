/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.host.fba;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.net.HostAndPort;
import org.flowbuf.app.apps.fba.FbaTuner;

import java.time.Duration;
import java.util.Iterator;
import java.util.Set;

/**
 * A device's "fba" netcfg section, which runs FBA on a pbswitch started
 * with a shared buffer under DT:
 * <pre>
 * "fba": { "adminAddress": "127.0.0.1:9560", "periodMs": 1000 }
 * </pre>
 * periodMs defaults to the paper's 1000 and is at least 10.
 */
public final class FbaSetting {

    static final String ADMIN_ADDRESS = "adminAddress";
    static final String PERIOD_MS = "periodMs";
    private static final long MAX_PERIOD_MS = 3_600_000;

    private final String adminAddress;
    private final Duration period;

    private FbaSetting(String adminAddress, Duration period) {
        this.adminAddress = adminAddress;
        this.period = period;
    }

    /**
     * Reads a section.
     *
     * @param json the "fba" object
     * @return the setting
     * @throws IllegalArgumentException naming the bad field
     */
    public static FbaSetting parse(JsonNode json) {
        if (!json.isObject()) {
            throw new IllegalArgumentException("must be an object");
        }
        for (Iterator<String> it = json.fieldNames(); it.hasNext();) {
            String field = it.next();
            if (!Set.of(ADMIN_ADDRESS, PERIOD_MS).contains(field)) {
                throw new IllegalArgumentException("unknown field " + field
                                                           + "; allowed: adminAddress, periodMs");
            }
        }
        String address = json.path(ADMIN_ADDRESS).asText("");
        try {
            HostAndPort hp = HostAndPort.fromString(address);
            if (!hp.hasPort() || hp.getHost().isEmpty()) {
                throw new IllegalArgumentException("no port");
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("adminAddress must be host:port, not \"" + address
                                                       + "\"");
        }
        JsonNode period = json.path(PERIOD_MS);
        long ms = FbaTuner.DEFAULT_PERIOD.toMillis();
        if (!period.isMissingNode()) {
            if (!period.canConvertToLong() || !period.isIntegralNumber()
                    || period.asLong() < FbaTuner.MIN_PERIOD.toMillis()
                    || period.asLong() > MAX_PERIOD_MS) {
                throw new IllegalArgumentException("periodMs must be a whole number of ms in ["
                                                           + FbaTuner.MIN_PERIOD.toMillis() + ", "
                                                           + MAX_PERIOD_MS + "], not " + period);
            }
            ms = period.asLong();
        }
        return new FbaSetting(address, Duration.ofMillis(ms));
    }

    /**
     * The switch's admin API.
     *
     * @return host:port
     */
    public String adminAddress() {
        return adminAddress;
    }

    /**
     * How often FBA re-tunes.
     *
     * @return the period
     */
    public Duration period() {
        return period;
    }
}
