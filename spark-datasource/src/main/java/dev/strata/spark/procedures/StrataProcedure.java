package dev.strata.spark.procedures;

import dev.strata.spark.catalog.TableDiagnosis;
import java.util.Iterator;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.BoundProcedure;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructType;

/**
 * Base of Strata's procedures: a fixed parameter list and one result set. Spark delivers arguments
 * in parameter order, with defaults filled in.
 */
abstract class StrataProcedure implements BoundProcedure {

    private final TableResolver catalog;
    private final String name;
    private final String description;

    StrataProcedure(TableResolver catalog, String name, String description) {
        this.catalog = catalog;
        this.name = name;
        this.description = description;
    }

    TableResolver catalog() {
        return catalog;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return description;
    }

    /**
     * A separate unbound object: Spark fills in defaults only when binding, after all arguments
     * resolve, but runs an already-bound procedure as soon as the call resolves, so a
     * late-resolving argument would run without defaults and fail.
     */
    UnboundProcedure unbound() {
        StrataProcedure bound = this;
        return new UnboundProcedure() {
            @Override
            public String name() {
                return bound.name();
            }

            @Override
            public String description() {
                return bound.description();
            }

            @Override
            public BoundProcedure bind(StructType inputType) {
                return bound;
            }
        };
    }

    @Override
    public boolean isDeterministic() {
        return false;
    }

    @Override
    public abstract ProcedureParameter[] parameters();

    abstract Scan run(InternalRow args);

    @Override
    public Iterator<Scan> call(InternalRow input) {
        return List.of(run(input)).iterator();
    }

    /** Replans after other writers made the work obsolete. */
    static final int MAX_ATTEMPTS = 5;

    /**
     * Replans {@code attempt} from the latest snapshot while it fails with {@code obsolete} (it
     * committed nothing), at most {@link #MAX_ATTEMPTS} times. Failures are explained in terms of
     * the table, since Paimon's errors rarely name the damaged file.
     */
    static <E extends RuntimeException> Scan attempts(
            ProcedureTable target,
            String action,
            Class<E> obsolete,
            Supplier<Scan> attempt,
            BiFunction<E, Integer, RuntimeException> givingUp) {
        try {
            for (int n = 1; ; n++) {
                try {
                    return attempt.get();
                } catch (RuntimeException e) {
                    if (!obsolete.isInstance(e)) {
                        throw e;
                    }
                    if (n >= MAX_ATTEMPTS) {
                        throw givingUp.apply(obsolete.cast(e), n);
                    }
                }
            }
        } catch (RuntimeException e) {
            throw TableDiagnosis.explain(target.name(), target.table(), action, e);
        }
    }

    static String stringArg(InternalRow args, int pos) {
        return args.isNullAt(pos) ? null : args.getUTF8String(pos).toString();
    }

    static Scan result(StructType schema, List<InternalRow> rows) {
        InternalRow[] array = rows.toArray(new InternalRow[0]);
        return new LocalScan() {
            @Override
            public InternalRow[] rows() {
                return array;
            }

            @Override
            public StructType readSchema() {
                return schema;
            }

            @Override
            public String description() {
                return "Strata procedure result (" + array.length + " rows)";
            }
        };
    }
}
