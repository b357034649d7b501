package dev.strata.shredding.read;

import dev.strata.shredding.io.DamagedFileException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;

/**
 * Reads a row group's {@code __field_mapping} at the column positions of a lookup's keys (S_g)
 * only. A non-NULL map has exactly K non-NULL ids in column order and a NULL map one entry at
 * definition level 0, so column c's id is the row's entry c: the probe reads those entries and
 * skips the others by runs, still checking their levels, so a row without exactly K ids fails as
 * with the full decode ({@link FieldMappingWindow}). Rows may span pages. A window yields the
 * entries naming a wanted key as (row, position, id) triples in row order. Only chunks with RLE
 * levels and dictionary or PLAIN ids are probed ({@link #canProbe}).
 */
final class MappingProbe extends PageStream {

    /** Definition level of a present id: map, mapping, list and element all defined. */
    private static final int ID_DEF = 4;

    private final int k;
    private final int[] positions;
    private final int[] dictInts;

    /** Key id → &gt;= 0 when wanted; null: every id is. */
    private final int[] wanted;

    /** {@link #wanted} by raw dictionary id (null with PLAIN ids or when every id is wanted). */
    private final int[] rawWanted;

    /** The wanted raw dictionary ids (null where {@link #rawWanted} is). */
    private final int[] rawTargets;

    /** Per entry of the span from {@code positions[0]}, its index among positions, or -1. */
    private final int[] indexAt;

    /** Whether the page's ids are matched a word at a time ({@link HybridInts#matchPacked}). */
    private boolean matchWords;

    private HybridInts rep;
    private HybridInts def;
    private HybridInts ids;
    private ByteBuffer plain;
    private int plainPos;

    /**
     * A checked K-id row's repetition-level bytes between run boundaries (length 0: none yet): a
     * later row at a boundary with the same bytes has the same levels and is not decoded again.
     */
    private int sameLevelsStart;

    private int sameLevelsLength;

    /** Per window row, the definition level of its first entry (0: a NULL map). */
    int[] firstDef = new int[0];

    int hits;

    /** Per hit: its window row (ascending), its index into the probed positions, its key id. */
    int[] hitRow = new int[0];

    int[] hitIndex = new int[0];
    int[] hitId = new int[0];

    int rows;

    /**
     * {@code positions}: ascending, each &lt; k; {@code wanted}: key id → &gt;= 0 for the ids to
     * yield, null for every entry (-1: an unused column).
     */
    MappingProbe(
            PageReader pages,
            ColumnDescriptor column,
            String file,
            int k,
            int[] positions,
            int[] wanted)
            throws IOException {
        super(pages, column, file);
        this.k = k;
        this.positions = positions;
        this.wanted = wanted;
        if (column.getMaxRepetitionLevel() != 1 || column.getMaxDefinitionLevel() != ID_DEF) {
            throw corrupt(
                    "expected repetition level 1 and definition level "
                            + ID_DEF
                            + " but the schema gives "
                            + column.getMaxRepetitionLevel()
                            + " and "
                            + column.getMaxDefinitionLevel());
        }
        DictionaryPage dp = pages.readDictionaryPage();
        Dictionary dictionary = dp == null ? null : dp.getEncoding().initDictionary(column, dp);
        if (dictionary != null) {
            dictInts = new int[dictionary.getMaxId() + 1];
            for (int i = 0; i < dictInts.length; i++) {
                dictInts[i] = dictionary.decodeToInt(i);
            }
        } else {
            dictInts = null;
        }
        if (dictInts != null && wanted != null) {
            rawWanted = new int[dictInts.length];
            int count = 0;
            for (int i = 0; i < dictInts.length; i++) {
                rawWanted[i] = isWanted(dictInts[i]) ? 0 : -1;
                count += rawWanted[i] >= 0 ? 1 : 0;
            }
            rawTargets = new int[count];
            for (int i = 0, t = 0; i < dictInts.length; i++) {
                if (rawWanted[i] >= 0) {
                    rawTargets[t++] = i;
                }
            }
        } else {
            rawWanted = null;
            rawTargets = null;
        }
        int span = positions.length == 0 ? 0 : positions[positions.length - 1] - positions[0] + 1;
        indexAt = new int[span];
        Arrays.fill(indexAt, -1);
        for (int i = 0; i < positions.length; i++) {
            indexAt[positions[i] - positions[0]] = i;
        }
    }

    /** Whether a chunk can be probed: RLE levels, dictionary or PLAIN ids, K &gt; 0. */
    static boolean canProbe(ColumnChunkMetaData chunk, int k) {
        if (k == 0) {
            return false;
        }
        for (Encoding e : chunk.getEncodings()) {
            if (e != Encoding.RLE
                    && e != Encoding.PLAIN
                    && e != Encoding.PLAIN_DICTIONARY
                    && e != Encoding.RLE_DICTIONARY) {
                return false;
            }
        }
        return true;
    }

    int probedCount() {
        return positions.length;
    }

    private boolean isWanted(int id) {
        return wanted == null || (id >= 0 && id < wanted.length && wanted[id] >= 0);
    }

    private void record(int r, int i, int id) {
        if (isWanted(id)) {
            hitRow[hits] = r;
            hitIndex[hits] = i;
            hitId[hits++] = id;
        }
    }

    @Override
    void next(int n) throws IOException {
        int p = positions.length;
        if (firstDef.length < n) {
            firstDef = new int[n];
        }
        hits = 0;
        for (int r = 0; r < n; r++) {
            ensurePage(r, n);
            if (hitRow.length - hits < p) {
                int size = Math.max(hitRow.length * 2, hits + p + 64);
                hitRow = Arrays.copyOf(hitRow, size);
                hitIndex = Arrays.copyOf(hitIndex, size);
                hitId = Arrays.copyOf(hitId, size);
            }
            int start = rep.runBoundary();
            if (start >= 0
                    && sameLevelsLength > 0
                    && pageLeft >= k
                    && rep.sameBytes(start, sameLevelsStart, sameLevelsLength)
                    && def.rleLeft(ID_DEF) >= k) {
                // Same bytes as a row checked before on this page, from a run boundary too: the
                // same levels (0, then K-1 at 1), and K definition levels of present ids.
                rep.skipBytes(sameLevelsLength);
                def.skip(k);
                pageLeft -= k;
                firstDef[r] = ID_DEF;
                readIds(r, p);
                continue;
            }
            int rl = rep.nextSparse();
            int dl = def.nextSparse();
            pageLeft--;
            if (rl != 0) { // the previous row held more than K ids
                throw notK();
            }
            firstDef[r] = dl;
            if (dl == 0) { // a NULL map: one entry, no id
                continue;
            }
            if (dl != ID_DEF) { // a NULL or empty mapping, or a NULL id, in a map that is not NULL
                throw notK();
            }
            if (pageLeft >= k - 1) {
                // The other K-1 entries are on this page: check their levels, then read probed ids.
                if (!rep.skipExpecting(k - 1, 1) || !def.skipExpecting(k - 1, ID_DEF)) {
                    throw notK();
                }
                pageLeft -= k - 1;
                int end = rep.runBoundary();
                if (start >= 0 && end >= 0) { // rows with these bytes need no further checks
                    sameLevelsStart = start;
                    sameLevelsLength = end - start;
                }
                readIds(r, p);
                continue;
            }
            // Entry 0 is read; entries 1..K-1 follow with repetition 1.
            int at = 0;
            int value = readId();
            for (int i = 0; i < p; i++) {
                int target = positions[i];
                if (target > at) {
                    skipEntries(target - at - 1);
                    value = nextEntryId();
                    at = target;
                }
                record(r, i, value);
            }
            skipEntries(k - 1 - at);
        }
        rows = n;
        row += n;
    }

    /** Reads the ids of window row r at the probed positions, recording the wanted ones. */
    private void readIds(int r, int p) {
        if (ids != null) {
            // The row's K ids are on this page (see next), so matchPacked always reads them.
            int m =
                    matchWords
                            ? ids.matchPacked(
                                    k, positions[0], indexAt.length, indexAt, hitIndex, hitId, hits)
                            : ids.gatherPacked(k, positions, p, rawWanted, hitIndex, hitId, hits);
            if (m >= 0) {
                for (int x = hits; x < hits + m; x++) {
                    hitRow[x] = r;
                    hitId[x] = dictInts[hitId[x]];
                }
                hits += m;
                return;
            }
        }
        int next = 0; // the entry the ids are at
        for (int i = 0; i < p; i++) {
            int target = positions[i];
            skipIds(target - next);
            if (rawWanted == null || plain != null) {
                record(r, i, readId());
            } else { // dictionary ids, tested before translating: most are not wanted
                int raw = ids.nextSparse();
                if (rawWanted[raw] >= 0) {
                    hitRow[hits] = r;
                    hitIndex[hits] = i;
                    hitId[hits++] = dictInts[raw];
                }
            }
            next = target + 1;
        }
        skipIds(k - next);
    }

    /** Reads one more entry of the current row (repetition 1, an id) and returns its id. */
    private int nextEntryId() throws IOException {
        ensureInRow();
        int rl = rep.nextSparse();
        int dl = def.nextSparse();
        pageLeft--;
        if (rl != 1 || dl != ID_DEF) {
            throw notK();
        }
        return readId();
    }

    /** Skips {@code n} entries of the current row, checking each is an id at repetition 1. */
    private void skipEntries(int n) throws IOException {
        while (n > 0) {
            ensureInRow();
            int take = Math.min(n, pageLeft);
            if (!rep.skipExpecting(take, 1) || !def.skipExpecting(take, ID_DEF)) {
                throw notK();
            }
            if (plain != null) {
                plainPos += 4 * take;
            } else {
                ids.skip(take);
            }
            pageLeft -= take;
            n -= take;
        }
    }

    /** Skips the ids of {@code n} entries of the current page whose levels were already read. */
    private void skipIds(int n) {
        if (n == 0) {
            return;
        }
        if (plain != null) {
            plainPos += 4 * n;
        } else {
            ids.skip(n);
        }
    }

    private int readId() {
        if (plain != null) {
            int v = plain.getInt(plainPos);
            plainPos += 4;
            return v;
        }
        return dictInts[ids.nextSparse()];
    }

    private void ensureInRow() throws IOException {
        if (!nextPage()) {
            throw notK();
        }
    }

    private void ensurePage(int r, int n) throws IOException {
        if (!nextPage()) {
            throw corrupt("the chunk ends after " + r + " rows of a window of " + n);
        }
    }

    @Override
    void decode(DataPage page) throws IOException {
        HybridPage split = HybridPage.of(page, 1, ID_DEF);
        if (split == null) {
            throw corrupt("levels encoded BIT_PACKED in a chunk whose metadata lists RLE only");
        }
        rep = split.rep;
        def = split.def;
        sameLevelsLength = 0;
        Encoding encoding = split.encoding;
        ByteBuffer data = split.data;
        if (encoding.usesDictionary()) {
            if (dictInts == null) {
                throw corrupt("dictionary-encoded ids without a dictionary page");
            }
            plain = null;
            ids = HybridPage.dictionaryIds(data);
            // Word-wise when it compares fewer words than value-by-value extracts values.
            int fields = rawTargets == null ? 0 : ids.prepareMatch(rawTargets, rawTargets.length);
            matchWords = fields > 0 && indexAt.length < (long) positions.length * fields;
        } else if (encoding == Encoding.PLAIN) {
            plain = data;
            plainPos = data.position();
            ids = null;
            matchWords = false;
        } else {
            throw corrupt(
                    "ids encoded "
                            + encoding
                            + " in a chunk whose metadata lists dictionary and PLAIN only");
        }
    }

    private DamagedFileException notK() {
        return corrupt("a row does not hold exactly K=" + k + " ids");
    }
}
