package dev.strata.shredding.parquet;

import com.github.luben.zstd.Zstd;
import java.io.IOException;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Compresses each page as one zstd frame of known size ({@code ZSTD_compress}), where
 * parquet-hadoop's codec streams every page through a {@code ZstdOutputStream}. The frame format is
 * the same (any Parquet reader reads it), but zstd chooses its match-finder parameters from the
 * input size only when it knows it; streaming at low levels uses parameters for unbounded input,
 * which find few matches in a page of DOUBLE values.
 */
final class ZstdPageCompressor implements CompressionCodecFactory.BytesInputCompressor {

    private final int level;

    ZstdPageCompressor(int level) {
        this.level = level;
    }

    @Override
    public BytesInput compress(BytesInput bytes) throws IOException {
        byte[] page = bytes.toByteArray();
        byte[] frame = Zstd.compress(page, level);
        return BytesInput.from(frame);
    }

    @Override
    public CompressionCodecName getCodecName() {
        return CompressionCodecName.ZSTD;
    }

    @Override
    public void release() {}
}
