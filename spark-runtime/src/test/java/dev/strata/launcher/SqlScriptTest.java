package dev.strata.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SqlScriptTest {

    @Test
    void splitsAtSemicolonsOutsideQuotesAndComments() {
        String script =
                "CREATE NAMESPACE lake.a;\n"
                        + "-- a comment; with a semicolon\n"
                        + "INSERT INTO t VALUES ('x;y', \"q;\", 'it''s');  /* block; comment */ SELECT `odd;name` FROM t;;\n"
                        + "SELECT 1";
        assertThat(SqlScript.split(script))
                .containsExactly(
                        "CREATE NAMESPACE lake.a",
                        "INSERT INTO t VALUES ('x;y', \"q;\", 'it''s')",
                        "SELECT `odd;name` FROM t",
                        "SELECT 1");
    }

    @Test
    void knowsWhenAnInteractiveStatementIsComplete() {
        assertThat(SqlScript.complete("SELECT 1")).isFalse();
        assertThat(SqlScript.complete("SELECT 1;")).isTrue();
        assertThat(SqlScript.complete("SELECT ';")).isFalse();
        assertThat(SqlScript.complete("SELECT ';';  ")).isTrue();
        assertThat(SqlScript.complete("SELECT 1; -- done")).isTrue();
        assertThat(SqlScript.complete("   ")).isFalse();
    }
}
