package dev.strata.spark.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.shredding.options.StrataOption;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The README's option table is the catalogue's ({@code -Dstrata.readme.update=true} writes it), and
 * settings are read with one rule.
 */
class OptionsCatalogueTest {

    static final String BEGIN = "<!-- options table: generated from OptionsCatalogue -->\n";
    static final String END = "<!-- end of options table -->";

    @Test
    void readmeOptionTableIsTheCatalogues() throws IOException {
        Path readme = readme();
        String text = Files.readString(readme, StandardCharsets.UTF_8);
        int begin = text.indexOf(BEGIN);
        int end = text.indexOf(END);
        assertThat(begin).as("README.md has the line %s", BEGIN.trim()).isNotNegative();
        assertThat(end).as("README.md has the line %s", END).isGreaterThan(begin);
        String generated = OptionsCatalogue.markdownTable();
        if (Boolean.getBoolean("strata.readme.update")) {
            Files.writeString(
                    readme,
                    text.substring(0, begin + BEGIN.length()) + generated + text.substring(end),
                    StandardCharsets.UTF_8);
            return;
        }
        assertThat(text.substring(begin + BEGIN.length(), end))
                .as(
                        "README.md's option table differs from OptionsCatalogue; run this test with"
                                + " -Dstrata.readme.update=true to rewrite it")
                .isEqualTo(generated);
    }

    @Test
    void everyKeyIsListedOnce() {
        assertThat(
                        OptionsCatalogue.all().stream()
                                .map(e -> e.kind() + " " + e.key())
                                .distinct()
                                .count())
                .isEqualTo(OptionsCatalogue.all().size());
        assertThat(OptionsCatalogue.all())
                .extracting(OptionsCatalogue.Entry::key)
                .contains(
                        SessionSettings.SEARCH_DRIVER_MAX_BUCKETS.key(),
                        SessionSettings.SEARCH_FRESH.key(),
                        SessionSettings.COLUMNAR_READS.key());
        assertThat(OptionsCatalogue.strataTableKeys())
                .contains("strata-shredded.max-segments", "strata-full-text.analyzer")
                .noneMatch(k -> k.startsWith("fields."));
    }

    @Test
    void sessionSettingsCanBeSetAsTyped() {
        org.apache.spark.sql.execution.SparkSqlParser parser =
                new org.apache.spark.sql.execution.SparkSqlParser();
        for (OptionsCatalogue.Entry e : OptionsCatalogue.all()) {
            if (e.kind() == OptionsCatalogue.Kind.SESSION) {
                assertThat(parser.parsePlan("SET " + e.key() + " = 1").toString())
                        .as("SET %s = 1", e.key())
                        .contains(e.key());
            }
        }
    }

    @Test
    void settingsAreReadWithOneRule() {
        StrataOption<Integer> n = SessionSettings.SEARCH_DRIVER_MAX_BUCKETS;
        assertThat(n.read(Map.of(), "x")).isEqualTo(16);
        assertThat(n.read(Map.of(n.key(), " 0 "), "x")).isZero();
        assertThatThrownBy(() -> n.read(Map.of(n.key(), "-1"), "plan full_text_search"))
                .hasMessage(
                        "Cannot plan full_text_search: option"
                                + " 'spark.sql.strata.search.driverMaxBuckets' has value '-1',"
                                + " expected an integer >= 0. Set it to an integer >= 0, or remove"
                                + " it for the default (16).");
        StrataOption<Boolean> b = SessionSettings.COLUMNAR_READS;
        assertThat(b.read(Map.of(b.key(), "FALSE"), "x")).isFalse();
        assertThatThrownBy(() -> b.read(Map.of(b.key(), "yes"), "plan the scan of t"))
                .hasMessageContaining("'spark.sql.strata.columnarReads.enabled' has value 'yes'")
                .hasMessageContaining("expected true or false");
    }

    private static Path readme() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve(".ci/run"))) {
            dir = dir.getParent();
        }
        assertThat(dir)
                .as("the repository root (with .ci/run) above the working directory")
                .isNotNull();
        return dir.resolve("README.md");
    }
}
