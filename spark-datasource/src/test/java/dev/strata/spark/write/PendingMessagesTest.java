package dev.strata.spark.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.List;
import java.util.zip.CRC32;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pending-messages marker: a damaged or foreign marker is refused naming the file and why. */
class PendingMessagesTest {

    @TempDir java.nio.file.Path tmp;

    private java.nio.file.Path writeMarker() throws IOException {
        PendingMessages pending =
                new PendingMessages(LocalFileIO.create(), new Path(tmp.toUri().toString(), "job"));
        pending.record("0-1", List.of());
        assertThat(pending.read()).isEmpty();
        return tmp.resolve("job").resolve("0-1.msgs");
    }

    private static PendingMessages reader(java.nio.file.Path marker) {
        return new PendingMessages(
                LocalFileIO.create(), new Path(marker.getParent().toUri().toString()));
    }

    @Test
    void aFlippedByteFailsTheChecksumNamingTheMarker() throws IOException {
        java.nio.file.Path marker = writeMarker();
        byte[] bytes = Files.readAllBytes(marker);
        bytes[13] ^= 0x01; // inside the message count
        Files.write(marker, bytes);
        assertThatThrownBy(() -> reader(marker).read())
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Cannot read the pending commit messages in")
                .hasMessageContaining("0-1.msgs")
                .hasMessageContaining("checksum");
    }

    @Test
    void aTruncatedMarkerIsRefused() throws IOException {
        java.nio.file.Path marker = writeMarker();
        byte[] bytes = Files.readAllBytes(marker);
        Files.write(marker, java.util.Arrays.copyOf(bytes, 10));
        assertThatThrownBy(() -> reader(marker).read())
                .isInstanceOf(IOException.class)
                .hasMessageContaining("0-1.msgs")
                .hasMessageContaining("fewer than a marker's header");
    }

    @Test
    void aNewerFormatVersionIsRefusedByVersion() throws IOException {
        java.nio.file.Path marker = writeMarker();
        byte[] bytes = Files.readAllBytes(marker);
        ByteBuffer.wrap(bytes).putInt(4, 2);
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, bytes.length - 8);
        ByteBuffer.wrap(bytes).putLong(bytes.length - 8, crc.getValue());
        Files.write(marker, bytes);
        assertThatThrownBy(() -> reader(marker).read())
                .isInstanceOf(IOException.class)
                .hasMessageContaining("0-1.msgs")
                .hasMessageContaining("format version is 2");
    }
}
