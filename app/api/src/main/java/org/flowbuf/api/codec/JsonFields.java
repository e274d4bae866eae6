/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.api.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.FlowBufException;
import org.onosproject.net.ConnectPoint;
import org.onosproject.net.DeviceId;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads fields of a JSON request and says precisely what is wrong with them.
 */
public final class JsonFields {

    /**
     * A device id, scheme:name (device:s1, of:0000000000000001): what the
     * REST document says (app/app/src/main/openapi/overlay.json, DeviceId),
     * an opaque URI without '/', which separates a connect point's port.
     */
    public static final Pattern DEVICE_ID = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*:[A-Za-z0-9._~:@-]+");
    /** ONOS's bound on a device id's length. */
    public static final int DEVICE_ID_MAX_LENGTH = 1024;
    /**
     * A connect point, deviceId/port with a device id of at most DEVICE_ID_MAX_LENGTH characters
     * (the lookahead) and a port of 1 to 999999999 (overlay.json, ConnectPoint).
     */
    public static final Pattern CONNECT_POINT = Pattern.compile(
            "(?=[^/]{1," + DEVICE_ID_MAX_LENGTH + "}/)" + DEVICE_ID.pattern() + "/[1-9][0-9]{0,8}");

    private JsonFields() {
    }

    /**
     * A device id from a request (a body field, a path or query parameter).
     *
     * @param field where it was, for the message
     * @param text  the id
     * @return the device id
     * @throws FlowBufException INVALID unless it is scheme:name (DEVICE_ID)
     */
    public static DeviceId deviceId(String field, String text) {
        if (text == null || text.length() > DEVICE_ID_MAX_LENGTH || !DEVICE_ID.matcher(text).matches()) {
            throw FlowBufException.invalid("%s: bad device id \"%s\" (expected scheme:name, e.g. device:s1)",
                                           field, text);
        }
        return DeviceId.deviceId(text);
    }

    /**
     * A required text field.
     *
     * @param json  object
     * @param field field name
     * @return its text
     * @throws FlowBufException INVALID when missing or not text
     */
    public static String text(ObjectNode json, String field) {
        return optionalText(json, field).orElseThrow(
                () -> FlowBufException.invalid("\"%s\" is required", field));
    }

    /**
     * An optional text field.
     *
     * @param json  object
     * @param field field name
     * @return its text, empty when absent or null
     * @throws FlowBufException INVALID when present but not text
     */
    public static Optional<String> optionalText(ObjectNode json, String field) {
        JsonNode node = json.get(field);
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        if (!node.isTextual()) {
            throw FlowBufException.invalid("\"%s\" must be a string", field);
        }
        return Optional.of(node.asText());
    }

    /**
     * A required non-negative integer field.
     *
     * @param json  object
     * @param field field name
     * @return its value
     * @throws FlowBufException INVALID when missing, not an integer or negative
     */
    public static long number(ObjectNode json, String field) {
        return optionalNumber(json, field).orElseThrow(
                () -> FlowBufException.invalid("\"%s\" is required", field));
    }

    /**
     * An optional non-negative integer field.
     *
     * @param json  object
     * @param field field name
     * @return its value, empty when absent or null
     * @throws FlowBufException INVALID when present but not a non-negative integer
     */
    public static Optional<Long> optionalNumber(ObjectNode json, String field) {
        JsonNode node = json.get(field);
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        if (!node.isIntegralNumber() || !node.canConvertToLong() || node.asLong() < 0) {
            throw FlowBufException.invalid("\"%s\" must be a non-negative integer", field);
        }
        return Optional.of(node.asLong());
    }

    /**
     * An optional boolean field.
     *
     * @param json  object
     * @param field field name
     * @return its value; false when absent or null
     * @throws FlowBufException INVALID when present but not true or false
     */
    public static boolean flag(ObjectNode json, String field) {
        JsonNode node = json.get(field);
        if (node == null || node.isNull()) {
            return false;
        }
        if (!node.isBoolean()) {
            throw FlowBufException.invalid("\"%s\" must be true or false", field);
        }
        return node.asBoolean();
    }

    /**
     * An optional object field.
     *
     * @param json  object
     * @param field field name
     * @return the object, empty when absent or null
     * @throws FlowBufException INVALID when present but not an object
     */
    public static Optional<ObjectNode> optionalObject(ObjectNode json, String field) {
        JsonNode node = json.get(field);
        if (node == null || node.isNull()) {
            return Optional.empty();
        }
        if (!node.isObject()) {
            throw FlowBufException.invalid("\"%s\" must be an object", field);
        }
        return Optional.of((ObjectNode) node);
    }

    /**
     * An optional enum field, by constant name.
     *
     * @param json  object
     * @param field field name
     * @param type  enum class
     * @param <E>   enum type
     * @return the constant, empty when absent
     * @throws FlowBufException INVALID for an unknown name
     */
    public static <E extends Enum<E>> Optional<E> optionalEnum(ObjectNode json, String field,
                                                               Class<E> type) {
        return optionalText(json, field).map(name -> {
            try {
                return Enum.valueOf(type, name.toUpperCase());
            } catch (IllegalArgumentException e) {
                throw FlowBufException.invalid("\"%s\" must be one of %s, not \"%s\"", field,
                                               java.util.Arrays.toString(type.getEnumConstants()),
                                               name);
            }
        });
    }

    /**
     * Runs a model constructor and turns its IllegalArgumentException into
     * an INVALID error naming the field.
     *
     * @param field field name
     * @param value text of the field
     * @param parse constructor
     * @param <T>   model type
     * @return the value
     */
    public static <T> T parse(String field, String value, java.util.function.Function<String, T> parse) {
        try {
            return parse.apply(value);
        } catch (IllegalArgumentException e) {
            throw FlowBufException.invalid("\"%s\": %s", field, e.getMessage() == null
                    ? "bad value \"" + value + "\"" : e.getMessage());
        }
    }

    /**
     * A required connect point field ("device:s1/3").
     *
     * @param json  object
     * @param where the object's name in the request, for the message ("anchor")
     * @param field field name
     * @return the connect point
     * @throws FlowBufException INVALID when missing or not a connect point
     */
    public static ConnectPoint connectPoint(ObjectNode json, String where, String field) {
        String text = text(json, field);
        try {
            if (!CONNECT_POINT.matcher(text).matches()) {
                throw new IllegalArgumentException(text);
            }
            return ConnectPoint.deviceConnectPoint(text);
        } catch (IllegalArgumentException e) {
            throw FlowBufException.invalid("%s.%s \"%s\" is not a connect point like "
                                                   + "\"device:s1/3\" (a device id of at most %d "
                                                   + "characters, a port of 1 to 999999999)",
                                           where, field, text, DEVICE_ID_MAX_LENGTH);
        }
    }

    /**
     * A required object field.
     *
     * @param json  object
     * @param field field name
     * @return the object
     * @throws FlowBufException INVALID when missing or not an object
     */
    public static ObjectNode object(ObjectNode json, String field) {
        return optionalObject(json, field).orElseThrow(
                () -> FlowBufException.invalid("\"%s\" is required", field));
    }
}
