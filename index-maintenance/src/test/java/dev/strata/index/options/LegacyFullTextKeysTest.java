package dev.strata.index.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.index.PkFullTextIndex;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.api.Test;

/**
 * Strata's full-text keys moved off the keys Apache Paimon 2.0 owns ({@code
 * pk-full-text.index.columns}, {@code fields.<col>.pk-full-text.index.options}, {@code
 * full-text.*}): tables that still have them read the same definition, new definitions may not set
 * them, and setting {@code strata-full-text.index.columns} moves all of them.
 */
class LegacyFullTextKeysTest {

    private static final RowType ROW =
            RowType.builder()
                    .field("id", DataTypes.BIGINT().notNull())
                    .field("body", DataTypes.STRING())
                    .build();
    private static final List<String> PK = Collections.singletonList("id");

    private static Map<String, String> base() {
        Map<String, String> o = new HashMap<>();
        o.put("bucket", "2");
        o.put("deletion-vectors.enabled", "true");
        return o;
    }

    private static Map<String, String> legacy() {
        Map<String, String> o = base();
        o.put("pk-full-text.index.columns", "body");
        o.put("fields.body.pk-full-text.index.options", "{\"analyzer\":\"english\"}");
        o.put("full-text.max-token-length", "100");
        return o;
    }

    private static Map<String, String> current() {
        Map<String, String> o = base();
        o.put("strata-full-text.index.columns", "body");
        o.put("fields.body.strata-full-text.index.options", "{\"analyzer\":\"english\"}");
        o.put("strata-full-text.max-token-length", "100");
        return o;
    }

    private static FullTextDefinition resolve(Map<String, String> options) {
        return FullTextDefinition.resolve("db.t", ROW, PK, Collections.emptyList(), options);
    }

    @Test
    void tableWithTheOldKeysReadsTheSameDefinitionAsWithTheNewKeys() {
        assertThat(PkFullTextIndex.isEnabled(legacy())).isTrue();
        assertThat(resolve(legacy()).column()).isEqualTo("body");
        assertThat(resolve(legacy()).analyzer().toMap())
                .isEqualTo(resolve(current()).analyzer().toMap())
                .containsEntry("analyzer", "english")
                .containsEntry("max-token-length", "100");
    }

    @Test
    void newKeysAreNotReadFromPaimonsFullTextPrefix() {
        Map<String, String> o = current();
        // Paimon 2.0's own index option: not Strata's once the table uses the new key.
        o.put("full-text.analyzer", "keyword");
        assertThat(resolve(o).analyzer().toMap()).containsEntry("analyzer", "english");
        assertThat(FullTextDefinition.hasLegacyKeys(o)).isFalse();
    }

    @Test
    void createWithAnOldKeyIsRefusedNamingTheNewKey() {
        assertThatThrownBy(
                        () -> FullTextDefinition.checkNoNewLegacyKeys("lake.db.t", legacy(), null))
                .hasMessageStartingWith("Cannot create table lake.db.t with option '")
                .hasMessageContaining("Apache Paimon 2.0 reads")
                .hasMessageContaining("Set '");
        Map<String, String> columnsOnly = base();
        columnsOnly.put("pk-full-text.index.columns", "body");
        assertThatThrownBy(
                        () ->
                                FullTextDefinition.checkNoNewLegacyKeys(
                                        "lake.db.t", columnsOnly, null))
                .hasMessage(
                        "Cannot create table lake.db.t with option 'pk-full-text.index.columns':"
                                + " Apache Paimon 2.0 reads 'pk-full-text.index.columns' as its own"
                                + " full-text index (index type full-text), so its writers fail on"
                                + " the table. Set 'strata-full-text.index.columns' for Strata's"
                                + " full-text archives instead.");
        Map<String, String> paimonPrefix = current();
        paimonPrefix.put("full-text.analyzer", "keyword");
        assertThatThrownBy(
                        () ->
                                FullTextDefinition.checkNoNewLegacyKeys(
                                        "lake.db.t", paimonPrefix, null))
                .hasMessageContaining("option 'full-text.analyzer'")
                .hasMessageContaining("Set 'strata-full-text.analyzer'");
        assertThatCode(() -> FullTextDefinition.checkNoNewLegacyKeys("lake.db.t", current(), null))
                .doesNotThrowAnyException();
    }

    @Test
    void alterKeepsTheOldKeysATableHasButRefusesSettingThemAndSaysHowToMove() {
        Map<String, String> unrelated = legacy();
        unrelated.put("snapshot.num-retained.min", "5");
        assertThatCode(
                        () ->
                                FullTextDefinition.checkNoNewLegacyKeys(
                                        "lake.db.t", unrelated, legacy()))
                .doesNotThrowAnyException();
        Map<String, String> changed = legacy();
        changed.put("fields.body.pk-full-text.index.options", "{\"analyzer\":\"simple\"}");
        assertThatThrownBy(
                        () ->
                                FullTextDefinition.checkNoNewLegacyKeys(
                                        "lake.db.t", changed, legacy()))
                .hasMessageStartingWith(
                        "Cannot alter table lake.db.t with option"
                                + " 'fields.body.pk-full-text.index.options'")
                .hasMessageContaining("Set 'fields.body.strata-full-text.index.options'")
                .hasMessageEndingWith(
                        "ALTER TABLE lake.db.t SET TBLPROPERTIES"
                                + " ('strata-full-text.index.columns' = 'body') moves all of them to"
                                + " the new names.");
    }

    @Test
    void settingTheNewColumnsKeyMovesEveryOldKeyAndKeepsValuesSetUnderNewNames() {
        assertThat(FullTextDefinition.withCurrentKeys(legacy())).isEqualTo(legacy());
        Map<String, String> moving = legacy();
        moving.put("strata-full-text.index.columns", "body");
        assertThat(FullTextDefinition.withCurrentKeys(moving)).isEqualTo(current());
        moving.put("strata-full-text.max-token-length", "50");
        assertThat(FullTextDefinition.withCurrentKeys(moving))
                .containsEntry("strata-full-text.max-token-length", "50")
                .doesNotContainKeys(
                        "pk-full-text.index.columns",
                        "fields.body.pk-full-text.index.options",
                        "full-text.max-token-length");
    }
}
