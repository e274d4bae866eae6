/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.onosproject.net.config.Config;
import org.onosproject.net.config.ConfigFactory;
import org.onosproject.net.config.NetworkConfigEvent;
import org.onosproject.net.config.NetworkConfigListener;
import org.onosproject.net.config.NetworkConfigRegistryAdapter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * ONOS's netcfg registry for one config class, as far as FlowBuf's
 * components use it: a JSON section per subject (a device, or the app),
 * the factories and listeners registered, and the events a test posts.
 * Writes through {@code applyConfig} land in the sections and post
 * CONFIG_UPDATED, as ONOS's store does.
 *
 * @param <S> the subject type (DeviceId, ApplicationId)
 * @param <C> the config class
 */
final class FakeNetcfg<S, C extends Config<S>> extends NetworkConfigRegistryAdapter {

    static final ObjectMapper MAPPER = new ObjectMapper();

    /** The sections, by subject. */
    final Map<S, ObjectNode> sections = new ConcurrentHashMap<>();
    /** The factories registered and not unregistered. */
    final List<ConfigFactory<?, ?>> factories = new CopyOnWriteArrayList<>();
    /** The listeners added and not removed. */
    final List<NetworkConfigListener> listeners = new CopyOnWriteArrayList<>();
    private final Class<S> subjectClass;
    private final Class<C> configClass;
    private final BiFunction<S, ObjectNode, C> parse;

    FakeNetcfg(Class<S> subjectClass, Class<C> configClass, BiFunction<S, ObjectNode, C> parse) {
        this.subjectClass = subjectClass;
        this.configClass = configClass;
        this.parse = parse;
    }

    /** A config made the way ONOS's registry makes one from a section. */
    static <S, C extends Config<S>> C config(Supplier<C> make, S subject, String key,
                                             ObjectNode node) {
        C config = make.get();
        config.init(subject, key, node, MAPPER, c -> { });
        return config;
    }

    static ObjectNode json(String text) {
        try {
            return (ObjectNode) MAPPER.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sets a section without an event, as before a component starts. */
    FakeNetcfg<S, C> with(S subject, String section) {
        sections.put(subject, json(section));
        return this;
    }

    /** Sets (or removes, with null) a section and posts the event to the relevant listeners. */
    void section(S subject, String section, NetworkConfigEvent.Type type) {
        if (section == null) {
            sections.remove(subject);
        } else {
            sections.put(subject, json(section));
        }
        post(subject, type);
    }

    void post(S subject, NetworkConfigEvent.Type type) {
        NetworkConfigEvent e = new NetworkConfigEvent(type, subject, configClass);
        listeners.stream().filter(l -> l.isRelevant(e)).forEach(l -> l.event(e));
    }

    @Override
    public void registerConfigFactory(ConfigFactory configFactory) {
        factories.add(configFactory);
    }

    @Override
    public void unregisterConfigFactory(ConfigFactory configFactory) {
        factories.remove(configFactory);
    }

    @Override
    public void addListener(NetworkConfigListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeListener(NetworkConfigListener listener) {
        listeners.remove(listener);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T, D extends Config<T>> Set<T> getSubjects(Class<T> subjects, Class<D> configs) {
        if (!subjects.equals(subjectClass) || !configs.equals(configClass)) {
            return Set.of();
        }
        return (Set<T>) Set.copyOf(sections.keySet());
    }

    @Override
    public <T, D extends Config<T>> D getConfig(T subject, Class<D> configs) {
        ObjectNode node = configs.equals(configClass) ? sections.get(subject) : null;
        return node == null ? null
                : configs.cast(parse.apply(subjectClass.cast(subject), node.deepCopy()));
    }

    @Override
    public <T, D extends Config<T>> D applyConfig(T subject, Class<D> configs, JsonNode json) {
        S s = subjectClass.cast(subject);
        sections.put(s, (ObjectNode) json.deepCopy());
        post(s, NetworkConfigEvent.Type.CONFIG_UPDATED);
        return getConfig(subject, configs);
    }
}
