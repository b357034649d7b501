package dev.strata.index.options;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.junit.jupiter.api.Test;

class AnalyzerSettingsTest {

    private static List<String> tokens(Map<String, String> options, String text) throws Exception {
        AnalyzerSettings settings = AnalyzerSettings.of(options, "full-text.");
        // Settings survive the header round trip.
        settings = AnalyzerSettings.fromJson(settings.toJson());
        List<String> out = new ArrayList<>();
        try (Analyzer a = settings.newAnalyzer();
                TokenStream ts = a.tokenStream("text", text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                out.add(term.toString());
            }
            ts.end();
        }
        return out;
    }

    private static Map<String, String> opts(String... kv) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void standardIsDefaultAndLowerCases() throws Exception {
        assertThat(tokens(opts(), "Disk WRITE-failure, 42"))
                .containsExactly("disk", "write", "failure", "42");
        assertThat(AnalyzerSettings.defaults().toJson())
                .isEqualTo(
                        "{\"analyzer\":\"standard\",\"lowercase\":\"true\",\"max-token-length\":\"255\"}");
    }

    @Test
    void eachAnalyzerTokenizesAsDocumented() throws Exception {
        assertThat(tokens(opts("analyzer", "whitespace"), "Disk WRITE-failure"))
                .containsExactly("disk", "write-failure");
        assertThat(tokens(opts("analyzer", "whitespace", "lowercase", "false"), "Disk X"))
                .containsExactly("Disk", "X");
        assertThat(tokens(opts("analyzer", "simple"), "abc1def Ghi"))
                .containsExactly("abc", "def", "ghi");
        assertThat(tokens(opts("analyzer", "keyword"), "Disk Failure"))
                .containsExactly("disk failure");
        assertThat(tokens(opts("analyzer", "english"), "The disks were failing"))
                .containsExactly("disk", "were", "fail");
        assertThat(tokens(opts("analyzer", "cjk"), "数据湖")).containsExactly("数据", "据湖");
        assertThat(
                        tokens(
                                opts(
                                        "analyzer",
                                        "ngram",
                                        "ngram.min-gram",
                                        "2",
                                        "ngram.max-gram",
                                        "2"),
                                "Abc"))
                .containsExactly("ab", "bc");
        assertThat(tokens(opts("analyzer", "standard", "max-token-length", "3"), "abcdef"))
                .containsExactly("abc", "def");
    }
}
