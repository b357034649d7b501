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
 * Base of Strata's procedures: a fixed parameter list (so binding is trivial), a run that returns
 * one result set, and helpers to read arguments. Spark delivers named and positional arguments in
 * parameter order, with defaults filled in.
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
     * This procedure as the catalog hands it to Spark: a separate unbound object, bound to this one
     * when Spark binds the call. Spark binds (and fills in the defaults of named arguments) only
     * once every argument is resolved, but runs a procedure that is already bound as soon as the
     * call is resolved; were this object both, a call whose arguments resolve late (an expression
     * rather than a literal) would run with the defaults missing and fail with "number of args and
     * params must match after binding".
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

    /** Times a procedure plans its work again after other writers made it obsolete. */
    static final int MAX_ATTEMPTS = 5;

    /**
     * Runs {@code attempt} until it returns, planning it again from the latest snapshot when it
     * fails with {@code obsolete} (other writers changed what it worked on, so it committed
     * nothing), at most {@link #MAX_ATTEMPTS} times, then fails with {@code givingUp} (given the
     * last such failure and the attempts made). Every failure leaves explained in terms of the
     * table: Paimon's errors for a damaged snapshot, manifest, index or data file rarely name the
     * file.
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
