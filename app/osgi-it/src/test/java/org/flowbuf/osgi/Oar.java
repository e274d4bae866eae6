/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.osgi;

import org.w3c.dom.Document;
import org.xml.sax.SAXException;

import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;

/**
 * The FlowBuf .oar as ONOS reads it: app.xml at the root and a Maven
 * repository under m2/ holding the bundles and the features XML.
 */
final class Oar {

    private static final String M2 = "m2/";

    private final Path path;
    private final byte[] appXml;
    private final byte[] featuresXml;
    private final String featuresPath;
    private final Map<String, byte[]> bundles = new TreeMap<>();

    private Oar(Path path) throws IOException {
        this.path = path;
        byte[] app = null;
        byte[] features = null;
        String featuresAt = null;
        try (ZipFile zip = new ZipFile(path.toFile())) {
            Enumeration<? extends ZipEntry> entries = zip.entries();
            while (entries.hasMoreElements()) {
                ZipEntry entry = entries.nextElement();
                String name = entry.getName();
                if (name.equals("app.xml")) {
                    app = zip.getInputStream(entry).readAllBytes();
                } else if (name.startsWith(M2) && name.endsWith("-features.xml")) {
                    features = zip.getInputStream(entry).readAllBytes();
                    featuresAt = name.substring(M2.length());
                } else if (name.startsWith(M2) && name.endsWith(".jar")) {
                    bundles.put(name.substring(M2.length()), zip.getInputStream(entry).readAllBytes());
                }
            }
        }
        if (app == null || features == null || bundles.isEmpty()) {
            throw new IOException(path + " lacks app.xml, an m2/**-features.xml or bundles under m2/");
        }
        this.appXml = app;
        this.featuresXml = features;
        this.featuresPath = featuresAt;
    }

    /**
     * The .oar this build made (system property flowbuf.oar, set by the pom).
     *
     * @return the .oar
     * @throws IOException when it cannot be read
     */
    static Oar ofThisBuild() throws IOException {
        String oar = System.getProperty("flowbuf.oar");
        if (oar == null) {
            throw new IllegalStateException("system property flowbuf.oar is not set (run by Maven)");
        }
        return new Oar(Paths.get(oar));
    }

    Path path() {
        return path;
    }

    Document appXml() {
        return parse("app.xml", appXml);
    }

    Document featuresXml() {
        return parse("features XML", featuresXml);
    }

    /**
     * Where the features XML is carried, as a path under m2/.
     *
     * @return e.g. org/flowbuf/flowbuf-app/0.1.0-SNAPSHOT/flowbuf-app-0.1.0-SNAPSHOT-features.xml
     */
    String featuresPath() {
        return featuresPath;
    }

    /**
     * The bundles carried that hold an entry.
     *
     * @param entry a path inside a bundle, e.g. gui/js.html
     * @return paths under m2/ of the bundles holding it
     * @throws IOException when a bundle cannot be read
     */
    List<String> bundlesWithEntry(String entry) throws IOException {
        List<String> holders = new ArrayList<>();
        for (Map.Entry<String, byte[]> bundle : bundles.entrySet()) {
            try (ZipInputStream jar = new ZipInputStream(new ByteArrayInputStream(bundle.getValue()))) {
                for (ZipEntry e = jar.getNextEntry(); e != null; e = jar.getNextEntry()) {
                    if (e.getName().equals(entry)) {
                        holders.add(bundle.getKey());
                        break;
                    }
                }
            }
        }
        return holders;
    }

    /**
     * The bundles carried, by path under m2/ (group/artifact/version/file).
     *
     * @return jar bytes by path
     */
    Map<String, byte[]> bundles() {
        return bundles;
    }

    /**
     * The Karaf "mvn:" URL of a bundle carried, from its path under m2/.
     *
     * @param m2Path e.g. org/flowbuf/flowbuf-api/0.1.0-SNAPSHOT/flowbuf-api-0.1.0-SNAPSHOT.jar
     * @return e.g. mvn:org.flowbuf/flowbuf-api/0.1.0-SNAPSHOT
     */
    static String mvnUrl(String m2Path) {
        String[] parts = m2Path.split("/");
        int n = parts.length;
        String group = String.join(".", Arrays.copyOfRange(parts, 0, n - 3));
        return "mvn:" + group + "/" + parts[n - 3] + "/" + parts[n - 2];
    }

    private Document parse(String what, byte[] xml) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            return factory.newDocumentBuilder().parse(new ByteArrayInputStream(xml));
        } catch (SAXException | IOException | ParserConfigurationException e) {
            throw new AssertionError(path + ": " + what + " is not well-formed XML: " + e.getMessage(), e);
        }
    }
}
