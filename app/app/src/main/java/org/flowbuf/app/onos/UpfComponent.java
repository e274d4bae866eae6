/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.onos;

import org.flowbuf.api.Buffer;
import org.flowbuf.api.BufferService;
import org.flowbuf.api.FlowBufIntent;
import org.flowbuf.api.FlowBufIntentService;
import org.flowbuf.api.upf.FirewallRule;
import org.flowbuf.api.upf.PduSession;
import org.flowbuf.api.upf.UpfApplication;
import org.flowbuf.api.upf.UpfDeviceSummary;
import org.flowbuf.api.upf.UpfInterface;
import org.flowbuf.api.upf.UpfQueue;
import org.flowbuf.api.upf.UpfService;
import org.flowbuf.app.pi.FlowRuleServiceUpfWriter;
import org.flowbuf.app.store.DistributedUpfStore;
import org.flowbuf.app.upf.UpfManager;
import org.onlab.packet.Ip4Address;
import org.onosproject.core.ApplicationId;
import org.onosproject.core.CoreService;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.DeviceId;
import org.onosproject.net.PortNumber;
import org.onosproject.net.device.DeviceService;
import org.onosproject.net.flow.FlowRuleService;
import org.onosproject.net.meter.MeterService;
import org.onosproject.net.pi.service.PiPipeconfService;
import org.onosproject.net.pi.service.PiTranslationService;
import org.onosproject.store.service.StorageService;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.slf4j.Logger;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.onlab.util.Tools.groupedThreads;
import static org.slf4j.LoggerFactory.getLogger;

/**
 * Runs the UPF service inside ONOS: the model in consistent maps, entries
 * through the FlowRuleService and meter cells through the MeterService.
 * When a device comes back, its master writes the device's UPF state again
 * (ONOS re-adds missing flow rules itself; meter cells a pipeline push reset
 * are configured again). After an ONOS restart that comes too late for
 * ONOS's first read of the switch, which deletes entries its empty stores
 * cannot account for: the master claims the device's UPF entries on its
 * first event instead ({@link DeviceEventClaims}).
 */
@Component(immediate = true, service = UpfService.class)
public final class UpfComponent implements UpfService {

    private final Logger log = getLogger(getClass());

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected CoreService coreService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected FlowRuleService flowRuleService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected MeterService meterService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected StorageService storageService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected DeviceService deviceService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected MastershipService mastershipService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected FlowBufIntentService intentService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected BufferService bufferService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PiPipeconfService pipeconfService;

    @Reference(cardinality = ReferenceCardinality.MANDATORY)
    protected PiTranslationService translationService;

    private ExecutorService executor;
    private DeviceEventClaims claims;
    private NewMasterClaims newMasters;
    private UpfManager upf;
    private MasteredSwitches mastered;

    @Activate
    protected void activate() {
        ApplicationId appId = coreService.registerApplication(FlowBufManager.APP_NAME);
        executor = Executors.newSingleThreadExecutor(groupedThreads("flowbuf", "upf", log));
        upf = new UpfManager(appId, new DistributedUpfStore(storageService),
                             new FlowRuleServiceUpfWriter(appId, flowRuleService, meterService,
                                                          FlowBufManager.DEADLINE),
                             id -> deviceService.getDevice(id) != null, intentService,
                             bufferService);
        PiTranslationClaims translationClaims =
                new PiTranslationClaims(pipeconfService, translationService, flowRuleService);
        claims = new DeviceEventClaims(MasteredSwitches.mastered(mastershipService), upf::entries,
                                       translationClaims, "UPF entries");
        deviceService.addListener(claims);
        newMasters = new NewMasterClaims(MasteredSwitches.mastered(mastershipService),
                                         deviceService::isAvailable, upf::entries,
                                         translationClaims, "UPF entries");
        mastershipService.addListener(newMasters);
        // A device that is available again gets its UPF state from its master.
        mastered = new MasteredSwitches(deviceService,
                                        MasteredSwitches.mastered(mastershipService), executor,
                                        (device, again) -> reinstallAgain(device), log,
                                        "UPF state not written again");
        mastered.start(false);
        log.info("Started");
    }

    @Deactivate
    protected void deactivate() {
        mastershipService.removeListener(newMasters);
        newMasters.close();
        deviceService.removeListener(claims);
        mastered.stop();
        executor.shutdown();
        upf = null;
        log.info("Stopped");
    }

    private void reinstallAgain(DeviceId deviceId) {
        int written = upf.reinstall(deviceId);
        if (written > 0) {
            log.info("{}: {} UPF entries and meter cells written again", deviceId, written);
        }
    }

    @Override
    public Collection<UpfInterface> interfaces() {
        return upf.interfaces();
    }

    @Override
    public UpfInterface addInterface(UpfInterface iface) {
        return upf.addInterface(iface);
    }

    @Override
    public void removeInterface(UpfInterface iface) {
        upf.removeInterface(iface);
    }

    @Override
    public Collection<PduSession> sessions() {
        return upf.sessions();
    }

    @Override
    public Optional<PduSession> session(long id) {
        return upf.session(id);
    }

    @Override
    public Optional<PduSession> session(Optional<DeviceId> deviceId, Ip4Address ueAddress) {
        return upf.session(deviceId, ueAddress);
    }

    @Override
    public List<PduSession> addSessions(List<PduSession> sessions) {
        return upf.addSessions(sessions);
    }

    @Override
    public PduSession removeSession(long id) {
        return upf.removeSession(id);
    }

    @Override
    public Collection<UpfApplication> applications() {
        return upf.applications();
    }

    @Override
    public UpfApplication addApplication(UpfApplication application) {
        return upf.addApplication(application);
    }

    @Override
    public UpfApplication removeApplication(DeviceId deviceId, int appId) {
        return upf.removeApplication(deviceId, appId);
    }

    @Override
    public Collection<FirewallRule> firewallRules() {
        return upf.firewallRules();
    }

    @Override
    public FirewallRule addFirewallRule(FirewallRule rule) {
        return upf.addFirewallRule(rule);
    }

    @Override
    public FirewallRule removeFirewallRule(long id) {
        return upf.removeFirewallRule(id);
    }

    @Override
    public Collection<UpfQueue> queues() {
        return upf.queues();
    }

    @Override
    public UpfQueue setQueue(UpfQueue queue) {
        return upf.setQueue(queue);
    }

    @Override
    public void removeQueue(DeviceId deviceId, int qfi) {
        upf.removeQueue(deviceId, qfi);
    }

    @Override
    public FlowBufIntent pauseDownlink(long sessionId, PortNumber inPort) {
        return upf.pauseDownlink(sessionId, inPort);
    }

    @Override
    public Buffer resumeDownlink(long sessionId) {
        return upf.resumeDownlink(sessionId);
    }

    @Override
    public List<UpfDeviceSummary> deviceSummaries() {
        return upf.deviceSummaries();
    }

    @Override
    public int reinstall(DeviceId deviceId) {
        return upf.reinstall(deviceId);
    }
}
