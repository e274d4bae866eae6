/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.upf;

import org.flowbuf.api.FlowBufException;
import org.onosproject.net.DeviceId;

import java.util.Objects;
import java.util.Optional;

/**
 * An application on a UPF device: the flows its filter matches (both
 * directions, as the UE sees them) get the application's own QFI and,
 * when given, its own meter (shared by all its flows on the device). Every
 * session of the device gets a termination for it. Where filters overlap,
 * the higher priority wins.
 */
public final class UpfApplication {

    /** The largest application id (8 bits; 0 is the default application). */
    public static final int MAX_APP_ID = 255;
    /** The largest priority. */
    public static final int MAX_PRIORITY = 65535;

    private final DeviceId deviceId;
    private final int appId;
    private final int priority;
    private final UpfFilter filter;
    private final int qfi;
    private final UpfMeter meter;

    /**
     * An application.
     *
     * @param deviceId device
     * @param appId    1-255
     * @param priority 1-65535
     * @param filter   the flows (must name something)
     * @param qfi      0-63
     * @param meter    its meter, null for none
     * @throws FlowBufException INVALID when a value is out of range
     */
    public UpfApplication(DeviceId deviceId, long appId, long priority, UpfFilter filter,
                          long qfi, UpfMeter meter) {
        this.deviceId = Objects.requireNonNull(deviceId);
        if (appId < 1 || appId > MAX_APP_ID) {
            throw FlowBufException.invalid("appId must be between 1 and %d (0 is the default "
                                                   + "application), got %d", MAX_APP_ID, appId);
        }
        this.appId = (int) appId;
        this.priority = checkPriority(priority);
        this.filter = Objects.requireNonNull(filter);
        if (filter.matchesEverything()) {
            throw FlowBufException.invalid("application %d: the filter names no field, so it "
                                                   + "would take every flow of every UE", appId);
        }
        this.qfi = PduSession.checkQfi(qfi);
        this.meter = meter;
    }

    /**
     * Checks a table priority.
     *
     * @param priority value
     * @return it, as an int
     * @throws FlowBufException INVALID when out of 1-65535
     */
    public static int checkPriority(long priority) {
        if (priority < 1 || priority > MAX_PRIORITY) {
            throw FlowBufException.invalid("priority must be between 1 and %d, got %d",
                                           MAX_PRIORITY, priority);
        }
        return (int) priority;
    }

    /**
     * The device.
     *
     * @return device
     */
    public DeviceId deviceId() {
        return deviceId;
    }

    /**
     * The application id.
     *
     * @return 1-255
     */
    public int appId() {
        return appId;
    }

    /**
     * Priority among overlapping applications.
     *
     * @return priority
     */
    public int priority() {
        return priority;
    }

    /**
     * The flows.
     *
     * @return filter
     */
    public UpfFilter filter() {
        return filter;
    }

    /**
     * The QFI of its flows.
     *
     * @return 0-63
     */
    public int qfi() {
        return qfi;
    }

    /**
     * The application's meter.
     *
     * @return meter, empty when unmetered
     */
    public Optional<UpfMeter> meter() {
        return Optional.ofNullable(meter);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof UpfApplication)) {
            return false;
        }
        UpfApplication a = (UpfApplication) o;
        return appId == a.appId && priority == a.priority && qfi == a.qfi
                && deviceId.equals(a.deviceId) && filter.equals(a.filter)
                && Objects.equals(meter, a.meter);
    }

    @Override
    public int hashCode() {
        return Objects.hash(deviceId, appId);
    }

    @Override
    public String toString() {
        return "application " + appId + " " + deviceId + " (" + filter + ") qfi " + qfi;
    }
}
