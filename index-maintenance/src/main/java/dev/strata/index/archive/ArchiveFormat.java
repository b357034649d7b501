package dev.strata.index.archive;

import dev.strata.index.options.AnalyzerSettings;
import dev.strata.index.source.SourceMeta;
import dev.strata.shredding.io.DamagedFileException;
import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.IndexFormatTooNewException;
import org.apache.lucene.index.IndexFormatTooOldException;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.BufferedChecksumIndexInput;
import org.apache.lucene.store.ByteBuffersDataOutput;
import org.apache.lucene.store.ChecksumIndexInput;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.util.StringHelper;

/**
 * The one-file container of a full-text archive: the files of one committed, force-merged Lucene
 * index behind a head that describes the archive, framed and checksummed with Lucene's {@link
 * CodecUtil} as Lucene's compound format ({@code Lucene90CompoundFormat}) frames its {@code .cfe}
 * and {@code .cfs} files, but in one file, because Paimon records one file per index entry.
 *
 * <ul>
 *   <li>Archive --&gt; Head, FileData <sup>FileCount</sup>, Footer
 *   <li>Head --&gt; Header, HeadLength, Metadata, FileCount, &lt;FileName, FileLength&gt;
 *       <sup>FileCount</sup>, HeadFooter
 *   <li>Header --&gt; {@link CodecUtil#writeIndexHeader IndexHeader}: codec {@value #CODEC},
 *       version {@value #VERSION_CURRENT}, the id of the packed Lucene commit ({@link
 *       SegmentInfos#getId}, checked against the commit Lucene opens), suffix "" (one archive per
 *       file: nothing to tell apart)
 *   <li>HeadLength --&gt; {@link org.apache.lucene.store.DataOutput#writeLong Int64}: bytes of the
 *       Head, Header and HeadFooter included
 *   <li>Metadata --&gt; TextFieldId ({@link org.apache.lucene.store.DataOutput#writeInt Int32}),
 *       RowCount, DocCount ({@link org.apache.lucene.store.DataOutput#writeVLong VLong}),
 *       SourceMetaLength ({@link org.apache.lucene.store.DataOutput#writeVInt VInt}), SourceMeta
 *       (bytes of {@link SourceMeta#serialize}), Analyzer ({@link
 *       org.apache.lucene.store.DataOutput#writeString String}, {@link AnalyzerSettings#toJson})
 *   <li>FileCount --&gt; VInt (&gt; 0); FileName --&gt; String; FileLength --&gt; VLong
 *   <li>HeadFooter --&gt; {@link CodecUtil#writeFooter CodecFooter}: CRC32 of the Head bytes before
 *       it
 *   <li>FileData --&gt; one Lucene index file, its own header and footer included; the files follow
 *       the Head back to back, in entry order
 *   <li>Footer --&gt; {@link CodecUtil#writeFooter CodecFooter}: CRC32 of every byte before it
 * </ul>
 *
 * RowCount is the number of archive row ids (the sum of the source row counts, rows with a null
 * text included); DocCount the number of Lucene documents (rows with a non-null text). Every
 * document stores its archive row id in the numeric doc-values field {@link #ROW_ID_FIELD} and its
 * row's primary key without the partition fields (the key of Paimon's key-value files) in the
 * binary doc-values field {@link #KEY_FIELD}, as Paimon's {@code
 * SerializationUtils.serializeBinaryRow} writes a {@code BinaryRow}; the text is indexed in {@link
 * #TEXT_FIELD}.
 *
 * <p>Opening an archive ({@link #readHead}) checks only what is cheap, as Lucene's compound reader
 * does: the header, the footer's structure and the whole Head (small, and it decides what is read);
 * Lucene checks each packed file as it opens the index. The whole-file checksum ({@link
 * #checkIntegrity}) is read by rebuilds, by diagnoses of failed reads, and after a failed search.
 * Any other file, an earlier Strata container included, is a damaged archive.
 */
public final class ArchiveFormat {

    /** The codec name of the {@link CodecUtil} header. */
    public static final String CODEC = "StrataFullTextArchive";

    public static final int VERSION_START = 0;
    public static final int VERSION_CURRENT = VERSION_START;

    private static final String SUFFIX = "";

    /** Lucene field holding the analyzed text. */
    public static final String TEXT_FIELD = "text";

    /** Lucene numeric doc-values field holding the archive row id. */
    public static final String ROW_ID_FIELD = "_row_id";

    /** Lucene binary doc-values field holding the row's serialized primary key. */
    public static final String KEY_FIELD = "_key";

    /** What to do about a damaged archive or one of another format. */
    public static final String REBUILD =
            "An archive holds no rows of its own: CALL <catalog>.sys.rebuild_pk_fulltext(table =>"
                    + " '<database>.<table>') replaces it with one built from the table's data files.";

    private static final int HEAD_START = CodecUtil.indexHeaderLength(CODEC, SUFFIX) + Long.BYTES;
    private static final long MAX_HEAD_LENGTH = 64 << 20;

    private ArchiveFormat() {}

    /** Packs the latest commit of {@code dir} into {@code out}, verifying each file's checksum. */
    static long write(ArchiveHeader header, Directory dir, IndexOutput out) throws IOException {
        SegmentInfos commit = SegmentInfos.readLatestCommit(dir);
        List<String> names = new ArrayList<>(commit.files(true));
        Collections.sort(names);
        ByteBuffersDataOutput body = new ByteBuffersDataOutput();
        body.writeInt(header.textFieldId());
        body.writeVLong(header.rowCount());
        body.writeVLong(header.docCount());
        byte[] source = header.sourceMeta().serialize();
        body.writeVInt(source.length);
        body.writeBytes(source, source.length);
        body.writeString(header.analyzer().toJson());
        body.writeVInt(names.size());
        for (String name : names) {
            body.writeString(name);
            body.writeVLong(dir.fileLength(name));
        }
        long headLength = HEAD_START + body.size() + CodecUtil.footerLength();
        CodecUtil.writeIndexHeader(out, CODEC, VERSION_CURRENT, commit.getId(), SUFFIX);
        out.writeLong(headLength);
        body.copyTo(out);
        CodecUtil.writeFooter(out);
        for (String name : names) {
            try (ChecksumIndexInput in = dir.openChecksumInput(name, IOContext.READONCE)) {
                out.copyBytes(in, in.length() - CodecUtil.footerLength());
                long checksum = CodecUtil.checkFooter(in);
                // The file's own footer, written as Lucene90CompoundFormat copies it: the checksum
                // is the file's, not the archive's running one.
                CodecUtil.writeBEInt(out, CodecUtil.FOOTER_MAGIC);
                CodecUtil.writeBEInt(out, 0);
                CodecUtil.writeBELong(out, checksum);
            }
        }
        CodecUtil.writeFooter(out);
        return out.getFilePointer();
    }

    /** Checks the header, footer structure and Head (checksum included); reads only those. */
    static Head readHead(String file, IndexInput in) throws IOException {
        in.seek(0);
        byte[] id = new byte[StringHelper.ID_LENGTH];
        try {
            CodecUtil.checkHeader(in, CODEC, VERSION_START, VERSION_CURRENT);
            in.readBytes(id, 0, id.length);
            CodecUtil.checkIndexHeaderSuffix(in, SUFFIX);
        } catch (IndexFormatTooOldException | IndexFormatTooNewException e) {
            throw new DamagedFileException(
                    file,
                    "unsupported full-text archive version",
                    VERSION_START + ".." + VERSION_CURRENT,
                    version(e),
                    REBUILD,
                    e);
        } catch (CorruptIndexException | EOFException e) {
            throw damaged(file, "not a full-text archive of the current format", e);
        }
        long checksum = footerChecksum(file, in);
        long headLength = in.readLong();
        long maxHead = Math.min(MAX_HEAD_LENGTH, in.length() - CodecUtil.footerLength());
        if (headLength < HEAD_START + CodecUtil.footerLength() || headLength > maxHead) {
            throw new DamagedFileException(
                    file,
                    "head length",
                    (HEAD_START + CodecUtil.footerLength()) + ".." + maxHead,
                    String.valueOf(headLength),
                    REBUILD,
                    null);
        }
        try {
            ChecksumIndexInput head =
                    new BufferedChecksumIndexInput(in.slice("head", 0, headLength));
            head.seek(headLength - CodecUtil.footerLength());
            CodecUtil.checkFooter(head);
        } catch (CorruptIndexException | EOFException e) {
            throw damaged(file, "head checksum failed", e);
        }
        // Parsed only once its checksum holds, so no length read here is garbage.
        IndexInput head = in.slice("head", 0, headLength - CodecUtil.footerLength());
        head.seek(HEAD_START);
        try {
            int fieldId = head.readInt();
            long rows = head.readVLong();
            long docs = head.readVLong();
            byte[] source = new byte[head.readVInt()];
            head.readBytes(source, 0, source.length);
            AnalyzerSettings analyzer = AnalyzerSettings.fromJson(head.readString());
            ArchiveHeader header =
                    new ArchiveHeader(
                            fieldId, SourceMeta.deserialize(source), analyzer, rows, docs);
            int count = head.readVInt();
            if (count <= 0) {
                throw new DamagedFileException(
                        file, "packed file count", "> 0", String.valueOf(count), REBUILD, null);
            }
            Map<String, long[]> files = new LinkedHashMap<>();
            long offset = headLength;
            for (int i = 0; i < count; i++) {
                String name = head.readString();
                long length = head.readVLong();
                if (length < 0) {
                    throw new DamagedFileException(
                            file,
                            "length of packed file " + name,
                            ">= 0",
                            String.valueOf(length),
                            REBUILD,
                            null);
                }
                if (files.put(name, new long[] {offset, length}) != null) {
                    throw new DamagedFileException(
                            file, "packed file names", "unique", name + " twice", REBUILD, null);
                }
                offset += length;
            }
            if (head.getFilePointer() != head.length()) {
                throw new DamagedFileException(
                        file,
                        "end of the head",
                        String.valueOf(head.length()),
                        String.valueOf(head.getFilePointer()),
                        REBUILD,
                        null);
            }
            long end = in.length() - CodecUtil.footerLength();
            if (offset != end) {
                throw new DamagedFileException(
                        file,
                        "end of the packed files",
                        String.valueOf(end),
                        String.valueOf(offset),
                        REBUILD,
                        null);
            }
            return new Head(header, id, files, checksum);
        } catch (IllegalArgumentException | EOFException e) {
            throw damaged(file, "unreadable head", e);
        }
    }

    /** Checks the footer's structure and returns the whole-file checksum it stores. */
    static long footerChecksum(String file, IndexInput in) throws IOException {
        long at = in.getFilePointer();
        try {
            long checksum = CodecUtil.retrieveChecksum(in);
            in.seek(at);
            return checksum;
        } catch (CorruptIndexException | EOFException e) {
            throw damaged(file, "damaged footer or truncated file", e);
        }
    }

    /** Reads the whole file and compares its CRC32 with the footer's checksum. */
    static void checkIntegrity(String file, IndexInput in) throws IOException {
        try {
            CodecUtil.checksumEntireFile(in);
        } catch (CorruptIndexException | EOFException e) {
            throw damaged(file, "checksum failed", e);
        }
    }

    /** Lucene's verdict on {@code file} as the one damaged-file error, Lucene's words included. */
    static DamagedFileException damaged(String file, String what, Exception e) {
        String lucene =
                e instanceof CorruptIndexException
                        ? ((CorruptIndexException) e).getOriginalMessage()
                        : e.toString();
        return new DamagedFileException(file, what + " (" + lucene + ")", null, null, REBUILD, e);
    }

    private static String version(IOException e) {
        Integer version =
                e instanceof IndexFormatTooOldException
                        ? ((IndexFormatTooOldException) e).getVersion()
                        : ((IndexFormatTooNewException) e).getVersion();
        return version == null ? e.getMessage() : String.valueOf(version);
    }

    /** A checked head: what the archive says, the packed commit's id and where its files are. */
    record Head(ArchiveHeader header, byte[] id, Map<String, long[]> files, long checksum) {}
}
