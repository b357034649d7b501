package dev.strata.shredding.layout;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.paimon.utils.JsonSerdeUtil;
import org.junit.jupiter.api.Test;

/**
 * The fast paths for Paimon's dictionary and field-columns JSON read what Paimon's own JSON mapper
 * wrote the same way the general parser does, and give up (null) on anything outside the compact
 * form.
 */
class CompactJsonTest {

    private static String json(Object o) throws Exception {
        return JsonSerdeUtil.writeValueAsString(o);
    }

    @Test
    void dictionaryFastPathAgreesWithTheGeneralParser() throws Exception {
        Random r = new Random(5);
        String[] stems = {"cpu", "température", "湿度", "😀emoji", "", "a/b", "naïve"};
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            keys.add(stems[r.nextInt(stems.length)] + "_" + r.nextInt(1_000_000) + "_" + i);
        }
        keys.add("");
        Map<String, Integer> dict = new TreeMap<>();
        for (int i = 0; i < keys.size(); i++) {
            dict.put(keys.get(i), i);
        }
        byte[] bytes = json(dict).getBytes(StandardCharsets.UTF_8);
        String[] fast = CompactJson.dictionary(bytes);
        assertThat(fast).isNotNull().containsExactly(keys.toArray(new String[0]));
        assertThat(PaimonShreddingKeys.parseDictionary(bytes)).containsExactly(fast);
        assertThat(CompactJson.dictionary("{}".getBytes(StandardCharsets.UTF_8))).isEmpty();
    }

    @Test
    void dictionaryWithEscapesOrSpacesFallsBackAndStillParses() throws Exception {
        Map<String, Integer> dict = new TreeMap<>();
        dict.put("quote\"d", 0);
        dict.put("back\\slash", 1);
        dict.put("tab\there", 2);
        dict.put("plain", 3);
        byte[] bytes = json(dict).getBytes(StandardCharsets.UTF_8);
        assertThat(CompactJson.dictionary(bytes)).isNull();
        assertThat(PaimonShreddingKeys.parseDictionary(bytes))
                .containsExactly("quote\"d", "back\\slash", "tab\there", "plain");
        byte[] spaced = "{ \"a\" : 0 }".getBytes(StandardCharsets.UTF_8);
        assertThat(CompactJson.dictionary(spaced)).isNull();
        assertThat(PaimonShreddingKeys.parseDictionary(spaced)).containsExactly("a");
        for (String bad :
                new String[] {
                    "{\"a\":1}", "{\"a\":0,\"b\":0}", "{\"a\":00}", "{\"a\":0,}", "{\"a\":-1}"
                }) {
            assertThat(CompactJson.dictionary(bad.getBytes(StandardCharsets.UTF_8)))
                    .as(bad)
                    .isNull();
        }
    }

    @Test
    void fieldColumnsFastPathAgreesWithTheGeneralParser() throws Exception {
        Random r = new Random(9);
        Map<Integer, List<Integer>> cols = new TreeMap<>();
        for (int id = 0; id < 2000; id += 1 + r.nextInt(3)) {
            List<Integer> c = new ArrayList<>();
            for (int j = r.nextInt(5); j >= 0; j--) {
                c.add(r.nextInt(300));
            }
            c.sort(null);
            cols.put(id, c);
        }
        String text = json(cols);
        int[][] fast = CompactJson.fieldColumns(text, 2000, 300);
        assertThat(fast).isNotNull();
        for (int id = 0; id < 2000; id++) {
            List<Integer> expected = cols.getOrDefault(id, List.of());
            assertThat(fast[id])
                    .as("id " + id)
                    .containsExactly(expected.stream().mapToInt(Integer::intValue).toArray());
        }
        assertThat(PaimonShreddingKeys.parseFieldColumns(text, 2000, 300)).isDeepEqualTo(fast);
        assertThat(CompactJson.fieldColumns("{}", 3, 2)).hasDimensions(3, 0);
        for (String bad :
                new String[] {
                    "{\"0\": [1]}", "{\"5\":[1]}", "{\"0\":[2]}", "{\"0\":[01]}", "{\"0\":[1],}"
                }) {
            assertThat(CompactJson.fieldColumns(bad, 3, 2)).as(bad).isNull();
        }
    }
}
