package dev.strata.launcher;

import java.util.ArrayList;
import java.util.List;

/** Splits SQL text into statements at semicolons outside quotes and comments; drops empty ones. */
final class SqlScript {

    private SqlScript() {}

    static List<String> split(String text) {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        char quote = 0;
        boolean lineComment = false;
        boolean blockComment = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            char next = i + 1 < text.length() ? text.charAt(i + 1) : 0;
            if (lineComment) {
                if (c == '\n') {
                    lineComment = false;
                    current.append(c);
                }
                continue;
            }
            if (blockComment) {
                if (c == '*' && next == '/') {
                    blockComment = false;
                    i++;
                }
                continue;
            }
            if (quote != 0) {
                current.append(c);
                if (c == '\\' && quote != '`' && next != 0) {
                    current.append(next);
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
                continue;
            }
            if (c == '-' && next == '-') {
                lineComment = true;
                i++;
            } else if (c == '/' && next == '*') {
                blockComment = true;
                i++;
            } else if (c == '\'' || c == '"' || c == '`') {
                quote = c;
                current.append(c);
            } else if (c == ';') {
                add(statements, current);
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        add(statements, current);
        return statements;
    }

    /** Whether {@code text} ends with a semicolon outside quotes and comments. */
    static boolean complete(String text) {
        String trimmed = text.strip();
        if (trimmed.isEmpty()) {
            return false;
        }
        // Re-split with a sentinel: after a terminated statement, nothing follows.
        List<String> withSentinel = split(text + "\n\u0000");
        return withSentinel.get(withSentinel.size() - 1).equals("\u0000");
    }

    private static void add(List<String> statements, StringBuilder current) {
        String s = current.toString().strip();
        if (!s.isEmpty()) {
            statements.add(s);
        }
    }
}
