package dev.strata.shredding.format;

import dev.strata.shredding.ShreddingOptions;
import org.apache.paimon.format.FileFormat;
import org.apache.paimon.format.FileFormatFactory;

/**
 * Registers the shredded Parquet format with Paimon (through {@code
 * META-INF/services/org.apache.paimon.format.FileFormatFactory}) under the identifier {@value
 * ShreddingOptions#FORMAT_IDENTIFIER}, which is also the data files' extension.
 */
public final class ShreddedFileFormatFactory implements FileFormatFactory {

    @Override
    public String identifier() {
        return ShreddingOptions.FORMAT_IDENTIFIER;
    }

    @Override
    public FileFormat create(FormatContext formatContext) {
        return new ShreddedFileFormat(formatContext);
    }
}
