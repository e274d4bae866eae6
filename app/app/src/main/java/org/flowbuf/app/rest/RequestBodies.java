/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.rest;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.codec.JsonFields;
import org.onosproject.net.DeviceId;

import javax.ws.rs.core.UriInfo;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Parsing of request bodies and path parameters, with errors that name what
 * is wrong.
 */
final class RequestBodies {

    /** Owner of what REST and CLI users create when they do not name one. */
    static final String DEFAULT_OWNER = BufferService.OPERATOR;

    /** Deepest nesting of objects and arrays a body may have (an FMM plan needs 4). */
    static final int MAX_DEPTH = 32;

    private RequestBodies() {
    }

    /**
     * The request body as a JSON object.
     *
     * @param mapper JSON mapper
     * @param body   the body (RequestSizeFilter bounds it)
     * @return the object
     * @throws IOException when the body cannot be read (or is over the bound)
     * @throws FlowBufException INVALID when it is no JSON object or nests deeper than MAX_DEPTH
     */
    static ObjectNode object(ObjectMapper mapper, InputStream body) throws IOException {
        byte[] bytes = body.readAllBytes();
        checkDepth(mapper, bytes);
        JsonNode json = mapper.readTree(bytes);
        if (json == null || !json.isObject()) {
            throw FlowBufException.invalid("the request body must be a JSON object");
        }
        return (ObjectNode) json;
    }

    // Jackson builds a tree by recursion: a body of 200,000 "[" overflowed
    // the stack (a 500 with no body). The streaming parser is iterative, so
    // it can count the nesting first.
    private static void checkDepth(ObjectMapper mapper, byte[] bytes) throws IOException {
        try (JsonParser parser = mapper.getFactory().createParser(bytes)) {
            int depth = 0;
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                if (token.isStructStart() && ++depth > MAX_DEPTH) {
                    throw FlowBufException.invalid("the request body nests deeper than %d levels",
                                                   MAX_DEPTH);
                }
                if (token.isStructEnd()) {
                    depth--;
                }
            }
        }
    }

    static DeviceId deviceId(String id) {
        return JsonFields.deviceId("deviceId", id);
    }

    static BufferId bufferId(String id) {
        return JsonFields.parse("bufferId", id, BufferId::bufferId);
    }

    /**
     * Refuses a boolean query parameter that is neither true nor false:
     * JAX-RS reads any other text as false (Boolean.valueOf), so
     * {@code ?discard=-662} would act as {@code discard=false}.
     *
     * @param uri  the request's URI
     * @param name the parameter
     */
    static void checkBoolean(UriInfo uri, String name) {
        List<String> values = uri.getQueryParameters().get(name);
        if (values == null) {
            return;
        }
        for (String value : values) {
            if (!"true".equalsIgnoreCase(value) && !"false".equalsIgnoreCase(value)) {
                throw FlowBufException.invalid("%s must be true or false, not \"%s\"", name, value);
            }
        }
    }

    /**
     * A numeric id from a URL path.
     *
     * @param what what the id names, for the message ("intent", "upload")
     * @param text the path segment
     * @return the id
     */
    static long id(String what, String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw FlowBufException.invalid("bad %s id \"%s\" (expected a number)", what, text);
        }
    }

    /**
     * A required array of JSON objects.
     *
     * @param json  request body
     * @param field name of the array
     * @return its elements
     */
    static List<ObjectNode> objects(ObjectNode json, String field) {
        JsonNode array = json.get(field);
        if (array == null || !array.isArray()) {
            throw FlowBufException.invalid("\"%s\" must be an array of objects", field);
        }
        List<ObjectNode> elements = new ArrayList<>();
        for (JsonNode element : array) {
            if (!element.isObject()) {
                throw FlowBufException.invalid("\"%s\" must be an array of objects, not %s",
                                               field, element);
            }
            elements.add((ObjectNode) element);
        }
        return elements;
    }

    static String owner(ObjectNode json) {
        return JsonFields.optionalText(json, "owner").orElse(DEFAULT_OWNER);
    }
}
