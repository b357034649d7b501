package dev.strata.index.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.Arrays;
import java.util.Collections;
import org.junit.jupiter.api.Test;

class SourceMetaTest {

    @Test
    void serializedFormStartsWithVersionOne() throws Exception {
        byte[] bytes =
                new SourceMeta(1, Collections.singletonList(new SourceFile("data-1", 10)))
                        .serialize();
        assertThat(new DataInputStream(new ByteArrayInputStream(bytes)).readInt()).isEqualTo(1);
    }

    @Test
    void serializesByteForByteAsDataOutput() throws Exception {
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(expected);
        out.writeInt(1);
        out.writeInt(4);
        out.writeInt(2);
        out.writeUTF("data-a");
        out.writeLong(10);
        out.writeUTF("dätä\u0000-b");
        out.writeLong(0);
        SourceMeta meta =
                new SourceMeta(
                        4,
                        Arrays.asList(
                                new SourceFile("data-a", 10), new SourceFile("dätä\u0000-b", 0)));
        assertThat(meta.serialize()).isEqualTo(expected.toByteArray());
        // The NUL character is written as C0 80 (modified UTF-8), as the reference format demands.
        assertThat(meta.serialize()).containsSequence((byte) 0xC0, (byte) 0x80);
    }

    @Test
    void roundTripKeepsLevelAndSources() {
        SourceMeta meta =
                new SourceMeta(3, Collections.singletonList(new SourceFile("data-1", 10)));
        SourceMeta back = SourceMeta.deserialize(meta.serialize());
        assertThat(back.dataLevel()).isEqualTo(3);
        assertThat(back.sourceFiles()).containsExactly(new SourceFile("data-1", 10));
        assertThat(back).isEqualTo(meta);
    }

    @Test
    void rejectsNonPositiveLevel() {
        assertThatThrownBy(
                        () -> new SourceMeta(0, Collections.singletonList(new SourceFile("d", 1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("data level must be positive");
    }

    @Test
    void twoSourcesRoundTripAndSingleSourceAccessorDemandsOne() {
        SourceMeta meta =
                new SourceMeta(
                        2, Arrays.asList(new SourceFile("data-1", 1), new SourceFile("data-2", 2)));
        assertThat(SourceMeta.deserialize(meta.serialize())).isEqualTo(meta);
        assertThatThrownBy(meta::sourceFile)
                .hasMessageContaining("Expected exactly one source file");
    }

    @Test
    void zeroRowSourceRoundTrips() {
        SourceMeta meta = new SourceMeta(1, Collections.singletonList(new SourceFile("empty", 0)));
        assertThat(SourceMeta.deserialize(meta.serialize()).sourceFile().rowCount()).isZero();
    }

    @Test
    void rejectsNegativeRowCount() {
        assertThatThrownBy(() -> new SourceFile("x", -1))
                .hasMessageContaining("row count must not be negative");
    }

    @Test
    void rejectsUnknownVersion() throws Exception {
        byte[] bytes =
                new SourceMeta(1, Collections.singletonList(new SourceFile("d", 1))).serialize();
        bytes[3] = 2;
        assertThatThrownBy(() -> SourceMeta.deserialize(bytes))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Unsupported index source version: 2");
    }

    @Test
    void rejectsHugeCountBeforeAllocating() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(1);
        out.writeInt(1);
        out.writeInt(Integer.MAX_VALUE);
        assertThatThrownBy(() -> SourceMeta.deserialize(bytes.toByteArray()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("source file count")
                .hasMessageContaining("exceeds the maximum");
    }

    @Test
    void rejectsTruncatedAndTrailingBytes() {
        byte[] bytes =
                new SourceMeta(1, Collections.singletonList(new SourceFile("data-1", 7)))
                        .serialize();
        byte[] truncated = Arrays.copyOf(bytes, bytes.length - 4);
        assertThatThrownBy(() -> SourceMeta.deserialize(truncated))
                .hasMessageContaining("Failed to deserialize index source metadata");
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
        assertThatThrownBy(() -> SourceMeta.deserialize(longer))
                .hasMessageContaining("Unexpected trailing bytes in index source metadata");
    }
}
