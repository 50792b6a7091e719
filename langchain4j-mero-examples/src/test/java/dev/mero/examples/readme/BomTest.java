package dev.mero.examples.readme;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * {@code langchain4j-mero-bom} has no parent (an imported BOM would otherwise bring every version the parent
 * manages), so nothing in Maven keeps it in step: this test does. It manages exactly the published modules (every
 * module of the parent that is a jar and not marked {@code maven.deploy.skip}), each at the project's version, and
 * its own version is the parent's.
 */
class BomTest {

    @Test
    void theBomManagesEveryPublishedModuleAtTheProjectVersion() throws Exception {
        Path root = DocPages.repositoryRoot();
        Document parent = parse(root.resolve("pom.xml"));
        Document bom = parse(root.resolve("langchain4j-mero-bom/pom.xml"));

        List<String> published = new ArrayList<>();
        for (String module : texts(child(parent.getDocumentElement(), "modules"), "module")) {
            Element pom = parse(root.resolve(module).resolve("pom.xml")).getDocumentElement();
            boolean jar = child(pom, "packaging") == null || text(child(pom, "packaging")).equals("jar");
            Element properties = child(pom, "properties");
            boolean skipped = properties != null && child(properties, "maven.deploy.skip") != null
                    && text(child(properties, "maven.deploy.skip")).equals("true");
            if (jar && !skipped) {
                published.add(text(child(pom, "artifactId")));
            }
        }

        Map<String, String> managed = new TreeMap<>();
        Element dependencies = child(child(bom.getDocumentElement(), "dependencyManagement"), "dependencies");
        for (Element dependency : children(dependencies, "dependency")) {
            assertThat(text(child(dependency, "groupId"))).isEqualTo("dev.mero");
            managed.put(text(child(dependency, "artifactId")), text(child(dependency, "version")));
        }

        assertThat(published).as("published modules").contains("langchain4j-mero-core", "langchain4j-mero-tools-test")
                .doesNotContain("langchain4j-mero-examples", "langchain4j-mero-bom");
        assertThat(managed.keySet()).as("modules the BOM manages").containsExactlyInAnyOrderElementsOf(published);
        assertThat(managed.values()).as("versions in the BOM").containsOnly("${project.version}");
        assertThat(text(child(bom.getDocumentElement(), "version")))
                .as("the BOM's version").isEqualTo(text(child(parent.getDocumentElement(), "version")));
    }

    private static Document parse(Path pom) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(pom.toFile());
    }

    private static Element child(Element parent, String name) {
        List<Element> found = children(parent, name);
        return found.isEmpty() ? null : found.get(0);
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            if (nodes.item(i).getNodeType() == Node.ELEMENT_NODE && nodes.item(i).getNodeName().equals(name)) {
                found.add((Element) nodes.item(i));
            }
        }
        return found;
    }

    private static List<String> texts(Element parent, String name) {
        return children(parent, name).stream().map(BomTest::text).toList();
    }

    private static String text(Element element) {
        return element.getTextContent().trim();
    }
}
