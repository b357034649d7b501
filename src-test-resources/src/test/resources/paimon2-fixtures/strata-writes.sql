CREATE TABLE src USING parquet AS
SELECT id,
  CASE WHEN id % 97 = 0 THEN NULL WHEN id % 89 = 0 THEN map() ELSE
    map_from_arrays(
      transform(sequence(0, 39), x -> concat('k', CAST(x * 50 + pmod(hash(id, x), 50) AS STRING))),
      transform(sequence(0, 39), x -> CASE WHEN pmod(hash(id, x, 1), 101) = 0 THEN CAST(NULL AS DOUBLE)
                                           WHEN pmod(hash(id, x, 2), 997) = 0 THEN CAST('NaN' AS DOUBLE)
                                           WHEN pmod(hash(id, x, 9), 1999) = 0 THEN CAST('-Infinity' AS DOUBLE)
                                           ELSE pmod(hash(id, x, 3), 100000) / 1000.0 END)) END AS d,
  CASE WHEN id % 101 = 0 THEN NULL ELSE
    map_from_arrays(
      transform(filter(sequence(0, 19), x -> pmod(hash(id, x, 4), 4) = 0), x -> concat('i', CAST(x AS STRING))),
      transform(filter(sequence(0, 19), x -> pmod(hash(id, x, 4), 4) = 0),
                x -> CASE WHEN pmod(hash(id, x, 10), 53) = 0 THEN CAST(NULL AS INT) ELSE pmod(hash(id, x, 5), 1000) - 500 END)) END AS i,
  CASE WHEN id % 103 = 0 THEN NULL ELSE
    map_from_arrays(
      transform(sequence(0, 59), x -> concat('f', CAST(x * 7 + pmod(hash(id, x, 6), 7) AS STRING))),
      transform(sequence(0, 59), x -> CASE WHEN pmod(hash(id, x, 11), 499) = 0 THEN CAST('NaN' AS FLOAT)
                                           ELSE CAST(pmod(hash(id, x, 7), 4000) / 4.0 AS FLOAT) END)) END AS f,
  CASE WHEN id % 107 = 0 THEN NULL ELSE
    map_from_arrays(
      array_distinct(transform(sequence(0, 9), x -> concat('t', CAST(floor(power(pmod(hash(id, x, 8), 10000) / 10000.0, 3) * 3000) AS STRING)))),
      transform(array_distinct(transform(sequence(0, 9), x -> concat('t', CAST(floor(power(pmod(hash(id, x, 8), 10000) / 10000.0, 3) * 3000) AS STRING)))),
                k -> CAST(hash(id, k) AS BIGINT) * 1000003)) END AS b
FROM range(200000);

CREATE DATABASE IF NOT EXISTS lake.db;
CREATE TABLE lake.db.append_mix (id BIGINT, d MAP<STRING, DOUBLE>, i MAP<STRING, INT>, f MAP<STRING, FLOAT>, b MAP<STRING, BIGINT>)
TBLPROPERTIES ('fields.d.map.storage-layout' = 'shared-shredding', 'fields.i.map.storage-layout' = 'shared-shredding',
  'fields.f.map.storage-layout' = 'shared-shredding', 'fields.b.map.storage-layout' = 'shared-shredding');
INSERT INTO lake.db.append_mix SELECT * FROM src;

CREATE TABLE lake.db.append_small_groups (id BIGINT, d MAP<STRING, DOUBLE>, f MAP<STRING, FLOAT>)
TBLPROPERTIES ('fields.d.map.storage-layout' = 'shared-shredding', 'fields.f.map.storage-layout' = 'shared-shredding',
  'file.block-size' = '1 mb');
INSERT INTO lake.db.append_small_groups SELECT id, d, f FROM src;

CREATE TABLE lake.db.pk_mix (id BIGINT NOT NULL, d MAP<STRING, DOUBLE>, i MAP<STRING, INT>)
TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2', 'deletion-vectors.enabled' = 'true',
  'fields.d.map.storage-layout' = 'shared-shredding', 'fields.i.map.storage-layout' = 'shared-shredding');
INSERT INTO lake.db.pk_mix SELECT id, d, i FROM src WHERE id < 100000;
UPDATE lake.db.pk_mix SET d = map('u', CAST(id AS DOUBLE), 'k1', 0.5) WHERE id % 7 = 0;
DELETE FROM lake.db.pk_mix WHERE id % 11 = 0;
CALL lake.sys.compact(table => 'db.pk_mix');

INSERT OVERWRITE DIRECTORY 'oracle_append_mix' USING json SELECT id, d, i, f, b FROM src;
INSERT OVERWRITE DIRECTORY 'oracle_append_small_groups' USING json SELECT id, d, f FROM src;
INSERT OVERWRITE DIRECTORY 'oracle_pk_mix' USING json
  SELECT id, CASE WHEN id % 7 = 0 THEN map('u', CAST(id AS DOUBLE), 'k1', 0.5) ELSE d END AS d, i
  FROM src WHERE id < 100000 AND id % 11 != 0;
