-- Run after demo/bench/fts-gen.sql: one cold round, then 7 warm rounds of the same five statements (SELECT 1,
-- full_text_search top-10 and text_match count of the rare term, and their RLIKE equivalents).
-- round 0 (cold)
SELECT 1;
SELECT id, _score FROM full_text_search('lake.d.docs', 'body', 'strataneedle', 10);
SELECT count(*) FROM lake.d.docs WHERE text_match(body, 'strataneedle');
SELECT id FROM lake.d.docs WHERE lower(body) RLIKE '\\bstrataneedle\\b' ORDER BY id LIMIT 10;
SELECT count(*) FROM lake.d.docs WHERE lower(body) RLIKE '\\bstrataneedle\\b';
-- round 1
SELECT 1;
SELECT id, _score FROM full_text_search('lake.d.docs', 'body', 'strataneedle', 10);
SELECT count(*) FROM lake.d.docs WHERE text_match(body, 'strataneedle');
SELECT id FROM lake.d.docs WHERE lower(body) RLIKE '\\bstrataneedle\\b' ORDER BY id LIMIT 10;
SELECT count(*) FROM lake.d.docs WHERE lower(body) RLIKE '\\bstrataneedle\\b';
-- round 2
SELECT 1;
SELECT id, _score FROM full_text_search('lake.d.docs', 'body', 'strataneedle', 10);
SELECT count(*) FROM lake.d.docs WHERE text_match(body, 'strataneedle');
SELECT id FROM lake.d.docs WHERE lower(body) RLIKE '\\bstrataneedle\\b' ORDER BY id LIMIT 10;
SELECT count(*) FROM lake.d.docs WHERE lower(body) RLIKE '\\bstrataneedle\\b';
-- round 3
SELECT 1;
SELECT id, _score FROM full_text_search('lake.d.docs', 'body', 'strataneedle', 10);
SELECT count(*) FROM lake.d.docs WHERE text_match(body, 'strataneedle');
SELECT id FROM lake.d.docs WHERE lower(body) RLIKE '\\bstrataneedle\\b' ORDER BY id LIMIT 10;
SELECT count(*) FROM lake.d.docs WHERE lower(body) RLIKE '\\bstrataneedle\\b';
-- round 4
SELECT 1;
SELECT id, _score FROM full_text_search('lake.d.docs', 'body', 'strataneedle', 10);
SELECT count(*) FROM lake.d.docs WHERE text_match(body, 'strataneedle');
SELECT id FROM lake.d.docs WHERE lower(body) RLIKE '\\bstrataneedle\\b' ORDER BY id LIMIT 10;
SELECT count(*) FROM lake.d.docs WHERE lower(body) RLIKE '\\bstrataneedle\\b';
-- round 5
SELECT 1;
SELECT id, _score FROM full_text_search('lake.d.docs', 'body', 'strataneedle', 10);
SELECT count(*) FROM lake.d.docs WHERE text_match(body, 'strataneedle');
SELECT id FROM lake.d.docs WHERE lower(body) RLIKE '\\bstrataneedle\\b' ORDER BY id LIMIT 10;
SELECT count(*) FROM lake.d.docs WHERE lower(body) RLIKE '\\bstrataneedle\\b';
-- round 6
SELECT 1;
SELECT id, _score FROM full_text_search('lake.d.docs', 'body', 'strataneedle', 10);
SELECT count(*) FROM lake.d.docs WHERE text_match(body, 'strataneedle');
SELECT id FROM lake.d.docs WHERE lower(body) RLIKE '\\bstrataneedle\\b' ORDER BY id LIMIT 10;
SELECT count(*) FROM lake.d.docs WHERE lower(body) RLIKE '\\bstrataneedle\\b';
-- round 7
SELECT 1;
SELECT id, _score FROM full_text_search('lake.d.docs', 'body', 'strataneedle', 10);
SELECT count(*) FROM lake.d.docs WHERE text_match(body, 'strataneedle');
SELECT id FROM lake.d.docs WHERE lower(body) RLIKE '\\bstrataneedle\\b' ORDER BY id LIMIT 10;
SELECT count(*) FROM lake.d.docs WHERE lower(body) RLIKE '\\bstrataneedle\\b';
