package dev.strata.shredding.layout;

import java.util.zip.CRC32;

/**
 * Test helper: edits of an encoded footer blob that keep its checksum valid, to reach the decoder's
 * later checks.
 */
public final class FooterBlobs {

    private FooterBlobs() {}

    /** Rewrites the trailing big-endian CRC32 of {@code blob} to match its other bytes. */
    public static void rechecksum(byte[] blob) {
        CRC32 crc = new CRC32();
        crc.update(blob, 0, blob.length - 4);
        int c = (int) crc.getValue();
        blob[blob.length - 4] = (byte) (c >>> 24);
        blob[blob.length - 3] = (byte) (c >>> 16);
        blob[blob.length - 2] = (byte) (c >>> 8);
        blob[blob.length - 1] = (byte) c;
    }
}
