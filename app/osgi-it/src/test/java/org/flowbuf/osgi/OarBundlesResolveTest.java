/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.osgi;

import aQute.bnd.osgi.Analyzer;
import aQute.bnd.osgi.Jar;
import org.junit.Test;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;
import org.osgi.framework.wiring.BundleRevision;
import org.osgi.framework.wiring.FrameworkWiring;
import org.osgi.resource.Namespace;
import org.osgi.resource.Requirement;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.fail;

/**
 * The bundles of the .oar resolve in an OSGi framework (Apache Felix) that
 * holds the bundles ONOS 2.7 runs: a missing or too narrow Import-Package, or
 * one on a package ONOS 2.7 does not export, fails here and not at
 * {@code onos-app install}.
 * <p>
 * What the framework holds, and how (see app/osgi-it/pom.xml):
 * <ul>
 * <li>target/onos-runtime: ONOS 2.7.0's own bundles and the third-party and
 * Karaf 4.2.9 bundles of its features, at ONOS 2.7's versions, from Maven
 * Central. ONOS did not publish its wraps of grpc-java's core (io.grpc.internal)
 * and protobuf-lite at 2.7.0; those are its 2.5.7-rc3 wraps of the same
 * grpc-java 1.22.1. javax.activation (which jaxb-api and Jersey import) left
 * the JDK in 11; Karaf 4.2 adds it, here as the com.sun.activation bundle.</li>
 * <li>target/onos-runtime-wrap: the plain jars ONOS 2.7 lists as NON-OSGI
 * (gRPC's dependencies); ONOS installs them as Karaf "wrap:" URLs, so they are
 * wrapped here as Karaf's wrap does (bnd: every package exported, every import
 * optional).</li>
 * <li>The JDK's packages (javax.xml, javax.net.ssl, sun.misc, ...) come from
 * Felix's system bundle, which exports what the running JDK has, as Karaf's
 * does. Nothing is added to it, and nothing stands in for a package FlowBuf
 * imports.</li>
 * </ul>
 */
public class OarBundlesResolveTest {

    private static final Pattern JAR_NAME = Pattern.compile("(.+)-(\\d[^-]*(?:-[^-]+)?)\\.jar");

    @Test
    public void everyBundleOfTheOarResolvesOnOnos27() throws Exception {
        Oar oar = Oar.ofThisBuild();
        Framework framework = startFramework();
        try {
            BundleContext context = framework.getBundleContext();
            for (Path jar : jars("onos.runtime.dir")) {
                context.installBundle(jar.toUri().toString());
            }
            for (Path jar : jars("onos.runtime.wrap.dir")) {
                context.installBundle("wrap:" + jar.toUri(), new ByteArrayInputStream(wrap(jar)));
            }
            List<Bundle> flowbuf = new ArrayList<>();
            for (Map.Entry<String, byte[]> e : oar.bundles().entrySet()) {
                flowbuf.add(context.installBundle(Oar.mvnUrl(e.getKey()),
                                                  new ByteArrayInputStream(e.getValue())));
            }
            assertFalse("no bundles in " + oar.path(), flowbuf.isEmpty());

            FrameworkWiring wiring = framework.adapt(FrameworkWiring.class);
            wiring.resolveBundles(null);

            String unresolved = Stream.of(context.getBundles())
                    .filter(b -> b.getState() == Bundle.INSTALLED)
                    .map(b -> whyUnresolved(b, wiring))
                    .collect(Collectors.joining("\n"));
            if (!unresolved.isEmpty()) {
                fail("bundles that do not resolve on ONOS 2.7's bundles:\n" + unresolved);
            }
        } finally {
            framework.stop();
            framework.waitForStop(10_000);
        }
    }

    private static Framework startFramework() throws BundleException, IOException {
        Path storage = Paths.get(System.getProperty("basedir", "."), "target", "felix-cache");
        Map<String, String> config = new HashMap<>();
        config.put(Constants.FRAMEWORK_STORAGE, storage.toString());
        config.put(Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT);
        config.put("felix.log.level", "0");
        FrameworkFactory factory = ServiceLoader.load(FrameworkFactory.class).iterator().next();
        Framework framework = factory.newFramework(config);
        framework.start();
        return framework;
    }

    private static List<Path> jars(String property) throws IOException {
        String dir = System.getProperty(property);
        if (dir == null) {
            throw new IllegalStateException("system property " + property + " is not set (run by Maven)");
        }
        try (Stream<Path> files = Files.list(Paths.get(dir))) {
            return files.filter(p -> p.toString().endsWith(".jar")).sorted().collect(Collectors.toList());
        }
    }

    /** Wraps a plain jar as Karaf's "wrap:" URL handler does. */
    private static byte[] wrap(Path jar) throws Exception {
        Matcher name = JAR_NAME.matcher(jar.getFileName().toString());
        if (!name.matches()) {
            throw new IllegalStateException("not artifact-version.jar: " + jar);
        }
        try (Analyzer analyzer = new Analyzer(); Jar wrapped = new Jar(jar.toFile())) {
            analyzer.setJar(wrapped);
            analyzer.setProperty(Constants.BUNDLE_SYMBOLICNAME, name.group(1));
            analyzer.setProperty(Constants.BUNDLE_VERSION, name.group(2));
            analyzer.setProperty(Constants.EXPORT_PACKAGE, "*");
            analyzer.setProperty(Constants.IMPORT_PACKAGE, "*;resolution:=optional");
            wrapped.setManifest(analyzer.calcManifest());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            wrapped.write(out);
            return out.toByteArray();
        }
    }

    /**
     * Names what a bundle lacks: its mandatory requirements that no bundle
     * provides, else (a provider is there but does not resolve itself, or a
     * uses conflict) Felix's own resolver message.
     */
    private static String whyUnresolved(Bundle bundle, FrameworkWiring wiring) {
        BundleRevision revision = bundle.adapt(BundleRevision.class);
        List<String> missing = revision.getRequirements(null).stream()
                .filter(OarBundlesResolveTest::neededToResolve)
                .filter(r -> wiring.findProviders(r).isEmpty())
                .map(r -> "    missing " + r.getNamespace() + " "
                        + r.getDirectives().get(Namespace.REQUIREMENT_FILTER_DIRECTIVE))
                .collect(Collectors.toList());
        String head = "  " + bundle.getSymbolicName() + " " + bundle.getVersion()
                + " (" + bundle.getLocation() + ")";
        if (!missing.isEmpty()) {
            return head + "\n" + String.join("\n", missing);
        }
        try {
            bundle.start(Bundle.START_TRANSIENT);
            return head + ": resolved only when started";
        } catch (BundleException e) {
            return head + "\n    " + e.getMessage();
        }
    }

    private static boolean neededToResolve(Requirement requirement) {
        Map<String, String> directives = requirement.getDirectives();
        String resolution = directives.get(Namespace.REQUIREMENT_RESOLUTION_DIRECTIVE);
        String effective = directives.getOrDefault(Namespace.REQUIREMENT_EFFECTIVE_DIRECTIVE,
                                                   Namespace.EFFECTIVE_RESOLVE);
        return !Namespace.RESOLUTION_OPTIONAL.equals(resolution)
                && Namespace.EFFECTIVE_RESOLVE.equals(effective);
    }
}
