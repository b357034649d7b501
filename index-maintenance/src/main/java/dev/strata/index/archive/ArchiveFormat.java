package dev.strata.index.archive;

import dev.strata.index.options.AnalyzerSettings;
import dev.strata.index.source.SourceMeta;
import dev.strata.shredding.io.DamagedFileException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.paimon.fs.SeekableInputStream;

/**
 * The one-file container of a full-text archive: a self-describing header followed by the files of
 * one force-merged Lucene index, closed by a checksummed footer. All integers are big-endian.
 *
 * <pre>
 * Archive     --&gt; Header, FileCount, &lt;FileEntry&gt;^FileCount, Footer
 * Header      --&gt; Magic, Version, BodyLength, HeaderBody, HeaderChecksum
 * Magic       --&gt; int32 0x53544654 ("STFT")
 * Version     --&gt; int32, 1 or 2 (2: every document stores its row's primary key, see below)
 * BodyLength  --&gt; int32, length of HeaderBody in bytes (0 &lt; BodyLength &lt;= 64 MiB)
 * HeaderBody  --&gt; TextFieldId(int32), RowCount(int64), DocCount(int64),
 *                 SourceMetaLength(int32), SourceMeta(bytes, see SourceMeta),
 *                 AnalyzerLength(int32), AnalyzerJson(UTF-8 bytes, see AnalyzerSettings#toJson)
 * HeaderChecksum --&gt; int64, CRC32 of Magic through HeaderBody
 * FileCount   --&gt; int32 (&gt; 0)
 * FileEntry   --&gt; FileName(uint16 length + modified UTF-8), FileLength(int64), Bytes(FileLength)
 * Footer      --&gt; FooterMagic(int32 = ~Magic), ContentLength(int64 = offset of the footer), Checksum
 * Checksum    --&gt; int64, CRC32 of every byte of the archive before the Checksum itself
 * </pre>
 *
 * RowCount is the number of archive row ids (the sum of the source row counts, rows with a null
 * text included); DocCount the number of Lucene documents (rows with a non-null text). Every
 * document stores its archive row id in the numeric doc-values field {@link #ROW_ID_FIELD}; the
 * text is indexed in {@link #TEXT_FIELD}. In a version 2 archive every document also stores, in the
 * binary doc-values field {@link #KEY_FIELD}, its row's primary key without the partition fields
 * (the key of Paimon's key-value files), as Paimon's {@code SerializationUtils.serializeBinaryRow}
 * writes a {@code BinaryRow}: arity (int32) followed by the row's bytes. A search can then return
 * the primary key of a hit (and, with the bucket's partition, any primary-key column) without
 * reading the data file. Version 1 archives carry no keys; they stay readable and their hits' keys
 * are read from the data files. Readers check magic, version, lengths and the header checksum
 * before trusting the header, and the full checksum before trusting the index.
 */
public final class ArchiveFormat {

    public static final int MAGIC = 0x53544654;
    public static final int FOOTER_MAGIC = ~MAGIC;

    /** The version written for archives that store primary keys, the current one. */
    public static final int VERSION = 2;

    /** The version of archives without stored primary keys (still written for key-less sources). */
    public static final int VERSION_WITHOUT_KEYS = 1;

    /** Lucene field holding the analyzed text. */
    public static final String TEXT_FIELD = "text";

    /** Lucene numeric doc-values field holding the archive row id. */
    public static final String ROW_ID_FIELD = "_row_id";

    /** Lucene binary doc-values field holding the row's serialized primary key (version 2). */
    public static final String KEY_FIELD = "_key";

    static final int PREAMBLE_LENGTH = 12;
    static final int FOOTER_LENGTH = 20;
    static final int MAX_BODY_LENGTH = 64 << 20;

    private ArchiveFormat() {}

    /**
     * Writes the archive of {@code dir}'s files to {@code out}, returning the number of bytes
     * written.
     */
    static long write(ArchiveHeader header, Directory dir, OutputStream raw) throws IOException {
        OutputStream out = new java.io.BufferedOutputStream(raw, 1 << 16);
        CRC32 crc = new CRC32();
        CountingCrcOutput counted = new CountingCrcOutput(out, crc);
        DataOutputStream data = new DataOutputStream(counted);
        byte[] body = headerBody(header);
        int version = header.keyed() ? VERSION : VERSION_WITHOUT_KEYS;
        data.writeInt(MAGIC);
        data.writeInt(version);
        data.writeInt(body.length);
        data.write(body);
        CRC32 headerCrc = new CRC32();
        ByteArrayOutputStream pre = new ByteArrayOutputStream();
        DataOutputStream preData = new DataOutputStream(pre);
        preData.writeInt(MAGIC);
        preData.writeInt(version);
        preData.writeInt(body.length);
        preData.write(body);
        headerCrc.update(pre.toByteArray());
        data.writeLong(headerCrc.getValue());
        String[] names = dir.listAll();
        Arrays.sort(names);
        int count = 0;
        for (String name : names) {
            if (!name.equals("write.lock")) {
                count++;
            }
        }
        data.writeInt(count);
        byte[] buffer = new byte[64 * 1024];
        for (String name : names) {
            if (name.equals("write.lock")) {
                continue;
            }
            long length = dir.fileLength(name);
            data.writeUTF(name);
            data.writeLong(length);
            try (IndexInput in = dir.openInput(name, IOContext.READONCE)) {
                long left = length;
                while (left > 0) {
                    int n = (int) Math.min(buffer.length, left);
                    in.readBytes(buffer, 0, n);
                    data.write(buffer, 0, n);
                    left -= n;
                }
            }
        }
        data.flush();
        long contentLength = counted.count;
        data.writeInt(FOOTER_MAGIC);
        data.writeLong(contentLength);
        data.flush();
        long checksum = crc.getValue();
        // The checksum itself is not part of what it covers.
        DataOutputStream tail = new DataOutputStream(out);
        tail.writeLong(checksum);
        tail.flush();
        out.flush();
        return counted.count + 8;
    }

    private static byte[] headerBody(ArchiveHeader header) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(header.textFieldId());
        out.writeLong(header.rowCount());
        out.writeLong(header.docCount());
        byte[] source = header.sourceMeta().serialize();
        out.writeInt(source.length);
        out.write(source);
        byte[] analyzer = header.analyzer().toJson().getBytes(StandardCharsets.UTF_8);
        out.writeInt(analyzer.length);
        out.write(analyzer);
        out.flush();
        return bytes.toByteArray();
    }

    /** Reads and checks the header (magic, version, lengths, header checksum) and the footer. */
    static ParsedHeader readHeader(String file, SeekableInputStream in, long fileLength)
            throws IOException {
        if (fileLength < PREAMBLE_LENGTH + 8 + 4 + FOOTER_LENGTH) {
            throw new DamagedFileException(
                    file,
                    "file too short",
                    ">= " + (PREAMBLE_LENGTH + 8 + 4 + FOOTER_LENGTH) + " bytes",
                    fileLength + " bytes");
        }
        byte[] preamble = readAt(file, in, 0, PREAMBLE_LENGTH);
        DataInputStream pre = new DataInputStream(new ByteArrayInputStream(preamble));
        int magic = pre.readInt();
        if (magic != MAGIC) {
            throw new DamagedFileException(file, "wrong magic", hex(MAGIC), hex(magic));
        }
        int version = pre.readInt();
        if (version != VERSION && version != VERSION_WITHOUT_KEYS) {
            throw new DamagedFileException(
                    file,
                    "unsupported archive version",
                    VERSION_WITHOUT_KEYS + " or " + VERSION,
                    version);
        }
        int bodyLength = pre.readInt();
        if (bodyLength <= 0
                || bodyLength > MAX_BODY_LENGTH
                || PREAMBLE_LENGTH + (long) bodyLength + 8 + 4 + FOOTER_LENGTH > fileLength) {
            throw new DamagedFileException(
                    file,
                    "header length",
                    "1.."
                            + Math.min(
                                    MAX_BODY_LENGTH,
                                    fileLength - PREAMBLE_LENGTH - 8 - 4 - FOOTER_LENGTH),
                    bodyLength);
        }
        byte[] bodyAndCrc = readAt(file, in, PREAMBLE_LENGTH, bodyLength + 8);
        CRC32 crc = new CRC32();
        crc.update(preamble);
        crc.update(bodyAndCrc, 0, bodyLength);
        long stored =
                new DataInputStream(new ByteArrayInputStream(bodyAndCrc, bodyLength, 8)).readLong();
        if (stored != crc.getValue()) {
            throw new DamagedFileException(
                    file, "header checksum", hex(stored), hex(crc.getValue()));
        }
        readFooter(file, in, fileLength);
        ArchiveHeader header;
        try {
            DataInputStream body =
                    new DataInputStream(new ByteArrayInputStream(bodyAndCrc, 0, bodyLength));
            int fieldId = body.readInt();
            long rows = body.readLong();
            long docs = body.readLong();
            byte[] source =
                    new byte
                            [lengthField(
                                    file,
                                    body.readInt(),
                                    body.available(),
                                    "source metadata length")];
            body.readFully(source);
            byte[] analyzer =
                    new byte
                            [lengthField(
                                    file,
                                    body.readInt(),
                                    body.available(),
                                    "analyzer settings length")];
            body.readFully(analyzer);
            if (body.available() != 0) {
                throw new DamagedFileException(
                        file, "header body trailing bytes", 0, body.available());
            }
            header =
                    new ArchiveHeader(
                            fieldId,
                            SourceMeta.deserialize(source),
                            AnalyzerSettings.fromJson(new String(analyzer, StandardCharsets.UTF_8)),
                            rows,
                            docs,
                            version == VERSION);
        } catch (IllegalArgumentException | EOFException e) {
            throw new DamagedFileException(file, "unreadable header body", e);
        }
        return new ParsedHeader(header, PREAMBLE_LENGTH + (long) bodyLength + 8);
    }

    private static int lengthField(String file, int length, int available, String what)
            throws DamagedFileException {
        if (length < 0 || length > available) {
            throw new DamagedFileException(file, what, "0.." + available, length);
        }
        return length;
    }

    /** Checks the footer (magic, content length) and returns the whole-file checksum it stores. */
    static long readFooter(String file, SeekableInputStream in, long fileLength)
            throws IOException {
        if (fileLength < FOOTER_LENGTH) {
            throw new DamagedFileException(
                    file,
                    "file too short for its footer",
                    ">= " + FOOTER_LENGTH + " bytes",
                    fileLength + " bytes");
        }
        byte[] footer = readAt(file, in, fileLength - FOOTER_LENGTH, FOOTER_LENGTH);
        DataInputStream f = new DataInputStream(new ByteArrayInputStream(footer));
        int magic = f.readInt();
        if (magic != FOOTER_MAGIC) {
            throw new DamagedFileException(
                    file, "wrong footer magic", hex(FOOTER_MAGIC), hex(magic));
        }
        long contentLength = f.readLong();
        if (contentLength != fileLength - FOOTER_LENGTH) {
            throw new DamagedFileException(
                    file, "content length", fileLength - FOOTER_LENGTH, contentLength);
        }
        return f.readLong();
    }

    /** Streams the whole file and compares its CRC32 to the footer's checksum. */
    static void verifyChecksum(String file, SeekableInputStream in, long fileLength)
            throws IOException {
        long stored = readFooter(file, in, fileLength);
        CRC32 crc = new CRC32();
        in.seek(0);
        byte[] buffer = new byte[256 * 1024];
        long left = fileLength - 8;
        while (left > 0) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (n < 0) {
                throw new DamagedFileException(
                        file,
                        "file ended early",
                        fileLength + " bytes",
                        (fileLength - 8 - left) + " bytes");
            }
            crc.update(buffer, 0, n);
            left -= n;
        }
        if (crc.getValue() != stored) {
            throw new DamagedFileException(
                    file, "checksum failed", hex(stored), hex(crc.getValue()));
        }
    }

    /** The packed files: name to {offset, length}, in archive order. */
    static Map<String, long[]> readFileTable(
            String file, SeekableInputStream in, long headerEnd, long fileLength)
            throws IOException {
        long limit = fileLength - FOOTER_LENGTH;
        long pos = headerEnd;
        int count =
                new DataInputStream(new ByteArrayInputStream(readAt(file, in, pos, 4))).readInt();
        pos += 4;
        if (count <= 0 || count > (limit - pos) / 10) {
            throw new DamagedFileException(
                    file, "packed file count", "1.." + Math.max(1, (limit - pos) / 10), count);
        }
        Map<String, long[]> files = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            if (pos + 2 > limit) {
                throw new DamagedFileException(
                        file, "packed file entry " + i + " offset", "<= " + (limit - 2), pos);
            }
            int nameLength =
                    new DataInputStream(new ByteArrayInputStream(readAt(file, in, pos, 2)))
                            .readUnsignedShort();
            if (pos + 2 + nameLength + 8 > limit) {
                throw new DamagedFileException(
                        file,
                        "packed file entry " + i + " name length",
                        "<= " + (limit - pos - 10),
                        nameLength);
            }
            byte[] entry = readAt(file, in, pos, 2 + nameLength + 8);
            DataInputStream e = new DataInputStream(new ByteArrayInputStream(entry));
            String name;
            try {
                name = e.readUTF();
            } catch (IOException ex) {
                throw new DamagedFileException(file, "packed file entry " + i + " name", ex);
            }
            long length = e.readLong();
            long dataStart = pos + 2 + nameLength + 8;
            if (length < 0 || length > limit - dataStart) {
                throw new DamagedFileException(
                        file,
                        "packed file '" + name + "' length",
                        "0.." + (limit - dataStart),
                        length);
            }
            if (files.put(name, new long[] {dataStart, length}) != null) {
                throw new DamagedFileException(
                        file, "packed file names", "unique", name + " twice");
            }
            pos = dataStart + length;
        }
        if (pos != limit) {
            throw new DamagedFileException(file, "end of packed files", limit, pos);
        }
        return files;
    }

    private static byte[] readAt(String file, SeekableInputStream in, long offset, int length)
            throws IOException {
        byte[] bytes = new byte[length];
        in.seek(offset);
        int done = 0;
        while (done < length) {
            int n = in.read(bytes, done, length - done);
            if (n < 0) {
                throw new DamagedFileException(
                        file,
                        "file ended early at offset " + offset,
                        length + " bytes",
                        done + " bytes");
            }
            done += n;
        }
        return bytes;
    }

    private static String hex(long v) {
        return "0x" + Long.toHexString(v);
    }

    private static String hex(int v) {
        return "0x" + Integer.toHexString(v);
    }

    /** A checked header and the offset right after it. */
    static final class ParsedHeader {
        final ArchiveHeader header;
        final long end;

        ParsedHeader(ArchiveHeader header, long end) {
            this.header = header;
            this.end = end;
        }
    }

    private static final class CountingCrcOutput extends OutputStream {
        private final OutputStream out;
        private final CRC32 crc;
        long count;

        CountingCrcOutput(OutputStream out, CRC32 crc) {
            this.out = out;
            this.crc = crc;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            crc.update(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            crc.update(b, off, len);
            count += len;
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }
    }
}
