package io.github.gpusizer.examples.support;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PrintableTest {
  @Test
  void escape_sequences_are_shown_not_run() {
    assertThat(Printable.line("gpu \u001b[2J\u001b]0;title\u0007x")).isEqualTo("gpu \\u001b[2J\\u001b]0;title\\u0007x");
  }

  @Test
  void c1_controls_and_bidi_overrides_are_escaped() {
    assertThat(Printable.line("a\u009b31mb\u202ec\u2066d\u2028e\u007f"))
        .isEqualTo("a\\u009b31mb\\u202ec\\u2066d\\u2028e\\u007f");
  }

  @Test
  void a_line_escapes_line_breaks_and_text_keeps_them() {
    assertThat(Printable.line("a\nb\rc\td")).isEqualTo("a\\u000ab\\u000dc\\u0009d");
    assertThat(Printable.text("a\nb\rc")).isEqualTo("a\nb\\u000dc");
  }

  @Test
  void printable_text_is_kept_as_it_is_and_escaping_twice_changes_nothing_more() {
    String text = "H100 – 80 GiB, 東京, naïve \\u001b";
    assertThat(Printable.line(text)).isSameAs(text);
    String once = Printable.line("x\u001by");
    assertThat(Printable.line(once)).isEqualTo(once);
  }
}
