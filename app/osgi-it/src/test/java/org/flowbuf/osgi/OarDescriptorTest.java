/*
 * Copyright 2026 FlowBuf authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package org.flowbuf.osgi;

import aQute.bnd.header.Parameters;
import org.junit.BeforeClass;
import org.junit.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarInputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The .oar's app.xml and features XML say what ONOS 2.7 can act on: the
 * apps required exist in ONOS 2.7 by those names, and the features
 * repository names the bundles the .oar carries and a feature ONOS has.
 */
public class OarDescriptorTest {

    /** The features of ONOS 2.7's own repository (tools/package/features/BUILD at 2.7.0). */
    private static final Set<String> ONOS_FEATURES = Set.of(
            "onos-thirdparty-base", "onos-thirdparty-web", "onos-api", "onos-core",
            "onos-rest", "onos-cli", "onos-security");
    /** The app that carries ONOS 2.7's legacy GUI, the one that loads gui/js.html overlays. */
    private static final String LEGACY_GUI_APP = "org.onosproject.gui";

    private static Oar oar;
    private static Element app;
    private static Element features;

    @BeforeClass
    public static void readOar() throws IOException {
        oar = Oar.ofThisBuild();
        app = oar.appXml().getDocumentElement();
        features = oar.featuresXml().getDocumentElement();
    }

    @Test
    public void requiredAppsExistInOnos27() throws IOException {
        Set<String> onosApps = onos27Apps();
        List<String> unknown = requiredApps().stream()
                .filter(a -> !onosApps.contains(a))
                .collect(Collectors.toList());
        assertEquals(oar.path() + " app.xml requires apps ONOS 2.7 does not have", List.of(), unknown);
    }

    @Test
    public void noBundleImportsJavaPackages() throws IOException {
        // Karaf 4.2.9's feature resolver refuses the feature of a bundle that
        // imports java.*: "Importing java.* packages not allowed" (ONOS 2.7 live).
        Map<String, List<String>> javaImports = new TreeMap<>();
        for (Map.Entry<String, byte[]> bundle : oar.bundles().entrySet()) {
            Manifest manifest;
            try (JarInputStream jar = new JarInputStream(new ByteArrayInputStream(bundle.getValue()))) {
                manifest = jar.getManifest();
            }
            String imports = manifest.getMainAttributes().getValue("Import-Package");
            List<String> java = new Parameters(imports == null ? "" : imports).keySet().stream()
                    .filter(p -> p.startsWith("java."))
                    .collect(Collectors.toList());
            if (!java.isEmpty()) {
                javaImports.put(bundle.getKey(), java);
            }
        }
        assertEquals(oar.path() + ": bundles importing java.* packages", Map.of(), javaImports);
    }

    @Test
    public void appXmlArtifactsAreTheBundlesCarried() {
        assertEquals(oar.path() + ": app.xml <artifact>s vs bundles under m2/",
                     carriedBundles(), new TreeSet<>(texts(app, "artifact")));
    }

    @Test
    public void featuresRepoNamesTheBundlesCarried() {
        assertEquals(oar.path() + ": features XML root", "features", features.getLocalName());
        String feature = app.getAttribute("features");
        Element defined = null;
        NodeList list = features.getElementsByTagNameNS("*", "feature");
        for (int i = 0; i < list.getLength(); i++) {
            Element e = (Element) list.item(i);
            if (e.getParentNode() == features && feature.equals(e.getAttribute("name"))) {
                defined = e;
            }
        }
        assertTrue(oar.path() + ": app.xml features=\"" + feature + "\" is not defined in its features XML",
                   defined != null);
        assertEquals(oar.path() + ": feature " + feature + " <bundle>s vs bundles under m2/",
                     carriedBundles(), new TreeSet<>(texts(defined, "bundle")));
        for (String needed : texts(defined, "feature")) {
            assertTrue(oar.path() + ": feature " + feature + " needs feature " + needed
                               + ", which ONOS 2.7 does not define", ONOS_FEATURES.contains(needed));
        }
    }

    @Test
    public void featuresRepoIsCarriedWhereAppXmlSaysItIs() {
        // mvn:g/a/v/xml/features is carried as m2/<g as a path>/a/v/a-v-features.xml
        String repo = app.getAttribute("featuresRepo");
        String[] mvn = repo.replaceFirst("^mvn:", "").split("/");
        assertEquals(oar.path() + ": app.xml featuresRepo=\"" + repo + "\" is not mvn:g/a/v/xml/features",
                     List.of("xml", "features"), mvn.length == 5 ? List.of(mvn[3], mvn[4]) : List.of());
        String path = String.join("/", mvn[0].replace('.', '/'), mvn[1], mvn[2],
                                  mvn[1] + "-" + mvn[2] + "-features.xml");
        assertEquals(oar.path() + ": app.xml featuresRepo=\"" + repo + "\" vs the features XML carried",
                     path, oar.featuresPath());
    }

    @Test
    public void guiOverlayRequiresTheLegacyGui() throws IOException {
        // ONOS 2.7 activates only GUI2 by default; overlays injected by
        // gui/js.html show in the legacy GUI, which the app must then require.
        boolean hasOverlay = !oar.bundlesWithEntry("gui/js.html").isEmpty();
        assertTrue(oar.path() + ": a bundle has a legacy GUI overlay (gui/js.html) but app.xml does not"
                           + " require " + LEGACY_GUI_APP,
                   !hasOverlay || requiredApps().contains(LEGACY_GUI_APP));
    }

    private static List<String> requiredApps() {
        return Arrays.stream(app.getAttribute("apps").split(","))
                .map(String::trim).filter(s -> !s.isEmpty()).collect(Collectors.toList());
    }

    private static Set<String> carriedBundles() {
        return oar.bundles().keySet().stream().map(Oar::mvnUrl).collect(Collectors.toCollection(TreeSet::new));
    }

    /** Text of the direct children of an element with a tag name, in any namespace. */
    private static List<String> texts(Element parent, String tag) {
        List<String> texts = new ArrayList<>();
        NodeList list = parent.getElementsByTagNameNS("*", tag);
        for (int i = 0; i < list.getLength(); i++) {
            if (list.item(i).getParentNode() == parent) {
                texts.add(list.item(i).getTextContent().trim());
            }
        }
        return texts;
    }

    private static Set<String> onos27Apps() throws IOException {
        try (InputStream in = OarDescriptorTest.class.getResourceAsStream("/onos-2.7.0-apps.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(l -> !l.isBlank() && !l.startsWith("#"))
                    .collect(Collectors.toSet());
        }
    }
}
