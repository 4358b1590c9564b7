package io.github.gpusizer.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class CostTimePlotTest {

  private static Document parse(String svg) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    return factory.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
  }

  private static long countClass(Document doc, String tag, String cls) {
    NodeList nodes = doc.getElementsByTagName(tag);
    long n = 0;
    for (int i = 0; i < nodes.getLength(); i++) {
      if (((Element) nodes.item(i)).getAttribute("class").equals(cls)) {
        n++;
      }
    }
    return n;
  }

  @Test
  void draws_every_option_the_front_and_the_best_with_labelled_axes() throws Exception {
    // GIVEN three options, two on the front, one of them the best; one label needs escaping
    List<CostTimePlot.Point> points = List.of(
        new CostTimePlot.Point("a <fast>", 2, 100, true, false),
        new CostTimePlot.Point("b & co", 10, 40, true, true),
        new CostTimePlot.Point("c", 12, 90, false, false));
    // WHEN drawn
    Document doc = parse(CostTimePlot.render(points, "CNY"));
    // THEN it is well-formed SVG with one dot per option, a front line, one best marker and unit labels
    assertThat(doc.getDocumentElement().getTagName()).isEqualTo("svg");
    assertThat(countClass(doc, "circle", "option") + countClass(doc, "circle", "option pareto")
        + countClass(doc, "circle", "option best")).isEqualTo(3);
    assertThat(countClass(doc, "circle", "option best")).isEqualTo(1);
    assertThat(countClass(doc, "circle", "best-marker")).isEqualTo(1);
    assertThat(countClass(doc, "polyline", "pareto-front")).isEqualTo(1);
    String text = doc.getDocumentElement().getTextContent();
    assertThat(text).contains("Wall-clock time (hours)").contains("Total cost (CNY)").contains("best: b & co");
  }

  @Test
  void wide_ranges_switch_to_a_log_axis() throws Exception {
    List<CostTimePlot.Point> points = List.of(
        new CostTimePlot.Point("slow", 500, 100, true, true),
        new CostTimePlot.Point("fast", 1, 120, true, false));
    String text = parse(CostTimePlot.render(points, "USD")).getDocumentElement().getTextContent();
    assertThat(text).contains("Wall-clock time (hours, log scale)").contains("Total cost (USD)");
  }

  @Test
  void a_single_option_still_plots() throws Exception {
    Document doc = parse(CostTimePlot.render(List.of(new CostTimePlot.Point("only", 3, 0, true, true)), "USD"));
    assertThat(countClass(doc, "circle", "option best")).isEqualTo(1);
  }

  @Test
  void no_options_is_rejected() {
    assertThatThrownBy(() -> CostTimePlot.render(List.of(), "USD"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one feasible option");
  }

  @Test
  void tick_labels_keep_three_significant_digits() {
    assertThat(CostTimePlot.format(0.01234)).isEqualTo("0.0123");
    assertThat(CostTimePlot.format(1.5)).isEqualTo("1.5");
    assertThat(CostTimePlot.format(250)).isEqualTo("250");
    assertThat(CostTimePlot.format(12000)).isEqualTo("12000");
  }
}
