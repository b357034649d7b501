package dev.strata.shredding.format;

import org.apache.paimon.CoreOptions;
import org.apache.paimon.format.FileFormat;
import org.apache.paimon.format.FileFormatFactory;

/**
 * Registers {@link StrataParquetFileFormat} with Paimon under the identifier {@code parquet}, so
 * tables keep {@code file.format = parquet} and Paimon-compatible {@code .parquet} data files while
 * Strata writes and reads the shared-shredding layout in them.
 *
 * <p>Why this wins over Paimon's own {@code parquet} factory: Paimon's {@code FormatFactoryUtil}
 * loads every {@link FileFormatFactory} with {@link java.util.ServiceLoader} and takes the first
 * one whose identifier matches. ServiceLoader reads the {@code META-INF/services} files in
 * class-path order, and the lines of one file in order. On a cluster, Strata's runtime jar is the
 * only jar holding Paimon, and its merged services file lists Strata's factories before Paimon's
 * (the shade plugin appends the service files of the shaded artifacts in dependency order, and
 * {@code strata-shredding} comes before {@code paimon-bundle}); in a Maven build the module jars
 * come before {@code paimon-bundle} on the class path for the same reason. Any other arrangement
 * (another Paimon jar placed before Strata's) is detected by {@link #checkResolved()}, which the
 * catalog calls when it starts, instead of silently writing unshredded files.
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

    /**
     * Throws unless Paimon resolves {@code parquet} to this factory in this JVM, naming the factory
     * and the jar it resolved to.
     */
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
