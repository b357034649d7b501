package dev.strata.launcher.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The README's acceptance scenarios, small enough for CI, run through {@code bin/strata-sql} on any
 * master and warehouse: shredded INSERT and a pushed map-key query, a primary-key table with
 * deletion vectors and full-text archives, DELETE, MERGE, {@code CALL compact}, {@code CALL
 * rebuild_pk_fulltext}, {@code full_text_search} (as Spark tasks) and {@code text_match}.
 */
final class AcceptanceScenarios {

    private AcceptanceScenarios() {}

    /**
     * Ids whose body mentions 'disk' once the script ran (7 + 100 k, minus 107 and 207, plus 2000).
     */
    static final String DISK_IDS = "7,307,407,507,607,707,807,907,2000";

    static final String SCRIPT =
            String.join(
                    "\n",
                    "CREATE NAMESPACE IF NOT EXISTS lake.acc;",
                    "CREATE TABLE lake.acc.metrics (id BIGINT, host STRING, m MAP<STRING, DOUBLE>)",
                    "TBLPROPERTIES ('fields.m.map.storage-layout' = 'shared-shredding',",
                    "               'fields.m.map.shared-shredding.max-columns' = '8');",
                    "INSERT INTO lake.acc.metrics SELECT id, concat('h', CAST(id % 3 AS STRING)),",
                    "  map('usage', CAST(id % 100 AS DOUBLE), concat('k', CAST(id % 40 AS STRING)), 1.0D)",
                    "FROM range(0, 4000);",
                    "SELECT count(*) AS hot_rows FROM lake.acc.metrics WHERE m['usage'] > 90;",
                    "EXPLAIN SELECT m['usage'] FROM lake.acc.metrics WHERE m['usage'] > 90;",
                    "CREATE TABLE lake.acc.docs (id BIGINT NOT NULL, dt STRING NOT NULL, body STRING)",
                    "PARTITIONED BY (dt)",
                    "TBLPROPERTIES ('primary-key' = 'id,dt', 'bucket' = '2', 'deletion-vectors.enabled' = 'true',",
                    "               'strata-full-text.index.columns' = 'body');",
                    "INSERT INTO lake.acc.docs SELECT id, concat('2026-11-0', CAST(id % 2 + 1 AS STRING)),",
                    "  concat('document ', CAST(id AS STRING),",
                    "         CASE WHEN id % 100 = 7 THEN ' disk write failure' ELSE ' all quiet' END)",
                    "FROM range(0, 1000);",
                    "DELETE FROM lake.acc.docs WHERE id = 107;",
                    "MERGE INTO lake.acc.docs t",
                    "USING (SELECT * FROM VALUES (207L, '2026-11-02', 'fixed now'),",
                    "                            (2000L, '2026-11-01', 'new disk failure') AS s(id, dt, body)) s",
                    "ON t.id = s.id AND t.dt = s.dt",
                    "WHEN MATCHED THEN UPDATE SET *",
                    "WHEN NOT MATCHED THEN INSERT *;",
                    "CALL lake.sys.compact(table => 'acc.docs');",
                    "CALL lake.sys.rebuild_pk_fulltext(table => 'acc.docs', force => true);",
                    "SET spark.sql.strata.search.driverMaxBuckets = 0;",
                    "SELECT concat_ws(',', sort_array(collect_list(id))) AS disk_ids",
                    "FROM full_text_search('lake.acc.docs', 'body', 'disk', 20);",
                    "SELECT count(*) AS disk_docs FROM lake.acc.docs WHERE text_match(body, 'disk');",
                    "SELECT count(*) AS all_docs FROM lake.acc.docs;");

    /** Checks what the script printed. */
    static void check(PackagedLauncher.Result r) {
        assertThat(r.exit()).as(r.toString()).isZero();
        String out = r.out();
        assertThat(out)
                .as(r.toString())
                .contains("Namespace lake.acc created")
                .contains("Inserted 4000 rows into lake.acc.metrics")
                .containsPattern("\\|\\s*360\\s*\\|")
                .contains("PushedMapPredicates: [m['usage'] > 90.0]")
                .contains("Inserted 1000 rows into lake.acc.docs")
                .contains("Deleted from lake.acc.docs")
                .contains("Merged into lake.acc.docs")
                .contains(DISK_IDS)
                .containsPattern("\\|\\s*9\\s*\\|")
                .containsPattern("\\|\\s*1000\\s*\\|");
        assertThat(count(out, "\\|\\s*built\\s*\\|")).as(r.toString()).isEqualTo(4);
    }

    static int count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    static List<String> args(String warehouse, String master, String... more) {
        List<String> args = new ArrayList<>(List.of("--warehouse", warehouse, "--master", master));
        args.addAll(List.of(more));
        args.add("-e");
        args.add(SCRIPT);
        return args;
    }
}
