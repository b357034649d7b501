-- Wide shredded maps written by Strata for Paimon 2.0.0's reader (Paimon2ReadsStrataWrites): files of more than
-- 64 leaf columns, whose value columns share one dictionary budget and fall back to PLAIN pages, some in the
-- middle of a column chunk (wide_mixed). Run in a scratch directory: bin/strata-sql --warehouse wh -f <this file>
-- (a) wide_d120: 300 000 rows, MAP<STRING, DOUBLE>, 120 keys a row out of 1 920 (key x*16 + 0..15 for x in 0..119),
--     values with 6 decimals in [0, 1000) (up to 10^9 distinct values); NULL values, NaN, -Infinity, -0.0,
--     NULL maps (id % 97 = 0), empty maps (id % 89 = 0).
CREATE TABLE src_a USING parquet AS
SELECT id,
  CASE WHEN id % 97 = 0 THEN NULL WHEN id % 89 = 0 THEN map() ELSE
    map_from_arrays(
      transform(sequence(0, 119), x -> concat('k', CAST(x * 16 + pmod(hash(id, x), 16) AS STRING))),
      transform(sequence(0, 119), x -> CASE WHEN pmod(hash(id, x, 1), 101) = 0 THEN CAST(NULL AS DOUBLE)
                                            WHEN pmod(hash(id, x, 2), 997) = 0 THEN CAST('NaN' AS DOUBLE)
                                            WHEN pmod(hash(id, x, 9), 1999) = 0 THEN CAST('-Infinity' AS DOUBLE)
                                            WHEN pmod(hash(id, x, 8), 1993) = 0 THEN CAST('-0.0' AS DOUBLE)
                                            ELSE CAST(pmod(hash(id, x, 3), 1000000000) AS DOUBLE) / 1000000 END)) END AS m
FROM range(300000);

-- (b) wide_d300: 300 000 rows, MAP<STRING, DOUBLE>, 300 keys a row out of 1 800 (key x*6 + 0..5 for x in 0..299);
--     by x % 3: integers 0..99 (low cardinality), 3 decimals (10^5 distinct), 6 decimals (10^9 distinct);
--     NULL values, NaN, NULL maps (id % 97 = 0), empty maps (id % 89 = 0).
CREATE TABLE src_b USING parquet AS
SELECT id,
  CASE WHEN id % 97 = 0 THEN NULL WHEN id % 89 = 0 THEN map() ELSE
    map_from_arrays(
      transform(sequence(0, 299), x -> concat('w', CAST(x * 6 + pmod(hash(id, x), 6) AS STRING))),
      transform(sequence(0, 299), x -> CASE WHEN pmod(hash(id, x, 1), 101) = 0 THEN CAST(NULL AS DOUBLE)
                                            WHEN pmod(hash(id, x, 2), 997) = 0 THEN CAST('NaN' AS DOUBLE)
                                            WHEN x % 3 = 0 THEN CAST(pmod(hash(id, x, 3), 100) AS DOUBLE)
                                            WHEN x % 3 = 1 THEN CAST(pmod(hash(id, x, 3), 100000) AS DOUBLE) / 1000
                                            ELSE CAST(pmod(hash(id, x, 3), 1000000000) AS DOUBLE) / 1000000 END)) END AS m
FROM range(300000);

-- (c) wide_bs: 200 000 rows, mb MAP<STRING, BIGINT> and ms MAP<STRING, STRING>, ~100 keys a row each
--     (key x*20 + 0..19, x in 0..99; ~1/20 of rows leave key slot x=99 out), high-cardinality values,
--     BIGINT extremes, empty and non-ASCII strings, NULL values, NULL and empty maps.
CREATE TABLE src_c USING parquet AS
SELECT id,
  CASE WHEN id % 97 = 0 THEN NULL WHEN id % 89 = 0 THEN map() ELSE
    map_from_arrays(
      transform(filter(sequence(0, 99), x -> x < 99 OR id % 20 != 3), x -> concat('b', CAST(x * 20 + pmod(hash(id, x), 20) AS STRING))),
      transform(filter(sequence(0, 99), x -> x < 99 OR id % 20 != 3),
                x -> CASE WHEN pmod(hash(id, x, 1), 101) = 0 THEN CAST(NULL AS BIGINT)
                          WHEN pmod(hash(id, x, 2), 4999) = 0 THEN 9223372036854775807
                          WHEN pmod(hash(id, x, 2), 4999) = 1 THEN -9223372036854775808
                          ELSE CAST(hash(id, x, 3) AS BIGINT) * 1000003 + id END)) END AS mb,
  CASE WHEN id % 103 = 0 THEN NULL WHEN id % 83 = 0 THEN map() ELSE
    map_from_arrays(
      transform(sequence(0, 99), x -> concat('s', CAST(x * 20 + pmod(hash(id, x, 4), 20) AS STRING))),
      transform(sequence(0, 99),
                x -> CASE WHEN pmod(hash(id, x, 5), 101) = 0 THEN CAST(NULL AS STRING)
                          WHEN pmod(hash(id, x, 5), 1009) = 1 THEN ''
                          WHEN pmod(hash(id, x, 5), 1009) = 2 THEN concat('température-', CAST(id AS STRING), '-日本')
                          ELSE concat('v', CAST(hash(id, x, 6) AS STRING), '_', CAST(id AS STRING)) END)) END AS ms
FROM range(200000);

CREATE DATABASE IF NOT EXISTS lake.db;
CREATE TABLE lake.db.wide_d120 (id BIGINT, m MAP<STRING, DOUBLE>)
  TBLPROPERTIES ('fields.m.map.storage-layout' = 'shared-shredding');
INSERT INTO lake.db.wide_d120 SELECT id, m FROM src_a;
CREATE TABLE lake.db.wide_d300 (id BIGINT, m MAP<STRING, DOUBLE>)
  TBLPROPERTIES ('fields.m.map.storage-layout' = 'shared-shredding');
INSERT INTO lake.db.wide_d300 SELECT id, m FROM src_b;
CREATE TABLE lake.db.wide_bs (id BIGINT, mb MAP<STRING, BIGINT>, ms MAP<STRING, STRING>)
  TBLPROPERTIES ('fields.mb.map.storage-layout' = 'shared-shredding', 'fields.ms.map.storage-layout' = 'shared-shredding');
INSERT INTO lake.db.wide_bs SELECT id, mb, ms FROM src_c;

INSERT OVERWRITE DIRECTORY 'oracle_wide_d120' USING json SELECT id, m FROM src_a;
INSERT OVERWRITE DIRECTORY 'oracle_wide_d300' USING json SELECT id, m FROM src_b;
INSERT OVERWRITE DIRECTORY 'oracle_wide_bs' USING json SELECT id, mb, ms FROM src_c;

-- (d) wide_mixed: 300 000 rows in phases of 30 000 ids: ids with id % 60000 < 30000 get low-cardinality values,
--     the others high-cardinality ones, so a column chunk can start with dictionary-encoded pages (pages are cut
--     at 20 000 rows) and fall back to PLAIN later in the same chunk.
--     m MAP<STRING, DOUBLE>: 100 keys a row of 1 600 (x*16 + 0..15), low: integers 0..99, high: 6 decimals;
--     s MAP<STRING, STRING>: 30 keys a row of 300, low: 50 distinct strings, high: unique strings;
--     b MAP<STRING, BIGINT>: 20 keys a row of 200, low: 0..99, high: hash-derived longs;
--     NULL values, NaN, -0.0, NULL maps, empty maps.
CREATE TABLE src_d USING parquet AS
SELECT id,
  CASE WHEN id % 97 = 0 THEN NULL WHEN id % 89 = 0 THEN map() ELSE
    map_from_arrays(
      transform(sequence(0, 99), x -> concat('k', CAST(x * 16 + pmod(hash(id, x), 16) AS STRING))),
      transform(sequence(0, 99), x -> CASE WHEN pmod(hash(id, x, 1), 101) = 0 THEN CAST(NULL AS DOUBLE)
                                           WHEN pmod(hash(id, x, 2), 997) = 0 THEN CAST('NaN' AS DOUBLE)
                                           WHEN pmod(hash(id, x, 8), 1993) = 0 THEN CAST('-0.0' AS DOUBLE)
                                           WHEN id % 60000 < 30000 THEN CAST(pmod(hash(id, x, 3), 100) AS DOUBLE)
                                           ELSE CAST(pmod(hash(id, x, 3), 1000000000) AS DOUBLE) / 1000000 END)) END AS m,
  CASE WHEN id % 103 = 0 THEN NULL WHEN id % 83 = 0 THEN map() ELSE
    map_from_arrays(
      transform(sequence(0, 29), x -> concat('s', CAST(x * 10 + pmod(hash(id, x, 4), 10) AS STRING))),
      transform(sequence(0, 29), x -> CASE WHEN pmod(hash(id, x, 5), 101) = 0 THEN CAST(NULL AS STRING)
                                           WHEN id % 60000 < 30000 THEN concat('low', CAST(pmod(hash(id, x, 6), 50) AS STRING))
                                           ELSE concat('v', CAST(hash(id, x, 6) AS STRING), '_', CAST(id AS STRING)) END)) END AS s,
  CASE WHEN id % 107 = 0 THEN NULL ELSE
    map_from_arrays(
      transform(sequence(0, 19), x -> concat('b', CAST(x * 10 + pmod(hash(id, x, 7), 10) AS STRING))),
      transform(sequence(0, 19), x -> CASE WHEN pmod(hash(id, x, 9), 101) = 0 THEN CAST(NULL AS BIGINT)
                                           WHEN id % 60000 < 30000 THEN CAST(pmod(hash(id, x, 10), 100) AS BIGINT)
                                           ELSE CAST(hash(id, x, 10) AS BIGINT) * 1000003 + id END)) END AS b
FROM range(300000);

CREATE TABLE lake.db.wide_mixed (id BIGINT, m MAP<STRING, DOUBLE>, s MAP<STRING, STRING>, b MAP<STRING, BIGINT>)
  TBLPROPERTIES ('fields.m.map.storage-layout' = 'shared-shredding', 'fields.s.map.storage-layout' = 'shared-shredding',
                 'fields.b.map.storage-layout' = 'shared-shredding');
INSERT INTO lake.db.wide_mixed SELECT id, m, s, b FROM src_d;
INSERT OVERWRITE DIRECTORY 'oracle_wide_mixed' USING json SELECT id, m, s, b FROM src_d;
