package dev.strata.testing.text;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Deterministic English-like documents for full-text tests and benchmarks. Words come from a fixed
 * vocabulary with a Zipf-like distribution (a few common words, a long tail of rare ones), so
 * queries hit both frequent and rare terms. The same seed always yields the same texts.
 */
public final class TextCorpus {

    private static final String[] SYLLABLES = {
        "ka", "lo", "mi", "ra", "te", "sun", "or", "vel", "an", "dri", "po", "qu", "zen", "ix",
        "mar", "tol", "ein", "ba", "cor", "fy"
    };

    private static final String[] COMMON = {
        "lake", "paimon", "storage", "format", "search", "index", "table", "spark", "write",
        "failure", "disk", "apache", "query", "file", "bucket", "level", "merge", "delete",
        "vector", "stream"
    };

    private final List<String> vocabulary;
    private final double[] cumulative;

    /** A corpus with {@code vocabularySize} distinct words (at least the 20 common ones). */
    public TextCorpus(int vocabularySize) {
        List<String> words = new ArrayList<>();
        Collections.addAll(words, COMMON);
        for (int i = 0; words.size() < vocabularySize; i++) {
            words.add(syntheticWord(i));
        }
        this.vocabulary = Collections.unmodifiableList(words);
        this.cumulative = new double[words.size()];
        double sum = 0;
        for (int i = 0; i < words.size(); i++) {
            sum += 1.0 / Math.pow(i + 1, 1.05);
            cumulative[i] = sum;
        }
        for (int i = 0; i < cumulative.length; i++) {
            cumulative[i] /= sum;
        }
    }

    private static String syntheticWord(int i) {
        StringBuilder sb = new StringBuilder();
        int n = i;
        do {
            sb.append(SYLLABLES[n % SYLLABLES.length]);
            n /= SYLLABLES.length;
        } while (n > 0);
        return sb.append(i % 7 == 0 ? "s" : "").toString();
    }

    public List<String> vocabulary() {
        return vocabulary;
    }

    /** One word drawn with the corpus distribution. */
    public String word(Random random) {
        double u = random.nextDouble();
        int i = java.util.Arrays.binarySearch(cumulative, u);
        if (i < 0) {
            i = -i - 1;
        }
        return vocabulary.get(Math.min(i, vocabulary.size() - 1));
    }

    /** A word drawn uniformly from the rare half of the vocabulary. */
    public String rareWord(Random random) {
        int half = vocabulary.size() / 2;
        return vocabulary.get(half + random.nextInt(vocabulary.size() - half));
    }

    /** A document of {@code minWords..maxWords} words, with occasional capitals and punctuation. */
    public String document(Random random, int minWords, int maxWords) {
        int n = minWords + random.nextInt(Math.max(1, maxWords - minWords + 1));
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                sb.append(random.nextInt(12) == 0 ? ", " : " ");
            }
            String w = word(random);
            if (random.nextInt(10) == 0) {
                w = Character.toUpperCase(w.charAt(0)) + w.substring(1);
            }
            sb.append(w);
        }
        return sb.append('.').toString();
    }

    /** A document of roughly {@code bytes} characters. */
    public String documentOfSize(Random random, int bytes) {
        StringBuilder sb = new StringBuilder(bytes + 16);
        while (sb.length() < bytes) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append(word(random));
        }
        return sb.toString();
    }

    /** {@code count} documents; each is null with probability {@code nullRate}. */
    public List<String> documents(Random random, int count, double nullRate) {
        List<String> docs = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            docs.add(random.nextDouble() < nullRate ? null : document(random, 3, 20));
        }
        return docs;
    }
}
