-- Shredded MAP at a user's defaults: a shredded table, the same table in Paimon's default layout, and Spark parquet
-- tables with a plain MAP and with the queried keys flattened (under /tmp/strata-bench). Run the matching shredded-q-*.sql after it. Delete /tmp/strata-bench before running it again.
CREATE NAMESPACE IF NOT EXISTS lake.u;
DROP TABLE IF EXISTS lake.u.shred_hi;
DROP TABLE IF EXISTS lake.u.pdefault_hi;
CREATE TABLE lake.u.shred_hi (id BIGINT, m MAP<STRING, DOUBLE>) TBLPROPERTIES ('fields.m.map.storage-layout' = 'shared-shredding');
CREATE TABLE lake.u.pdefault_hi (id BIGINT, m MAP<STRING, DOUBLE>);
CREATE OR REPLACE TEMPORARY VIEW src AS SELECT id, map_from_arrays(
  transform(sequence(0, 39), i -> CASE WHEN i = 0 THEN 'hot' WHEN i = 1 AND id % 1000 = 7 THEN 'rare' ELSE concat('key_', cast((id % 50) * 40 + i AS STRING)) END),
  transform(sequence(0, 39), i -> CAST(pmod(hash(id, i), 1000000) AS DOUBLE) / 10000)) AS m FROM range(2000000);
INSERT INTO lake.u.shred_hi SELECT * FROM src;
INSERT INTO lake.u.pdefault_hi SELECT * FROM src;
CREATE TABLE spark_catalog.default.pmap_hi USING parquet LOCATION '/tmp/strata-bench/pmap_hi' AS SELECT * FROM src;
CREATE TABLE spark_catalog.default.pflat_hi USING parquet LOCATION '/tmp/strata-bench/pflat_hi' AS SELECT id, m['hot'] AS hot, m['rare'] AS rare FROM src;
