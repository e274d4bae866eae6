/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.cli;

import org.apache.karaf.shell.api.action.Argument;
import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.Completion;
import org.apache.karaf.shell.api.action.Option;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.flowbuf.api.upf.UpfInterface;
import org.flowbuf.api.upf.UpfService;
import org.onlab.packet.Ip4Prefix;

import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Lists, adds or removes the UPF's interfaces: N3 addresses (ACCESS, where
 * GTP-U arrives) and UE pools (CORE, where the downlink arrives plain).
 */
@Service
@Command(scope = "onos", name = "flowbuf-upf-interfaces",
        description = "Lists the UPF's interfaces, or adds (--add) or removes (--remove) one")
public class UpfInterfacesCommand extends FlowBufCommand {

    @Argument(index = 0, name = "deviceId", description = "device (required to add or remove)")
    @Completion(UpfDeviceIdCompleter.class)
    String deviceId;

    @Argument(index = 1, name = "kind", description = "ACCESS (N3) or CORE (UE pool)")
    String kind;

    @Argument(index = 2, name = "prefix", description = "IPv4 prefix")
    String prefix;

    @Option(name = "--add", description = "add the interface")
    boolean add;

    @Option(name = "--remove", description = "remove the interface")
    boolean remove;

    @Override
    protected void run() {
        UpfService upf = service(UpfService.class);
        if (add || remove) {
            UpfInterface iface = named();
            if (add) {
                upf.addInterface(iface);
            } else {
                upf.removeInterface(iface);
            }
            print("%s %s", add ? "added" : "removed", iface);
            return;
        }
        List<UpfInterface> all = upf.interfaces().stream()
                .filter(i -> deviceId == null || i.deviceId().equals(Args.device(deviceId)))
                .sorted(Comparator.comparing((UpfInterface i) -> i.deviceId().toString())
                                .thenComparing(i -> i.prefix().toString()))
                .collect(Collectors.toList());
        if (outputJson()) {
            printJson(UpfInterface.class, all);
            return;
        }
        print("%-20s %-7s %s", "device", "kind", "prefix");
        all.forEach(i -> print("%-20s %-7s %s", i.deviceId(), i.kind(), i.prefix()));
    }

    private UpfInterface named() {
        if (add && remove) {
            throw new IllegalArgumentException("--add or --remove, not both");
        }
        if (deviceId == null || kind == null || prefix == null) {
            throw new IllegalArgumentException("--add and --remove need deviceId, kind and prefix");
        }
        Ip4Prefix p;
        try {
            p = Ip4Prefix.valueOf(prefix);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("prefix: bad IPv4 prefix '" + prefix + "'");
        }
        return new UpfInterface(Args.device(deviceId), Args.choice("kind", UpfInterface.Kind.class, kind), p);
    }
}
