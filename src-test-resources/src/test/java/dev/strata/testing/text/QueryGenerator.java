package dev.strata.testing.text;

import java.util.Random;

/**
 * Random queries in Lucene classic query syntax over a {@link TextCorpus}: single terms (common and
 * rare), AND/OR/NOT combinations, quoted phrases, prefix and fuzzy terms. Deterministic for a seed.
 */
public final class QueryGenerator {

    private final TextCorpus corpus;

    public QueryGenerator(TextCorpus corpus) {
        this.corpus = corpus;
    }

    public String next(Random random) {
        switch (random.nextInt(8)) {
            case 0:
                return corpus.word(random);
            case 1:
                return corpus.rareWord(random);
            case 2:
                return corpus.word(random) + " AND " + corpus.word(random);
            case 3:
                return corpus.word(random) + " OR " + corpus.rareWord(random);
            case 4:
                return corpus.word(random) + " AND NOT " + corpus.word(random);
            case 5:
                return "\"" + corpus.word(random) + " " + corpus.word(random) + "\"";
            case 6:
                String w = corpus.word(random);
                return w.substring(0, Math.max(2, Math.min(w.length(), 3))) + "*";
            default:
                return corpus.word(random) + "~1";
        }
    }
}
