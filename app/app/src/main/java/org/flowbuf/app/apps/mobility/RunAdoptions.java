/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.app.apps.mobility;

import org.onlab.util.Tools;
import org.onosproject.cluster.ClusterEvent;
import org.onosproject.cluster.ClusterEventListener;
import org.onosproject.cluster.ClusterService;
import org.onosproject.mastership.MastershipEvent;
import org.onosproject.mastership.MastershipListener;
import org.onosproject.mastership.MastershipService;
import org.onosproject.net.DeviceId;
import org.slf4j.Logger;

import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.ToIntFunction;

import static org.slf4j.LoggerFactory.getLogger;

/**
 * When a mobility app (LMM, FMM) adopts the runs of a gone instance, in
 * ONOS: when this instance becomes a device's master (MASTER_CHANGED), when
 * an instance leaves the cluster (its mastership may have moved before it
 * was seen gone), and at activation (runs of this instance lost with the
 * app's last deactivation here). The app's takeOver decides what, of a
 * device this instance masters, it adopts; it runs on this class's own
 * thread, never on ONOS's event threads.
 */
final class RunAdoptions {

    private final Logger log = getLogger(getClass());
    private final MastershipService mastership;
    private final ClusterService cluster;
    private final RunnerCluster view;
    private final ToIntFunction<DeviceId> takeOver;
    private final String what;
    private final ExecutorService thread;
    private final MastershipListener newMasters = new MastershipListener() {
        @Override
        public boolean isRelevant(MastershipEvent event) {
            return event.type() == MastershipEvent.Type.MASTER_CHANGED
                    && view.masters(event.subject());
        }

        @Override
        public void event(MastershipEvent event) {
            submit(() -> takeOver(event.subject()));
        }
    };
    private final ClusterEventListener goneInstances = new ClusterEventListener() {
        @Override
        public boolean isRelevant(ClusterEvent event) {
            return event.type() == ClusterEvent.Type.INSTANCE_DEACTIVATED
                    || event.type() == ClusterEvent.Type.INSTANCE_REMOVED;
        }

        @Override
        public void event(ClusterEvent event) {
            submit(RunAdoptions.this::takeOverAll);
        }
    };

    /**
     * @param mastership ONOS's mastership service
     * @param cluster    ONOS's cluster service
     * @param view       the runner's view of them
     * @param takeOver   adopts the gone instances' runs of a device; how many
     * @param what       what it adopts, for the log and the thread's name
     */
    RunAdoptions(MastershipService mastership, ClusterService cluster, RunnerCluster view,
                 ToIntFunction<DeviceId> takeOver, String what) {
        this.mastership = Objects.requireNonNull(mastership);
        this.cluster = Objects.requireNonNull(cluster);
        this.view = Objects.requireNonNull(view);
        this.takeOver = Objects.requireNonNull(takeOver);
        this.what = Objects.requireNonNull(what);
        this.thread = Executors.newSingleThreadExecutor(
                Tools.groupedThreads("flowbuf", what + "-adoptions", log));
    }

    /** Listens, and adopts what is there to adopt now. */
    void start() {
        mastership.addListener(newMasters);
        cluster.addListener(goneInstances);
        submit(this::takeOverAll);
    }

    /** Stops listening and adopting. */
    void stop() {
        mastership.removeListener(newMasters);
        cluster.removeListener(goneInstances);
        thread.shutdownNow();
    }

    private void submit(Runnable work) {
        try {
            thread.execute(work);
        } catch (RejectedExecutionException stopped) {
            log.debug("stopped: {} not adopted", what);
        }
    }

    private void takeOverAll() {
        view.mastered().forEach(this::takeOver);
    }

    private void takeOver(DeviceId device) {
        try {
            int adopted = takeOver.applyAsInt(device);
            if (adopted > 0) {
                log.info("{}: {} {} of a gone instance taken over", device, adopted, what);
            }
        } catch (RuntimeException e) {
            log.warn("{}: {} not taken over: {}", device, what, e.getMessage());
        }
    }
}
