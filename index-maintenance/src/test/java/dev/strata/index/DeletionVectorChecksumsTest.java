package dev.strata.index;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.shredding.io.DamagedFileException;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.paimon.deletionvectors.Bitmap64DeletionVector;
import org.apache.paimon.deletionvectors.BitmapDeletionVector;
import org.apache.paimon.deletionvectors.DeletionVector;
import org.apache.paimon.deletionvectors.DeletionVectorsIndexFile;
import org.junit.jupiter.api.Test;

/**
 * A deletion-vector file laid out as Paimon's writer lays it out (version byte, then each vector's
 * own serialization): intact it passes, and any one flipped byte, anywhere, is reported.
 */
class DeletionVectorChecksumsTest {

    private static final String FILE = "file:/wh/db.db/t/index/index-x-0";

    /** A 32-bit and a 64-bit bitmap, as Paimon's DeletionFileWriter writes them. */
    private static byte[] file(List<DeletionVectorChecksums.Range> ranges) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeByte(DeletionVectorsIndexFile.VERSION_ID_V1);
        DeletionVector small = new BitmapDeletionVector();
        DeletionVector wide = new Bitmap64DeletionVector();
        for (int i = 0; i < 300; i += 3) {
            small.delete(i);
            wide.delete(i * 7L);
        }
        int start = out.size();
        ranges.add(new DeletionVectorChecksums.Range("a", start, small.serializeTo(out)));
        start = out.size();
        ranges.add(new DeletionVectorChecksums.Range("b", start, wide.serializeTo(out)));
        out.flush();
        return bytes.toByteArray();
    }

    @Test
    void intactFilePasses() throws Exception {
        List<DeletionVectorChecksums.Range> ranges = new ArrayList<>();
        byte[] bytes = file(ranges);
        assertThatCode(
                        () ->
                                DeletionVectorChecksums.check(
                                        FILE, bytes, (long) bytes.length, ranges))
                .doesNotThrowAnyException();
    }

    @Test
    void everyFlippedByteIsReportedNamingTheFile() throws Exception {
        List<DeletionVectorChecksums.Range> ranges = new ArrayList<>();
        byte[] good = file(ranges);
        for (int i = 0; i < good.length; i++) {
            byte[] bytes = good.clone();
            bytes[i] ^= 0x10;
            int at = i;
            assertThatThrownBy(
                            () ->
                                    DeletionVectorChecksums.check(
                                            FILE, bytes, (long) bytes.length, ranges))
                    .as("byte %d of %d flipped", at, good.length)
                    .isInstanceOf(DamagedFileException.class)
                    .hasMessageStartingWith("Cannot read " + FILE + ": deletion vectors: ")
                    .hasMessageEndingWith(
                            "The file is damaged; restore it or rewrite the table from a good copy.");
        }
    }

    @Test
    void lengthDifferingFromTheManifestIsReported() throws Exception {
        List<DeletionVectorChecksums.Range> ranges = new ArrayList<>();
        byte[] bytes = file(ranges);
        assertThatThrownBy(
                        () -> DeletionVectorChecksums.check(FILE, bytes, bytes.length + 1L, ranges))
                .isInstanceOf(DamagedFileException.class)
                .hasMessageContaining(
                        "the file has "
                                + bytes.length
                                + " bytes, the index manifest records "
                                + (bytes.length + 1));
    }
}
