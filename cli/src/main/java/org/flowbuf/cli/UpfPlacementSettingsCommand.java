/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.Option;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.FlowBufException;
import org.flowbuf.api.upf.HybridPlacementService;
import org.flowbuf.api.upf.HybridSettings;
import org.onosproject.cli.net.PortNumberCompleter;
import org.onosproject.net.DeviceId;

import java.util.Optional;
import java.util.function.Function;

/**
 * Shows the hybrid UPF placement's settings, or changes them: the options
 * given replace the current values (all four that name the paths are needed
 * when the placement is off); --off turns it off. The same checks as REST
 * PUT upf/placement/settings: a refused change changes nothing.
 */
@Service
@Command(scope = "onos", name = "flowbuf-upf-placement-settings",
        description = "Shows or sets the hybrid UPF placement's paths, fast-table budget, "
                + "demotion idle time and rate window")
public class UpfPlacementSettingsCommand extends FlowBufCommand {

    @Option(name = "--fast-device", description = "the fast-path switch")
    @Completion(UpfDeviceIdCompleter.class)
    String fastDevice;

    @Option(name = "--slow-device", description = "the slow-path switch (every session is there)")
    @Completion(UpfDeviceIdCompleter.class)
    String slowDevice;

    @Option(name = "--slow-port", description = "the fast path's port to the slow path (1..254)")
    @Completion(PortNumberCompleter.class)
    String slowPort;

    @Option(name = "--dn-port", description = "the fast path's port the data network's downlink "
            + "arrives on (1..254)")
    @Completion(PortNumberCompleter.class)
    String dnPort;

    @Option(name = "--budget", description = "fast-path sessions the controller may use (1..32767)")
    String budget;

    @Option(name = "--demote-idle-ms", description = "how long a promoted UE stays under the "
            + "heavy-hitter rate before it is demoted (100..86400000 ms)")
    String demoteIdleMs;

    @Option(name = "--window-ms", description = "the window a promoted UE's rate is measured over "
            + "(50..60000 ms, not over --demote-idle-ms)")
    String windowMs;

    @Option(name = "--off", description = "turn the placement off (no other option with it)")
    boolean off;

    @Override
    protected void run() {
        HybridPlacementService placement = service(HybridPlacementService.class);
        boolean change = off || fastDevice != null || slowDevice != null || slowPort != null
                || dnPort != null || budget != null || demoteIdleMs != null || windowMs != null;
        HybridSettings shown = placement.settings();
        if (change) {
            shown = next(shown);
            placement.configure(shown);
        }
        if (json()) {
            printJson(HybridSettings.class, shown);
            return;
        }
        print("%s", describe(shown));
    }

    /**
     * The settings the options ask for.
     *
     * @param current the settings in force
     * @return checked settings
     * @throws FlowBufException INVALID for a missing, malformed or out-of-range value
     */
    HybridSettings next(HybridSettings current) {
        if (off) {
            if (fastDevice != null || slowDevice != null || slowPort != null || dnPort != null
                    || budget != null || demoteIdleMs != null || windowMs != null) {
                throw FlowBufException.invalid("--off takes no other option");
            }
            return HybridSettings.off();
        }
        return HybridSettings.of(
                device("--fast-device", fastDevice, current.fastDevice()),
                device("--slow-device", slowDevice, current.slowDevice()),
                number("--slow-port", slowPort, current, s -> s.slowPort().toLong()),
                number("--dn-port", dnPort, current, s -> s.dnPort().toLong()),
                number("--budget", budget, current, s -> (long) s.fastTableBudget()),
                number("--demote-idle-ms", demoteIdleMs, current, HybridSettings::demoteIdleMs),
                number("--window-ms", windowMs, current, HybridSettings::windowMs));
    }

    private static DeviceId device(String option, String text, Optional<DeviceId> current) {
        if (text != null) {
            return Args.device(text);
        }
        return current.orElseThrow(() -> FlowBufException.invalid(
                "%s is needed: the placement is off (set --fast-device, --slow-device, "
                        + "--slow-port and --dn-port)", option));
    }

    private static long number(String option, String text, HybridSettings current,
                               Function<HybridSettings, Long> value) {
        if (text != null) {
            return UpfSessionAddCommand.number(option, text);
        }
        boolean pathField = "--slow-port".equals(option) || "--dn-port".equals(option);
        if (pathField && !current.enabled()) {
            throw FlowBufException.invalid("%s is needed: the placement is off (set --fast-device, "
                                                   + "--slow-device, --slow-port and --dn-port)",
                                           option);
        }
        return value.apply(current);
    }

    static String describe(HybridSettings s) {
        String budgetAndTimes = String.format("fast-table budget %d sessions, demote after %d ms "
                                                      + "under the HH rate, rate window %d ms",
                                              s.fastTableBudget(), s.demoteIdleMs(), s.windowMs());
        if (!s.enabled()) {
            return "hybrid placement off (" + budgetAndTimes + " when on)";
        }
        return String.format("fast path %s, slow path %s through port %s, data network on port %s; %s",
                             s.fastDevice().get(), s.slowDevice().get(), s.slowPort(), s.dnPort(),
                             budgetAndTimes);
    }
}
