package dev.strata.shredding.format;

import org.apache.paimon.CoreOptions;
import org.apache.paimon.format.FileFormat;
import org.apache.paimon.format.FileFormatFactory;

/**
 * Registers {@link StrataParquetFileFormat} with Paimon under the identifier {@code parquet}, so
 * tables keep {@code file.format = parquet} and {@code .parquet} data files while Strata writes and
 * reads the shared-shredding layout in them.
 *
 * <p>Paimon's {@code FormatFactoryUtil} takes the first {@link FileFormatFactory} from {@link
 * java.util.ServiceLoader} whose identifier matches. Strata's runtime jar lists Strata's factories
 * before Paimon's in its merged services file (the shade plugin appends service files in dependency
 * order), and in a Maven build the module jars come before {@code paimon-bundle} on the class path.
 * Any other arrangement is caught by {@link #checkResolved()}, which the catalog calls at start.
 */
public final class StrataParquetFileFormatFactory implements FileFormatFactory {

    @Override
    public String identifier() {
        return CoreOptions.FILE_FORMAT_PARQUET;
    }

    @Override
    public FileFormat create(FormatContext formatContext) {
        return new StrataParquetFileFormat(formatContext);
    }

    /** Throws, naming the jar, unless Paimon resolves {@code parquet} to this factory here. */
    public static void checkResolved() {
        FileFormat f =
                FileFormat.fromIdentifier(
                        CoreOptions.FILE_FORMAT_PARQUET, new org.apache.paimon.options.Options());
        if (!(f instanceof StrataParquetFileFormat)) {
            java.security.CodeSource src = f.getClass().getProtectionDomain().getCodeSource();
            throw new IllegalStateException(
                    "Cannot serve shared-shredding MAP columns: Paimon resolves file format '"
                            + CoreOptions.FILE_FORMAT_PARQUET
                            + "' to "
                            + f.getClass().getName()
                            + " from "
                            + (src == null ? "an unknown location" : src.getLocation())
                            + " instead of Strata's "
                            + StrataParquetFileFormat.class.getName()
                            + ". Put Strata's runtime jar before any other Paimon jar"
                            + " on the class path (or remove the other Paimon jar).");
        }
    }
}
