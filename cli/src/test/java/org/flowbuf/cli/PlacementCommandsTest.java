/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.flowbuf.api.codec.FlowBufCodecs;
import org.flowbuf.api.codec.MapCodecService;
import org.flowbuf.api.upf.HybridPlacementService;
import org.flowbuf.api.upf.HybridSettings;
import org.flowbuf.api.upf.PduSession;
import org.flowbuf.api.upf.UePlacement;
import org.flowbuf.api.upf.UpfService;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onosproject.cli.AbstractShellCommand;
import org.onosproject.codec.CodecService;
import org.onosproject.net.DeviceId;

import java.lang.reflect.Field;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/** The hybrid placement's commands against a recording fake HybridPlacementService. */
public class PlacementCommandsTest {

    private static final DeviceId S1 = DeviceId.deviceId("device:s1");
    private static final DeviceId S2 = DeviceId.deviceId("device:s2");
    private static final HybridSettings ON = HybridSettings.of(S1, S2, 3, 2, 4096, 5000, 500);
    private static final UePlacement HEAVY = new UePlacement(
            Ip4Address.valueOf("10.250.0.11"), UePlacement.Path.FAST, false, 2_400_000, 1, 0, 1830);
    private static final UePlacement COOLED = new UePlacement(
            Ip4Address.valueOf("10.250.0.2"), UePlacement.Path.SLOW, false, 0, 2, 2, 950);
    private static final PduSession ON_SLOW = PduSession.builder().id(3).deviceId(S2)
            .ueAddress(Ip4Address.valueOf("10.250.0.7")).n3Address(Ip4Address.valueOf("10.0.0.100"))
            .uplinkTeid(7).gnbAddress(Ip4Address.valueOf("10.0.0.1")).downlinkTeid(7).qfi(9).build();
    private static final PduSession ON_FAST = ON_SLOW.toBuilder().id(4).deviceId(S1)
            .ueAddress(Ip4Address.valueOf("10.250.0.8")).build();

    private final List<String> calls = new ArrayList<>();
    private final List<HybridSettings> configured = new ArrayList<>();
    private HybridSettings settings = ON;
    @Rule
    public final ShellOutput shell = new ShellOutput();

    @Before
    public void setUp() {
        MapCodecService codecs = new MapCodecService();
        FlowBufCodecs.register(codecs);
        HybridPlacementService placement = (HybridPlacementService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{HybridPlacementService.class},
                (proxy, method, args) -> {
                    calls.add(method.getName());
                    switch (method.getName()) {
                        case "settings":
                            return settings;
                        case "configure":
                            configured.add((HybridSettings) args[0]);
                            settings = (HybridSettings) args[0];
                            return null;
                        case "placements":
                            return List.of(HEAVY, COOLED);
                        case "placement":
                            return Optional.of(HEAVY).filter(p -> p.ueAddress().equals(args[0]));
                        default:
                            throw new UnsupportedOperationException(method.getName());
                    }
                });
        UpfService upf = (UpfService) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[]{UpfService.class}, (proxy, method, args) -> {
                    if ("sessions".equals(method.getName())) {
                        return List.of(ON_SLOW, ON_FAST);
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        FlowBufCommand.useServices(type -> type == HybridPlacementService.class ? placement
                : type == UpfService.class ? upf : type == CodecService.class ? codecs : null);
    }

    private static void json(AbstractShellCommand command) throws ReflectiveOperationException {
        Field json = AbstractShellCommand.class.getDeclaredField("json");
        json.setAccessible(true);
        json.set(command, true);
    }

    @Test
    public void everyPlacedUeIsListedByAddressWithItsPathRateAndMoves() {
        new UpfPlacementCommand().doExecute();
        String out = shell.out();
        assertTrue(out, out.matches("(?s).*10\\.250\\.0\\.2\\s+SLOW\\s+no\\s+0\\s+2\\s+2\\s+950.*"
                                            + "10\\.250\\.0\\.11\\s+FAST\\s+no\\s+2400000\\s+1\\s+0\\s+1830.*"));
        assertEquals("", shell.err());
    }

    @Test
    public void oneUeAsTheRestJson() throws Exception {
        UpfPlacementCommand one = new UpfPlacementCommand();
        one.ueAddress = "10.250.0.11";
        json(one);
        one.doExecute();
        assertTrue(shell.out(), shell.out().contains("\"path\" : \"FAST\"")
                && shell.out().contains("\"lastMoveUs\" : 1830"));
    }

    @Test
    public void aMalformedOrUnknownUeIsOneErrorLine() {
        UpfPlacementCommand one = new UpfPlacementCommand();
        one.ueAddress = "10.250.0.999";
        one.doExecute();
        assertTrue(shell.err(), shell.err().startsWith("Error: UE \"10.250.0.999\" is not an IPv4 address"));
        shell.resetErr();
        one.ueAddress = "10.250.9.9";
        one.doExecute();
        assertTrue(shell.err(), shell.err().startsWith("Error: UE 10.250.9.9 has no session on the slow path"));
    }

    @Test
    public void settingsAreShownAndOptionsReplaceOnlyWhatTheyName() {
        new UpfPlacementSettingsCommand().doExecute();
        assertTrue(shell.out(), shell.out().contains("fast path device:s1, slow path device:s2 through port 3"));
        assertTrue(configured.isEmpty());
        UpfPlacementSettingsCommand set = new UpfPlacementSettingsCommand();
        set.budget = "64";
        set.windowMs = "250";
        set.doExecute();
        assertEquals(List.of(HybridSettings.of(S1, S2, 3, 2, 64, 5000, 250)), configured);
        assertTrue(shell.out(), shell.out().contains("fast-table budget 64 sessions"));
    }

    @Test
    public void offAndOnAgain() throws Exception {
        UpfPlacementSettingsCommand off = new UpfPlacementSettingsCommand();
        off.off = true;
        off.doExecute();
        assertEquals(HybridSettings.off(), settings);
        UpfPlacementSettingsCommand partial = new UpfPlacementSettingsCommand();
        partial.budget = "8";
        partial.doExecute();
        assertTrue(shell.err(), shell.err().startsWith("Error: --fast-device is needed: the placement is off"));
        assertEquals(1, configured.size());
        UpfPlacementSettingsCommand on = new UpfPlacementSettingsCommand();
        on.fastDevice = "device:s1";
        on.slowDevice = "device:s2";
        on.slowPort = "3";
        on.dnPort = "2";
        json(on);
        on.doExecute();
        assertEquals(HybridSettings.of(S1, S2, 3, 2, HybridSettings.DEFAULT_BUDGET,
                                       HybridSettings.DEFAULT_DEMOTE_MS, HybridSettings.DEFAULT_WINDOW_MS),
                     settings);
        assertTrue(shell.out(), shell.out().contains("\"fastTableBudget\" : 4096"));
    }

    @Test
    public void badSettingsAreOneErrorLineAndChangeNothing() {
        String[][] bad = {
                {"--budget", "0", "\"fastTableBudget\" must be 1..32767 sessions, got 0"},
                {"--budget", "many", "--budget \"many\" is not a number"},
                {"--slow-port", "2", "\"slowPort\" and \"dnPort\" must differ, both are 2"},
                {"--slow-port", "255", "\"slowPort\" must be 1..254, got 255"},
                {"--demote-idle-ms", "10", "\"demoteIdleMs\" must be 100..86400000 ms, got 10"},
                {"--window-ms", "9000", "\"windowMs\" (9000) must not exceed \"demoteIdleMs\" (5000)"},
                {"--slow-device", "device:s1", "\"fastDevice\" and \"slowDevice\" must differ"},
                {"--fast-device", "s1", "bad device id 's1'"},
                {"--off", "", "--off takes no other option"},
        };
        for (String[] b : bad) {
            shell.resetErr();
            UpfPlacementSettingsCommand set = new UpfPlacementSettingsCommand();
            apply(set, b[0], b[1]);
            set.doExecute();
            assertTrue(b[0] + " " + b[1] + ": " + shell.err(),
                       shell.err().startsWith("Error: ") && shell.err().contains(b[2]));
        }
        assertTrue(configured.isEmpty());
        assertEquals(ON, settings);
    }

    private static void apply(UpfPlacementSettingsCommand set, String option, String value) {
        if ("--budget".equals(option)) {
            set.budget = value;
        } else if ("--slow-port".equals(option)) {
            set.slowPort = value;
        } else if ("--demote-idle-ms".equals(option)) {
            set.demoteIdleMs = value;
        } else if ("--window-ms".equals(option)) {
            set.windowMs = value;
        } else if ("--slow-device".equals(option)) {
            set.slowDevice = value;
        } else if ("--fast-device".equals(option)) {
            set.fastDevice = value;
        } else {
            set.off = true;
            set.budget = "8";
        }
    }

    @Test
    public void ueCompletionOffersTheSlowPathsUes() {
        assertEquals(List.of("10.250.0.7"), new PlacementUeCompleter().choices());
        settings = HybridSettings.off();
        assertEquals(List.of(), new PlacementUeCompleter().choices());
    }
}
