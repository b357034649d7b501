package dev.strata.shredding.layout;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Fast paths for the two large JSON values of Paimon's layout keys, parsed on every first open of a
 * file, in exactly the compact form Paimon's JSON mapper writes: the dictionary {@code
 * {"key":id,...}} and {@code field-columns} {@code {"id":[c,...],...}}. Any deviation (a backslash
 * escape, whitespace, ...) gives null and the caller parses with a general JSON parser; on valid
 * UTF-8 the fast path never accepts what a JSON parser would read differently.
 */
final class CompactJson {

    private CompactJson() {}

    /** The key of each id, or null unless the text is compact with ids 0..n-1 once each. */
    static String[] dictionary(byte[] json) {
        int n = json.length;
        if (n < 2 || json[0] != '{' || json[n - 1] != '}') {
            return null;
        }
        String[] keys = new String[Math.max(16, n / 16)];
        int count = 0;
        int i = 1;
        if (n == 2) {
            return new String[0];
        }
        while (true) {
            if (json[i] != '"') {
                return null;
            }
            int start = ++i;
            while (i < n && json[i] != '"') {
                byte b = json[i];
                if (b == '\\' || (b >= 0 && b < 0x20)) {
                    return null;
                }
                i++;
            }
            if (i + 2 >= n || json[i + 1] != ':') {
                return null;
            }
            String key = new String(json, start, i - start, StandardCharsets.UTF_8);
            i += 2;
            long id = 0;
            int digits = 0;
            while (i < n && json[i] >= '0' && json[i] <= '9') {
                id = id * 10 + (json[i] - '0');
                if (id > Integer.MAX_VALUE) {
                    return null;
                }
                i++;
                digits++;
            }
            if (digits == 0 || (digits > 1 && json[i - digits] == '0')) {
                return null;
            }
            if (id >= keys.length) {
                if (id >= n) {
                    return null;
                }
                keys = Arrays.copyOf(keys, (int) Math.max(id + 1, keys.length * 2L));
            }
            if (keys[(int) id] != null) {
                return null;
            }
            keys[(int) id] = key;
            count++;
            if (i >= n) {
                return null;
            }
            if (json[i] == '}') {
                if (i != n - 1) {
                    return null;
                }
                break;
            }
            if (json[i] != ',') {
                return null;
            }
            i++;
        }
        for (int id = 0; id < count; id++) {
            if (id >= keys.length || keys[id] == null) {
                return null;
            }
        }
        for (int id = count; id < keys.length; id++) {
            if (keys[id] != null) {
                return null;
            }
        }
        return count == keys.length ? keys : Arrays.copyOf(keys, count);
    }

    /** S by id (ascending), or null unless compact with ids and columns in range. */
    static int[][] fieldColumns(String json, int dictSize, int k) {
        int n = json.length();
        if (n < 2 || json.charAt(0) != '{' || json.charAt(n - 1) != '}') {
            return null;
        }
        int[][] columns = new int[dictSize][];
        int[] none = new int[0];
        Arrays.fill(columns, none);
        if (n == 2) {
            return columns;
        }
        int[] buf = new int[16];
        int i = 1;
        while (true) {
            if (json.charAt(i) != '"') {
                return null;
            }
            i++;
            long id = 0;
            int start = i;
            while (i < n && json.charAt(i) >= '0' && json.charAt(i) <= '9' && i - start < 10) {
                id = id * 10 + (json.charAt(i) - '0');
                i++;
            }
            if (i == start
                    || i + 2 >= n
                    || json.charAt(i) != '"'
                    || json.charAt(i + 1) != ':'
                    || json.charAt(i + 2) != '['
                    || id >= dictSize
                    || columns[(int) id] != none) {
                return null;
            }
            i += 3;
            int m = 0;
            if (json.charAt(i) == ']') {
                i++;
            } else {
                while (true) {
                    long c = 0;
                    int cs = i;
                    while (i < n && json.charAt(i) >= '0' && json.charAt(i) <= '9' && i - cs < 10) {
                        c = c * 10 + (json.charAt(i) - '0');
                        i++;
                    }
                    if (i == cs || i >= n || c >= k || (i - cs > 1 && json.charAt(cs) == '0')) {
                        return null;
                    }
                    if (m == buf.length) {
                        buf = Arrays.copyOf(buf, m * 2);
                    }
                    buf[m++] = (int) c;
                    char ch = json.charAt(i++);
                    if (ch == ']') {
                        break;
                    }
                    if (ch != ',' || i >= n) {
                        return null;
                    }
                }
            }
            int[] cols = Arrays.copyOf(buf, m);
            Arrays.sort(cols);
            columns[(int) id] = cols;
            if (i >= n) {
                return null;
            }
            char ch = json.charAt(i);
            if (ch == '}') {
                return i == n - 1 ? columns : null;
            }
            if (ch != ',') {
                return null;
            }
            i++;
        }
    }
}
