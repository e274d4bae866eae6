/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferEvent;
import org.flowbuf.api.BufferEventService;
import org.flowbuf.api.BufferId;
import org.flowbuf.api.BufferListener;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.BufferSpec;
import org.flowbuf.api.BufferState;
import org.flowbuf.api.BufferStatistics;
import org.flowbuf.api.Disarmed;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.FlowFilter;
import org.flowbuf.api.IntentId;
import org.flowbuf.api.MarkerPattern;
import org.flowbuf.api.MarkerWatch;
import org.flowbuf.api.PacketId;
import org.flowbuf.api.Vport;
import org.flowbuf.app.FlowBufCore;
import org.flowbuf.app.config.FlowBufDeviceConfig;
import org.flowbuf.app.pi.FlowRuleServiceSteeringWriter;
import org.flowbuf.app.southbound.ConfiguredAgentDirectory;
import org.flowbuf.app.store.DistributedBufferStore;
import org.flowbuf.app.store.DistributedIntentStore;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.onosproject.grpc.api.GrpcChannelController;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.device.DeviceEvent;
import org.onosproject.net.device.DeviceListener;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.config.ConfigFactory;
import org.onosproject.net.config.NetworkConfigEvent;
import org.onosproject.net.config.NetworkConfigListener;
import org.onosproject.net.config.NetworkConfigRegistry;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.onosproject.net.pi.service.PiTranslationService;
import org.onosproject.store.service.StorageService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.onlab.util.Tools.groupedThreads;
import static org.onosproject.net.config.basics.SubjectFactories.DEVICE_SUBJECT_FACTORY;
import static org.slf4j.LoggerFactory.getLogger;

/**
 * Runs the Buffer Service core inside ONOS: agents from the "flowbuf" device
 * config, buffers in a cluster-wide ConsistentMap, steering rules through the FlowRuleService, and only for devices
 * this instance is master of. Offers the task-level and intent-level services
 * and buffer events to other apps, REST and CLI (intent events: IntentEventManager).
 */
@Component(immediate = true, service = {BufferService.class, FlowBufIntentService.class,
        BufferEventService.class})
public final class FlowBufManager implements BufferService, FlowBufIntentService,
        BufferEventService {

    /** Name the app registers with ONOS (onos.app.name of the .oar). */
    public static final String APP_NAME = "org.flowbuf.app";
    /** Deadline of one agent call and of one flow-rule confirmation. */
    static final Duration DEADLINE = Duration.ofSeconds(2);

    private final Logger log = getLogger(getClass());

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CoreService coreService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected NetworkConfigRegistry netcfgRegistry;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected FlowRuleService flowRuleService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected MastershipService mastershipService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected GrpcChannelController grpcChannelController;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected IntentEventManager intentEventManager;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected StorageService storageService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected DeviceService deviceService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PiPipeconfService pipeconfService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PiTranslationService translationService;

    private final ConfigFactory<DeviceId, FlowBufDeviceConfig> configFactory =
            new ConfigFactory<>(DEVICE_SUBJECT_FACTORY, FlowBufDeviceConfig.class,
                                FlowBufDeviceConfig.CONFIG_KEY) {
                @Override
                public FlowBufDeviceConfig createConfig() {
                    return new FlowBufDeviceConfig();
                }
            };
    private final NetworkConfigListener configListener = new AgentConfigListener();
    private final DeviceListener deviceListener = new FlowBufDeviceListener();
    private AgentLifecycle lifecycle;
    private ExecutorService eventExecutor;
    private EventFanout<BufferEvent, BufferListener> bufferEvents;
    private ConfiguredAgentDirectory agents;
    private FlowBufCore core;
    private NewMasterClaims newMasters;

    @Activate
    protected void activate() {
        ApplicationId appId = coreService.registerApplication(APP_NAME);
        netcfgRegistry.registerConfigFactory(configFactory);
        eventExecutor = Executors.newSingleThreadExecutor(groupedThreads("flowbuf", "events", log));
        bufferEvents = new EventFanout<>(eventExecutor);
        agents = new ConfiguredAgentDirectory(
                APP_NAME,
                id -> Optional.ofNullable(netcfgRegistry.getConfig(id, FlowBufDeviceConfig.class)),
                () -> netcfgRegistry.getSubjects(DeviceId.class, FlowBufDeviceConfig.class),
                new GrpcControllerChannelFactory(grpcChannelController),
                mastershipService::isLocalMaster, DEADLINE);
        core = new FlowBufCore(agents, new DistributedBufferStore(storageService),
                               new DistributedIntentStore(storageService),
                               new FlowRuleServiceSteeringWriter(appId, flowRuleService, DEADLINE),
                               bufferEvents, intentEventManager);
        PiTranslationClaims claims = new PiTranslationClaims(pipeconfService, translationService,
                                                             flowRuleService);
        lifecycle = new AgentLifecycle(appId, agents, core.buffers(), flowRuleService,
                                       core::installedRules, claims,
                                       mastershipService::isLocalMaster, eventExecutor);
        newMasters = new NewMasterClaims(lifecycle::drives, deviceService::isAvailable,
                                         lifecycle::entries, claims, "steering and vport rules");
        netcfgRegistry.addListener(configListener);
        deviceService.addListener(deviceListener);
        mastershipService.addListener(newMasters);
        agents.devices().stream().filter(deviceService::isAvailable)
                .forEach(lifecycle::deviceReady);
        log.info("Started {}", appId.id());
    }

    @Deactivate
    protected void deactivate() {
        mastershipService.removeListener(newMasters);
        newMasters.close();
        deviceService.removeListener(deviceListener);
        netcfgRegistry.removeListener(configListener);
        netcfgRegistry.unregisterConfigFactory(configFactory);
        eventExecutor.shutdown();
        try {
            // Let a reconciliation in flight finish before its channel closes.
            eventExecutor.awaitTermination(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        agents.closeAll();
        core = null;
        log.info("Stopped");
    }

    /** Reconnects to a device's agent when its FlowBuf config changes. */
    private final class AgentConfigListener implements NetworkConfigListener {
        @Override
        public boolean isRelevant(NetworkConfigEvent event) {
            return event.configClass().equals(FlowBufDeviceConfig.class);
        }

        @Override
        public void event(NetworkConfigEvent event) {
            DeviceId deviceId = (DeviceId) event.subject();
            if (event.type() == NetworkConfigEvent.Type.CONFIG_REMOVED) {
                lifecycle.deviceGone(deviceId);
            } else {
                lifecycle.deviceReady(deviceId);
            }
        }
    }

    /**
     * Follows FlowBuf devices going up and down; every event of one (but its
     * port statistics) first lets FlowBuf claim its steering and vport rules.
     */
    private final class FlowBufDeviceListener implements DeviceListener {
        @Override
        public boolean isRelevant(DeviceEvent event) {
            return agents.devices().contains(event.subject().id())
                    && event.type() != DeviceEvent.Type.PORT_STATS_UPDATED;
        }

        @Override
        public void event(DeviceEvent event) {
            DeviceId deviceId = event.subject().id();
            if (event.type() == DeviceEvent.Type.DEVICE_REMOVED) {
                lifecycle.deviceGone(deviceId);
                return;
            }
            lifecycle.deviceSeen(deviceId);
            if (event.type() != DeviceEvent.Type.DEVICE_ADDED
                    && event.type() != DeviceEvent.Type.DEVICE_AVAILABILITY_CHANGED) {
                return;
            }
            if (deviceService.isAvailable(deviceId)) {
                lifecycle.deviceReady(deviceId);
            } else {
                lifecycle.deviceGone(deviceId);
            }
        }
    }

    @Override
    public Buffer createBuffer(DeviceId deviceId, BufferId id, String owner, BufferSpec spec,
                               BufferState state) {
        return core.buffers().createBuffer(deviceId, id, owner, spec, state);
    }

    @Override
    public Buffer allocateBuffer(DeviceId deviceId, BufferId idIfCreated, String owner,
                                 BufferSpec spec) {
        return core.buffers().allocateBuffer(deviceId, idIfCreated, owner, spec);
    }

    @Override
    public Buffer moveBuffer(DeviceId deviceId, BufferId id, String owner, BufferState state) {
        return core.buffers().moveBuffer(deviceId, id, owner, state);
    }

    @Override
    public void removeBuffer(DeviceId deviceId, BufferId id, String owner, boolean discard) {
        core.buffers().removeBuffer(deviceId, id, owner, discard);
    }

    @Override
    public Optional<Buffer> getBuffer(DeviceId deviceId, BufferId id) {
        return core.buffers().getBuffer(deviceId, id);
    }

    @Override
    public Collection<Buffer> getBuffers(DeviceId deviceId) {
        return core.buffers().getBuffers(deviceId);
    }

    @Override
    public Optional<BufferStatistics> getStatistics(DeviceId deviceId, BufferId id) {
        return core.buffers().getStatistics(deviceId, id);
    }

    @Override
    public List<BufferEvent> getEvents(DeviceId deviceId, BufferId id) {
        return core.buffers().getEvents(deviceId, id);
    }

    @Override
    public List<BufferEvent> reconcile(DeviceId deviceId) {
        return core.buffers().reconcile(deviceId);
    }

    @Override
    public Optional<Long> purgeUpTo(DeviceId deviceId, BufferId id, String owner,
                                    PacketId packetId, boolean inclusive) {
        return core.buffers().purgeUpTo(deviceId, id, owner, packetId, inclusive);
    }

    @Override
    public Optional<Long> purgeToSyncPoint(DeviceId deviceId, BufferId id, String owner,
                                           PacketId packetId) {
        return core.buffers().purgeToSyncPoint(deviceId, id, owner, packetId);
    }

    @Override
    public MarkerWatch watchMarker(DeviceId deviceId, BufferId id, String owner,
                                   MarkerPattern pattern, Runnable onSeen) {
        return core.buffers().watchMarker(deviceId, id, owner, pattern, onSeen);
    }

    @Override
    public void armMove(DeviceId deviceId, BufferId trigger, BufferId buffer, String owner,
                        BufferState state, boolean purgeToReport) {
        core.buffers().armMove(deviceId, trigger, buffer, owner, state, purgeToReport);
    }

    @Override
    public Disarmed disarm(DeviceId deviceId, BufferId trigger, String owner) {
        return core.buffers().disarm(deviceId, trigger, owner);
    }

    @Override
    public Set<DeviceId> getDevices() {
        return core.buffers().getDevices();
    }

    @Override
    public List<Vport> getVports(DeviceId deviceId) {
        return core.buffers().getVports(deviceId);
    }

    @Override
    public FlowBufIntent pause(DeviceId deviceId, PortNumber inPort, FlowFilter filter,
                               Optional<BufferId> bufferId, String owner) {
        return core.intents().pause(deviceId, inPort, filter, bufferId, owner);
    }

    @Override
    public FlowBufIntent resume(DeviceId deviceId, PortNumber outPort, FlowFilter filter,
                                Optional<BufferId> bufferId, String owner) {
        return core.intents().resume(deviceId, outPort, filter, bufferId, owner);
    }

    @Override
    public List<FlowBufIntent> pauseAll(DeviceId deviceId, List<FlowFilter> flows,
                                        BufferId bufferId, String owner) {
        return core.intents().pauseAll(deviceId, flows, bufferId, owner);
    }

    @Override
    public List<FlowBufIntent> resumeAll(DeviceId deviceId, PortNumber outPort,
                                         List<FlowFilter> flows, BufferId bufferId,
                                         String owner) {
        return core.intents().resumeAll(deviceId, outPort, flows, bufferId, owner);
    }

    @Override
    public Collection<FlowBufIntent> getIntents() {
        return core.intents().getIntents();
    }

    @Override
    public Optional<FlowBufIntent> getIntent(IntentId id) {
        return core.intents().getIntent(id);
    }

    @Override
    public void withdraw(IntentId id, String owner) {
        core.intents().withdraw(id, owner);
    }

    @Override
    public void addListener(BufferListener listener) {
        bufferEvents.add(listener);
    }

    @Override
    public void removeListener(BufferListener listener) {
        bufferEvents.remove(listener);
    }

}
