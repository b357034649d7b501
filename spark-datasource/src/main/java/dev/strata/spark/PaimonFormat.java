package dev.strata.spark;

import java.util.Map;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The format name {@code paimon} for Spark's DataFrame API: {@code
 * df.write.format("paimon").saveAsTable("lake.db.t")} names the provider a Strata catalog creates
 * (Spark resolves the name before it asks the catalog, and without a format it passes {@code
 * spark.sql.sources.default}, parquet). Tables are read and written through a catalog only: a path
 * given to {@code load} or {@code save} is refused, naming what to write instead.
 */
public class PaimonFormat implements DataSourceRegister, TableProvider {

    @Override
    public String shortName() {
        return "paimon";
    }

    @Override
    public StructType inferSchema(CaseInsensitiveStringMap options) {
        throw byPath(options.get("path"));
    }

    @Override
    public Table getTable(
            StructType schema, Transform[] partitioning, Map<String, String> properties) {
        throw byPath(properties.get("path"));
    }

    private IllegalArgumentException byPath(String path) {
        return new IllegalArgumentException(
                String.format(
                        "Cannot read or write %s through format(\"%s\"): Strata reads and writes"
                                + " Paimon tables through a catalog, not by path. Register one"
                                + " (spark.sql.catalog.lake = %s, spark.sql.catalog.lake.warehouse ="
                                + " <directory or URI>) and use spark.table(\"lake.db.t\"),"
                                + " df.writeTo(\"lake.db.t\") or saveAsTable(\"lake.db.t\").",
                        path == null ? "a table" : "'" + path + "'",
                        shortName(),
                        StrataCatalog.class.getName()));
    }

    /**
     * The same, under the name {@code strata}, which {@code CREATE TABLE ... USING} accepts too.
     */
    public static final class Strata extends PaimonFormat {
        @Override
        public String shortName() {
            return "strata";
        }
    }
}
