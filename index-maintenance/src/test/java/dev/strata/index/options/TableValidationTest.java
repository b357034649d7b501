package dev.strata.index.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.index.PkFullTextIndex;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.TableSchema;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.api.Test;

class TableValidationTest {

    private static final RowType ROW =
            RowType.builder()
                    .field("id", DataTypes.BIGINT().notNull())
                    .field("content", DataTypes.STRING())
                    .field("n", DataTypes.INT())
                    .build();
    private static final List<String> PK = Collections.singletonList("id");

    private static Map<String, String> valid() {
        Map<String, String> o = new HashMap<>();
        o.put("bucket", "1");
        o.put("deletion-vectors.enabled", "true");
        o.put("strata-full-text.index.columns", "content");
        return o;
    }

    private static void validate(Map<String, String> options) {
        PkFullTextIndex.validate("db.t", ROW, PK, Collections.emptyList(), options);
    }

    private static Map<String, String> with(String key, String value) {
        Map<String, String> o = valid();
        if (value == null) {
            o.remove(key);
        } else {
            o.put(key, value);
        }
        return o;
    }

    @Test
    void acceptsValidTableAndPostponeBucketAndFirstRowWithoutDeletionVectors() {
        assertThatCode(() -> validate(valid())).doesNotThrowAnyException();
        assertThatCode(() -> validate(with("bucket", "-2"))).doesNotThrowAnyException();
        Map<String, String> firstRow = with("deletion-vectors.enabled", "false");
        firstRow.put("merge-engine", "first-row");
        firstRow.put("deletion-vectors.merge-on-read", "true");
        assertThatCode(() -> validate(firstRow)).doesNotThrowAnyException();
    }

    @Test
    void ignoresTablesWithoutTheOption() {
        assertThatCode(() -> validate(with("strata-full-text.index.columns", null)))
                .doesNotThrowAnyException();
    }

    @Test
    void rejectsEachRequirementWithOptionValueAndAllowedValues() {
        assertThatThrownBy(() -> validate(with("strata-full-text.index.columns", "content,n")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exactly one column")
                .hasMessageContaining("'content,n'");
        assertThatThrownBy(
                        () -> validate(with("strata-full-text.index.columns", "content,content")))
                .hasMessageContaining("duplicate")
                .hasMessageContaining("content");
        assertThatThrownBy(() -> validate(with("strata-full-text.index.columns", " ")))
                .hasMessageContaining("non-empty column");
        assertThatThrownBy(() -> validate(with("strata-full-text.index.columns", "missing")))
                .hasMessageContaining("must reference an existing column");
        assertThatThrownBy(() -> validate(with("strata-full-text.index.columns", "n")))
                .hasMessageContaining("CHAR/VARCHAR/STRING")
                .hasMessageContaining("INT");
        assertThatThrownBy(() -> validate(with("deletion-vectors.enabled", "false")))
                .hasMessageContaining("deletion-vectors.enabled")
                .hasMessageContaining("'false'")
                .hasMessageContaining("true");
        assertThatThrownBy(() -> validate(with("deletion-vectors.merge-on-read", "true")))
                .hasMessageContaining("deletion-vectors.merge-on-read");
        assertThatThrownBy(() -> validate(with("bucket", "-1")))
                .hasMessageContaining("'bucket' is '-1'")
                .hasMessageContaining("bucket > 0 or bucket = -2");
        assertThatThrownBy(() -> validate(with("pk-clustering-override", "true")))
                .hasMessageContaining("pk-clustering-override");
        assertThatThrownBy(
                        () ->
                                PkFullTextIndex.validate(
                                        "db.t",
                                        ROW,
                                        Collections.emptyList(),
                                        Collections.emptyList(),
                                        valid()))
                .hasMessageContaining("requires a primary-key table");
        assertThatThrownBy(
                        () ->
                                validate(
                                        with(
                                                "fields.content.strata-full-text.index.options",
                                                "{not json")))
                .hasMessageContaining(
                        "fields.content.strata-full-text.index.options must be a JSON object");
        Map<String, String> conflict =
                with("fields.content.strata-full-text.index.options", "{\"analyzer\":\"english\"}");
        conflict.put("strata-full-text.analyzer", "standard");
        assertThatThrownBy(() -> validate(conflict))
                .hasMessageContaining("conflicting values for strata-full-text.analyzer");
    }

    @Test
    void rejectsUnknownAnalyzerNamingAllowedValues() {
        assertThatThrownBy(
                        () ->
                                validate(
                                        with(
                                                "fields.content.strata-full-text.index.options",
                                                "{\"analyzer\":\"jieba\"}")))
                .hasMessageContaining("strata-full-text.analyzer")
                .hasMessageContaining("'jieba'")
                .hasMessageContaining(
                        "[standard, whitespace, simple, keyword, english, cjk, ngram]");
        assertThatThrownBy(
                        () ->
                                validate(
                                        with(
                                                "fields.content.strata-full-text.index.options",
                                                "{\"colour\":\"red\"}")))
                .hasMessageContaining("unknown option 'strata-full-text.colour'");
        assertThatThrownBy(
                        () ->
                                validate(
                                        with(
                                                "fields.content.strata-full-text.index.options",
                                                "{\"analyzer\":\"ngram\",\"ngram.min-gram\":\"3\",\"ngram.max-gram\":\"2\"}")))
                .hasMessageContaining("strata-full-text.ngram.max-gram");
    }

    @Test
    void columnJsonAndTableLevelOptionsMergeWithPrefix() {
        Map<String, String> o = valid();
        o.put("strata-full-text.lowercase", "false");
        o.put(
                "fields.content.strata-full-text.index.options",
                "{\"full-text.analyzer\":\"ngram\",\"ngram.min-gram\":\"2\",\"ngram.max-gram\":\"2\"}");
        FullTextDefinition def =
                FullTextDefinition.resolve("db.t", ROW, PK, Collections.emptyList(), o);
        assertThat(def.column()).isEqualTo("content");
        assertThat(def.fieldId()).isEqualTo(1);
        assertThat(def.analyzer().toMap())
                .containsEntry("analyzer", "ngram")
                .containsEntry("lowercase", "false")
                .containsEntry("ngram.min-gram", "2")
                .containsEntry("ngram.max-gram", "2")
                .doesNotContainKey("strata-full-text.index.columns");
        assertThat(def.analyzer().toJson()).doesNotContain("full-text.");
    }

    private static TableSchema schema(RowType row, Map<String, String> options) {
        Schema.Builder b = Schema.newBuilder();
        row.getFields().forEach(f -> b.column(f.name(), f.type()));
        b.primaryKey("id");
        b.options(options);
        return TableSchema.create(1, b.build());
    }

    @Test
    void forbidsDropRenameAndRetypeOfIndexedColumn() {
        TableSchema before = schema(ROW, valid());
        TableSchema dropped =
                new TableSchema(
                        2,
                        Arrays.asList(before.fields().get(0), before.fields().get(2)),
                        2,
                        before.partitionKeys(),
                        before.primaryKeys(),
                        valid(),
                        "");
        assertThatThrownBy(() -> PkFullTextIndex.validateSchemaChange("db.t", before, dropped))
                .hasMessageStartingWith("Cannot drop column db.t.content")
                .hasMessageContaining("strata-full-text.index.columns");
        TableSchema renamed =
                new TableSchema(
                        2,
                        Arrays.asList(
                                before.fields().get(0),
                                before.fields().get(1).newName("body"),
                                before.fields().get(2)),
                        2,
                        before.partitionKeys(),
                        before.primaryKeys(),
                        valid(),
                        "");
        assertThatThrownBy(() -> PkFullTextIndex.validateSchemaChange("db.t", before, renamed))
                .hasMessageStartingWith("Cannot rename column db.t.content to 'body'");
        // A rename the option follows keeps the index (archives name the column by field id).
        Map<String, String> following = new HashMap<>(valid());
        following.put(FullTextDefinition.COLUMNS, "body");
        PkFullTextIndex.validateSchemaChange("db.t", before, renamed.copy(following));
        TableSchema retyped =
                new TableSchema(
                        2,
                        Arrays.asList(
                                before.fields().get(0),
                                before.fields().get(1).newType(DataTypes.BYTES()),
                                before.fields().get(2)),
                        2,
                        before.partitionKeys(),
                        before.primaryKeys(),
                        valid(),
                        "");
        assertThatThrownBy(() -> PkFullTextIndex.validateSchemaChange("db.t", before, retyped))
                .hasMessageStartingWith("Cannot update type of column db.t.content");
        TableSchema unrelated =
                new TableSchema(
                        2,
                        Arrays.asList(
                                before.fields().get(0),
                                before.fields().get(1),
                                before.fields().get(2).newName("m")),
                        2,
                        before.partitionKeys(),
                        before.primaryKeys(),
                        valid(),
                        "");
        assertThatCode(() -> PkFullTextIndex.validateSchemaChange("db.t", before, unrelated))
                .doesNotThrowAnyException();
        Map<String, String> unset = valid();
        unset.remove("strata-full-text.index.columns");
        TableSchema unindexedAndDropped =
                new TableSchema(
                        2,
                        Arrays.asList(before.fields().get(0), before.fields().get(2)),
                        2,
                        before.partitionKeys(),
                        before.primaryKeys(),
                        unset,
                        "");
        assertThatCode(
                        () ->
                                PkFullTextIndex.validateSchemaChange(
                                        "db.t", before, unindexedAndDropped))
                .doesNotThrowAnyException();
    }
}
