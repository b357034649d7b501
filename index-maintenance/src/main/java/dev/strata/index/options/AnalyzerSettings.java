package dev.strata.index.options;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.cjk.CJKAnalyzer;
import org.apache.lucene.analysis.cjk.CJKBigramFilter;
import org.apache.lucene.analysis.cjk.CJKWidthFilter;
import org.apache.lucene.analysis.core.KeywordTokenizer;
import org.apache.lucene.analysis.core.LetterTokenizer;
import org.apache.lucene.analysis.core.WhitespaceTokenizer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.ngram.NGramTokenizer;
import org.apache.lucene.analysis.standard.StandardTokenizer;

/**
 * The analyzer of one full-text column with every default filled in; its canonical JSON is stored
 * in each archive header and rebuilds the same analyzer at query time.
 *
 * <p>Keys: {@code analyzer} = standard (default) | whitespace | simple | keyword | english | cjk |
 * ngram; {@code lowercase} = true (default) | false; {@code max-token-length} = 1..1048576 (default
 * 255; not for keyword/ngram); {@code ngram.min-gram} / {@code ngram.max-gram} (defaults 2 and 3;
 * ngram only).
 */
public final class AnalyzerSettings {

    public static final String ANALYZER = "analyzer";
    public static final String LOWERCASE = "lowercase";
    public static final String MAX_TOKEN_LENGTH = "max-token-length";
    public static final String NGRAM_MIN = "ngram.min-gram";
    public static final String NGRAM_MAX = "ngram.max-gram";

    public static final List<String> ANALYZERS =
            Collections.unmodifiableList(
                    Arrays.asList(
                            "standard",
                            "whitespace",
                            "simple",
                            "keyword",
                            "english",
                            "cjk",
                            "ngram"));
    static final List<String> KEYS =
            Collections.unmodifiableList(
                    Arrays.asList(ANALYZER, LOWERCASE, MAX_TOKEN_LENGTH, NGRAM_MIN, NGRAM_MAX));

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_ALLOWED_TOKEN_LENGTH = 1024 * 1024;

    private final String analyzer;
    private final boolean lowercase;
    private final int maxTokenLength;
    private final int minGram;
    private final int maxGram;

    private AnalyzerSettings(
            String analyzer, boolean lowercase, int maxTokenLength, int minGram, int maxGram) {
        this.analyzer = analyzer;
        this.lowercase = lowercase;
        this.maxTokenLength = maxTokenLength;
        this.minGram = minGram;
        this.maxGram = maxGram;
    }

    /** The defaults: standard analyzer, lower-cased, tokens of at most 255 characters. */
    public static AnalyzerSettings defaults() {
        return of(Collections.emptyMap(), FullTextDefinition.FULL_TEXT_PREFIX);
    }

    /** Resolves settings from unprefixed keys; {@code keyPrefix} names keys in error messages. */
    public static AnalyzerSettings of(Map<String, String> options, String keyPrefix) {
        for (String key : options.keySet()) {
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException(
                        "Cannot configure the full-text analyzer: unknown option '"
                                + keyPrefix
                                + key
                                + "'. Allowed options are "
                                + prefixed(keyPrefix)
                                + ".");
            }
        }
        String analyzer =
                options.getOrDefault(ANALYZER, "standard")
                        .trim()
                        .toLowerCase(java.util.Locale.ROOT);
        if (!ANALYZERS.contains(analyzer)) {
            throw new IllegalArgumentException(
                    "Cannot configure the full-text analyzer: option '"
                            + keyPrefix
                            + ANALYZER
                            + "' has value '"
                            + options.get(ANALYZER)
                            + "'. Allowed values are "
                            + ANALYZERS
                            + ".");
        }
        String lower =
                options.getOrDefault(LOWERCASE, "true").trim().toLowerCase(java.util.Locale.ROOT);
        if (!lower.equals("true") && !lower.equals("false")) {
            throw new IllegalArgumentException(
                    "Cannot configure the full-text analyzer: option '"
                            + keyPrefix
                            + LOWERCASE
                            + "' has value '"
                            + options.get(LOWERCASE)
                            + "'. Allowed values are [true, false].");
        }
        boolean tokenLimited = !analyzer.equals("keyword") && !analyzer.equals("ngram");
        if (!tokenLimited && options.containsKey(MAX_TOKEN_LENGTH)) {
            throw new IllegalArgumentException(
                    "Cannot configure the full-text analyzer: option '"
                            + keyPrefix
                            + MAX_TOKEN_LENGTH
                            + "' is not supported by analyzer '"
                            + analyzer
                            + "'. Remove it, or use one of [standard, whitespace, simple, english, cjk].");
        }
        int maxTokenLength =
                tokenLimited
                        ? intOption(
                                options,
                                MAX_TOKEN_LENGTH,
                                255,
                                1,
                                MAX_ALLOWED_TOKEN_LENGTH,
                                keyPrefix)
                        : 0;
        boolean ngram = analyzer.equals("ngram");
        if (!ngram && (options.containsKey(NGRAM_MIN) || options.containsKey(NGRAM_MAX))) {
            throw new IllegalArgumentException(
                    "Cannot configure the full-text analyzer: options '"
                            + keyPrefix
                            + NGRAM_MIN
                            + "' and '"
                            + keyPrefix
                            + NGRAM_MAX
                            + "' need '"
                            + keyPrefix
                            + ANALYZER
                            + "' = 'ngram', but the analyzer is '"
                            + analyzer
                            + "'.");
        }
        int minGram = ngram ? intOption(options, NGRAM_MIN, 2, 1, 64, keyPrefix) : 0;
        int maxGram =
                ngram ? intOption(options, NGRAM_MAX, Math.max(3, minGram), 1, 64, keyPrefix) : 0;
        if (ngram && maxGram < minGram) {
            throw new IllegalArgumentException(
                    "Cannot configure the full-text analyzer: option '"
                            + keyPrefix
                            + NGRAM_MAX
                            + "' has value "
                            + maxGram
                            + ", smaller than '"
                            + keyPrefix
                            + NGRAM_MIN
                            + "' = "
                            + minGram
                            + ". Use a value >= "
                            + minGram
                            + ".");
        }
        return new AnalyzerSettings(
                analyzer, Boolean.parseBoolean(lower), maxTokenLength, minGram, maxGram);
    }

    private static String prefixed(String prefix) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < KEYS.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(prefix).append(KEYS.get(i));
        }
        return sb.append(']').toString();
    }

    private static int intOption(
            Map<String, String> options, String key, int def, int min, int max, String prefix) {
        String raw = options.get(key);
        if (raw == null) {
            return def;
        }
        int value;
        try {
            value = Integer.parseInt(raw.trim());
        } catch (NumberFormatException e) {
            value = Integer.MIN_VALUE;
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException(
                    "Cannot configure the full-text analyzer: option '"
                            + prefix
                            + key
                            + "' has value '"
                            + raw
                            + "'. Allowed values are integers from "
                            + min
                            + " to "
                            + max
                            + ".");
        }
        return value;
    }

    public String analyzerName() {
        return analyzer;
    }

    /** The resolved settings as a map with every default filled in (sorted keys). */
    public Map<String, String> toMap() {
        Map<String, String> map = new TreeMap<>();
        map.put(ANALYZER, analyzer);
        map.put(LOWERCASE, Boolean.toString(lowercase));
        if (maxTokenLength > 0) {
            map.put(MAX_TOKEN_LENGTH, Integer.toString(maxTokenLength));
        }
        if (analyzer.equals("ngram")) {
            map.put(NGRAM_MIN, Integer.toString(minGram));
            map.put(NGRAM_MAX, Integer.toString(maxGram));
        }
        return map;
    }

    /** Canonical JSON: a flat object of the resolved settings with sorted keys. */
    public String toJson() {
        try {
            return JSON.writeValueAsString(toMap());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot serialize analyzer settings " + toMap(), e);
        }
    }

    /** Parses {@link #toJson()} output (as stored in an archive header). */
    public static AnalyzerSettings fromJson(String json) {
        Map<String, String> map;
        try {
            map = JSON.readValue(json, new TypeReference<LinkedHashMap<String, String>>() {});
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "Cannot read analyzer settings: not a JSON object of strings: " + json, e);
        }
        return of(map == null ? Collections.emptyMap() : map, "");
    }

    public Analyzer newAnalyzer() {
        final String name = analyzer;
        final boolean lower = lowercase;
        final int maxLen = maxTokenLength;
        final int min = minGram;
        final int max = maxGram;
        return new Analyzer() {
            @Override
            protected TokenStreamComponents createComponents(String fieldName) {
                Tokenizer source;
                TokenStream result;
                switch (name) {
                    case "whitespace":
                        source =
                                new WhitespaceTokenizer(
                                        TokenStream.DEFAULT_TOKEN_ATTRIBUTE_FACTORY, maxLen);
                        result = lower ? new LowerCaseFilter(source) : source;
                        break;
                    case "simple":
                        source =
                                new LetterTokenizer(
                                        TokenStream.DEFAULT_TOKEN_ATTRIBUTE_FACTORY, maxLen);
                        result = lower ? new LowerCaseFilter(source) : source;
                        break;
                    case "keyword":
                        source = new KeywordTokenizer();
                        result = lower ? new LowerCaseFilter(source) : source;
                        break;
                    case "english":
                        StandardTokenizer en = new StandardTokenizer();
                        en.setMaxTokenLength(maxLen);
                        source = en;
                        result = new EnglishPossessiveFilter(source);
                        result = lower ? new LowerCaseFilter(result) : result;
                        result = new StopFilter(result, EnglishAnalyzer.ENGLISH_STOP_WORDS_SET);
                        result = new PorterStemFilter(result);
                        break;
                    case "cjk":
                        StandardTokenizer cjk = new StandardTokenizer();
                        cjk.setMaxTokenLength(maxLen);
                        source = cjk;
                        result = new CJKWidthFilter(source);
                        result = lower ? new LowerCaseFilter(result) : result;
                        result = new CJKBigramFilter(result);
                        result = new StopFilter(result, cjkStopWords());
                        break;
                    case "ngram":
                        source = new NGramTokenizer(min, max);
                        result = lower ? new LowerCaseFilter(source) : source;
                        break;
                    default:
                        StandardTokenizer std = new StandardTokenizer();
                        std.setMaxTokenLength(maxLen);
                        source = std;
                        result = lower ? new LowerCaseFilter(source) : source;
                }
                return new TokenStreamComponents(source, result);
            }

            @Override
            protected TokenStream normalize(String fieldName, TokenStream in) {
                TokenStream result = in;
                if (name.equals("cjk")) {
                    result = new CJKWidthFilter(result);
                }
                return lower ? new LowerCaseFilter(result) : result;
            }
        };
    }

    private static CharArraySet cjkStopWords() {
        return CJKAnalyzer.getDefaultStopSet();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AnalyzerSettings && toMap().equals(((AnalyzerSettings) o).toMap());
    }

    @Override
    public int hashCode() {
        return toMap().hashCode();
    }

    @Override
    public String toString() {
        return toJson();
    }
}
