// SPDX-License-Identifier: Apache-2.0
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.File;
import java.io.IOException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * Overlays what ONOS's swagger generator cannot say onto the document it
 * writes (app/app/target/swagger.json), in place, at build time: the app's
 * pom runs it right after the generator (a single-file Java program, so
 * that Maven alone reproduces the document the host and the docs serve).
 *
 * <p>ONOS's generator types every path and query parameter from the Java
 * signature (a String: "string") and copies the request and response
 * schemas from the definitions/*.json files as they are. The overlay
 * (app/app/src/main/openapi/overlay.json) adds, generically:
 * <ul>
 *   <li>{@code definitions}: shared formats (a device id, an IPv4 prefix),
 *       added to the document's definitions;</li>
 *   <li>{@code parameters}: merged into every path or query parameter of
 *       that name, in every operation;</li>
 *   <li>{@code properties}: rules {@code {"schema", "names", "at"}}: the
 *       schema is merged into every property so named, in every definition,
 *       at any depth, where the types agree, and into the properties at the
 *       places given ("Definition.field.field", "[]" for an array's
 *       items);</li>
 *   <li>{@code operations}: merged into the operation "METHOD /path"
 *       (its parameters by name).</li>
 * </ul>
 * A fragment {@code {"$ref": "#/definitions/X", ...}} stands for X's
 * constraints (type, format, pattern, ranges, enum) inlined, then the
 * fragment's other fields: parameters other than bodies cannot refer to a
 * schema in swagger 2.0, and a property keeps its own description.
 *
 * <p>Usage: {@code java OpenApiOverlay.java swagger.json overlay.json}
 */
public final class OpenApiOverlay {

    private static final String[] METHODS = {"get", "put", "post", "delete", "patch"};
    /** What a shared format contributes to whatever refers to it (not its title or description). */
    private static final String[] CONSTRAINTS = {
        "type", "format", "pattern", "minLength", "maxLength", "minimum", "maximum",
        "exclusiveMinimum", "exclusiveMaximum", "enum", "oneOf", "anyOf", "dependencies"};

    private final ObjectNode document;
    private final ObjectNode overlay;

    private OpenApiOverlay(ObjectNode document, ObjectNode overlay) {
        this.document = document;
        this.overlay = overlay;
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: OpenApiOverlay swagger.json overlay.json");
        }
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        File target = new File(args[0]);
        ObjectNode document = (ObjectNode) mapper.readTree(target);
        ObjectNode overlay = (ObjectNode) mapper.readTree(new File(args[1]));
        new OpenApiOverlay(document, overlay).apply();
        mapper.writeValue(target, document);
    }

    private void apply() {
        ObjectNode definitions = document.with("definitions");
        fields(overlay.path("definitions")).forEach(e -> definitions.set(e.getKey(), e.getValue()));
        overlayParameters();
        overlayProperties();
        overlayOperations();
    }

    private void overlayParameters() {
        JsonNode byName = overlay.path("parameters");
        forEachOperation((label, operation) -> {
            for (JsonNode parameter : operation.path("parameters")) {
                JsonNode fragment = byName.get(parameter.path("name").asText());
                if (fragment != null && !"body".equals(parameter.path("in").asText())) {
                    merge((ObjectNode) parameter, resolve(fragment));
                }
            }
        });
    }

    private void overlayProperties() {
        for (JsonNode rule : overlay.path("properties")) {
            ObjectNode fragment = resolve(rule.path("schema"));
            Set<String> names = new HashSet<>();
            rule.path("names").forEach(name -> names.add(name.asText()));
            for (JsonNode schema : document.path("definitions")) {
                overlayProperties(schema, names, fragment);
            }
            for (JsonNode at : rule.path("at")) {
                mergeSameType(at.asText(), propertyAt(at.asText()), fragment);
            }
        }
    }

    /**
     * The properties of the schema whose name is in names, and those of the
     * objects it nests (fields, array items); not those a oneOf, anyOf or
     * dependencies branch names, which refine the fields rather than add any.
     */
    private static void overlayProperties(JsonNode schema, Set<String> names, ObjectNode fragment) {
        if (!schema.isObject()) {
            return;
        }
        fields(schema.path("properties")).forEach(e -> {
            if (names.contains(e.getKey()) && e.getValue().isObject()
                    && sameType(e.getValue(), fragment)) {
                merge((ObjectNode) e.getValue(), fragment);
            }
            overlayProperties(e.getValue(), names, fragment);
        });
        overlayProperties(schema.path("items"), names, fragment);
    }

    /** A place "Definition.field.field", "[]" for an array's items. */
    private ObjectNode propertyAt(String place) {
        String[] steps = place.split("\\.");
        JsonNode node = document.path("definitions").path(steps[0]);
        for (int i = 1; i < steps.length; i++) {
            String step = steps[i];
            boolean items = step.endsWith("[]");
            node = node.path("properties").path(items ? step.substring(0, step.length() - 2) : step);
            if (items) {
                node = node.path("items");
            }
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException("overlay: no property " + place + " in the document");
        }
        return (ObjectNode) node;
    }

    private static void mergeSameType(String place, ObjectNode property, ObjectNode fragment) {
        if (!sameType(property, fragment)) {
            throw new IllegalArgumentException("overlay: " + place + " is a " + property.path("type")
                                                       + ", not a " + fragment.path("type"));
        }
        merge(property, fragment);
    }

    private static boolean sameType(JsonNode property, JsonNode fragment) {
        JsonNode type = property.get("type");
        return type == null || !fragment.has("type") || type.equals(fragment.get("type"));
    }

    private void overlayOperations() {
        JsonNode byLabel = overlay.path("operations");
        fields(byLabel).forEach(e -> {
            ObjectNode operation = operation(e.getKey());
            ObjectNode fragment = (ObjectNode) e.getValue().deepCopy();
            JsonNode parameters = fragment.remove("parameters");
            if (parameters != null) {
                fields(parameters).forEach(p -> merge(parameter(operation, e.getKey(), p.getKey()),
                                                      resolve(p.getValue())));
            }
            merge(operation, fragment);
        });
    }

    private ObjectNode operation(String label) {
        String[] parts = label.split(" ", 2);
        JsonNode operation = document.path("paths").path(parts.length == 2 ? parts[1] : "")
                .path(parts[0].toLowerCase());
        if (!operation.isObject()) {
            throw new IllegalArgumentException("overlay: no operation " + label + " in the document");
        }
        return (ObjectNode) operation;
    }

    private static ObjectNode parameter(ObjectNode operation, String label, String name) {
        for (JsonNode parameter : operation.path("parameters")) {
            if (name.equals(parameter.path("name").asText())) {
                return (ObjectNode) parameter;
            }
        }
        throw new IllegalArgumentException("overlay: " + label + " has no parameter " + name);
    }

    /** A fragment with its $ref (to one of the document's definitions) inlined. */
    private ObjectNode resolve(JsonNode fragment) {
        ObjectNode resolved = ((ObjectNode) fragment).deepCopy();
        JsonNode ref = resolved.remove("$ref");
        if (ref == null) {
            return resolved;
        }
        String name = ref.asText().replaceFirst("^#/definitions/", "");
        JsonNode shared = document.path("definitions").get(name);
        if (shared == null) {
            throw new IllegalArgumentException("overlay: no definition " + ref.asText());
        }
        ObjectNode inlined = document.objectNode();
        for (String key : CONSTRAINTS) {
            if (shared.has(key)) {
                inlined.set(key, shared.get(key).deepCopy());
            }
        }
        merge(inlined, resolved);
        return inlined;
    }

    /** Objects merged field by field; the fragment's other values (arrays too) win. */
    private static void merge(ObjectNode into, JsonNode fragment) {
        fields(fragment).forEach(e -> {
            JsonNode mine = into.get(e.getKey());
            if (mine != null && mine.isObject() && e.getValue().isObject()) {
                merge((ObjectNode) mine, e.getValue());
            } else {
                into.set(e.getKey(), e.getValue().deepCopy());
            }
        });
    }

    private void forEachOperation(BiConsumer<String, ObjectNode> action) {
        fields(document.path("paths")).forEach(path -> {
            for (String method : METHODS) {
                JsonNode operation = path.getValue().get(method);
                if (operation != null && operation.isObject()) {
                    action.accept(method.toUpperCase() + " " + path.getKey(), (ObjectNode) operation);
                }
            }
        });
    }

    private static Iterable<Map.Entry<String, JsonNode>> fields(JsonNode node) {
        return node::fields;
    }
}
