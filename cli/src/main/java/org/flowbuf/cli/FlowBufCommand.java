/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import org.flowbuf.api.FlowBufException;
import org.onosproject.cli.AbstractShellCommand;
import org.onosproject.codec.CodecService;
import org.onosproject.codec.JsonCodec;

import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Base of FlowBuf commands: a refused request or a bad argument prints one
 * "Error: ..." line instead of a stack trace, and services come from one
 * lookup that tests can replace (AbstractShellCommand's is OSGi's).
 */
public abstract class FlowBufCommand extends AbstractShellCommand {

    private static volatile Function<Class<?>, Object> services = AbstractShellCommand::get;

    /**
     * Replaces where commands find services (tests only).
     *
     * @param lookup service lookup
     */
    static void useServices(Function<Class<?>, Object> lookup) {
        services = lookup;
    }

    /**
     * A service.
     *
     * @param type service interface
     * @param <T>  service type
     * @return the service
     */
    protected static <T> T service(Class<T> type) {
        return type.cast(services.apply(type));
    }

    @Override
    public <T> T getService(Class<T> type) {
        return service(type);
    }

    @Override
    public <T> JsonCodec<T> codec(Class<T> type) {
        return service(CodecService.class).getCodec(type);
    }

    /**
     * Whether -j was given.
     *
     * @return true for JSON output
     */
    boolean json() {
        return outputJson();
    }

    @Override
    protected final void doExecute() {
        try {
            run();
        } catch (FlowBufException e) {
            error("Error: %s", e.getMessage());
        } catch (IllegalArgumentException e) {
            error("Error: %s", e.getMessage());
        }
    }

    /**
     * Does the command's work.
     *
     * @throws FlowBufException         when the service refuses
     * @throws IllegalArgumentException for a bad argument
     */
    protected abstract void run();

    /**
     * Prints entities as the REST API's JSON array.
     *
     * @param type     entity class
     * @param entities entities
     * @param <T>      entity type
     */
    protected <T> void printJson(Class<T> type, Iterable<T> entities) {
        ArrayNode array = mapper().createArrayNode();
        entities.forEach(e -> array.add(codec(type).encode(e, this)));
        print("%s", array.toPrettyString());
    }

    /**
     * Prints a listing: with -j one JSON array (as the REST API's listing),
     * else a line per entity.
     *
     * @param type     entity class
     * @param entities entities
     * @param line     prints one entity as a line
     * @param <T>      entity type
     */
    protected <T> void printListing(Class<T> type, Iterable<T> entities, Consumer<T> line) {
        if (json()) {
            printJson(type, entities);
        } else {
            entities.forEach(line);
        }
    }

    /**
     * Prints one entity as the REST API's JSON.
     *
     * @param type   entity class
     * @param entity entity
     * @param <T>    entity type
     */
    protected <T> void printJson(Class<T> type, T entity) {
        print("%s", codec(type).encode(entity, this).toPrettyString());
    }
}
