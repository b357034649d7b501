-- A five-minute tour of Strata: Paimon tables in Spark SQL. Safe to run again on the same warehouse.
CREATE NAMESPACE IF NOT EXISTS lake.tour;
DROP TABLE IF EXISTS lake.tour.orders;

-- A primary-key table: 4 fixed buckets, partitioned by day, deletion vectors on.
CREATE TABLE lake.tour.orders (
  order_id BIGINT NOT NULL,
  dt       STRING,
  customer STRING,
  amount   DECIMAL(10, 2),
  status   STRING,
  updated  TIMESTAMP
) PARTITIONED BY (dt)
TBLPROPERTIES ('primary-key' = 'order_id,dt', 'bucket' = '4', 'deletion-vectors.enabled' = 'true');

INSERT INTO lake.tour.orders
SELECT id, concat('2026-11-0', cast(id % 3 + 1 AS STRING)), concat('customer-', cast(id % 50 AS STRING)),
       cast(id % 997 AS DECIMAL(10, 2)), 'open', TIMESTAMP'2026-11-01 08:00:00'
FROM range(0, 100000);

-- Upserts: the latest row per key wins.
INSERT INTO lake.tour.orders
SELECT id, concat('2026-11-0', cast(id % 3 + 1 AS STRING)), concat('customer-', cast(id % 50 AS STRING)),
       cast(id % 997 AS DECIMAL(10, 2)), 'shipped', TIMESTAMP'2026-11-02 09:30:00'
FROM range(0, 100000) WHERE id % 10 = 0;

SELECT status, count(*) AS orders, sum(amount) AS total FROM lake.tour.orders GROUP BY status ORDER BY status;

-- Predicates are pushed into Paimon (partition and file pruning); EXPLAIN shows them.
EXPLAIN SELECT * FROM lake.tour.orders WHERE dt = '2026-11-02' AND amount > 900;

-- Compaction runs one Spark task per (partition, bucket) and commits one snapshot.
CALL lake.sys.compact(table => 'tour.orders');

-- Every commit is a snapshot; Paimon's system tables show them (also $files, $partitions, $schemas, ...).
SELECT snapshot_id, commit_kind, total_record_count FROM lake.tour.`orders$snapshots` ORDER BY snapshot_id;

-- Time travel to snapshot 2, the first INSERT's own compaction (COMPACT). On a deletion-vector table an
-- APPEND snapshot (here 1) shows only rows compacted by then, so pick COMPACT snapshots for time travel.
SELECT count(*) AS shipped_in_snapshot_2 FROM lake.tour.orders VERSION AS OF 2 WHERE status = 'shipped';
SELECT count(*) AS orders_in_snapshot_2 FROM lake.tour.orders VERSION AS OF 2;
SELECT count(*) AS shipped_now FROM lake.tour.orders WHERE status = 'shipped';

SHOW TBLPROPERTIES lake.tour.orders;

-- Static partition overwrite: replace one day.
INSERT OVERWRITE lake.tour.orders PARTITION (dt = '2026-11-01')
SELECT id, 'customer-0', cast(1 AS DECIMAL(10, 2)), 'rewritten', TIMESTAMP'2026-11-03 00:00:00' FROM range(0, 5);
SELECT dt, count(*) AS orders FROM lake.tour.orders GROUP BY dt ORDER BY dt;

-- Shredded MAP column: lookups read only the keys they use (see EXPLAIN).
DROP TABLE IF EXISTS lake.tour.metrics;
CREATE TABLE lake.tour.metrics (ts TIMESTAMP, host STRING, ext_map MAP<STRING, DOUBLE>)
TBLPROPERTIES ('fields.ext_map.map.storage-layout' = 'shared-shredding',
               'fields.ext_map.map.shared-shredding.max-columns' = '16');
INSERT INTO lake.tour.metrics
SELECT TIMESTAMP'2026-11-01 00:00:00' + make_interval(0, 0, 0, 0, 0, 0, id), concat('host-', cast(id % 5 AS STRING)),
       map_from_entries(transform(sequence(0, 9), i -> struct(concat('k', cast((id + i * 7) % 200 AS STRING)),
                                                             cast((id * i) % 100 AS DOUBLE))))
FROM range(0, 50000);
SELECT host, count(*) AS samples, avg(ext_map['k42']) AS avg_k42
FROM lake.tour.metrics WHERE ext_map['k42'] > 50 GROUP BY host ORDER BY host;
EXPLAIN SELECT ext_map['k42'] FROM lake.tour.metrics WHERE ext_map['k42'] > 50;

-- Full-text archives on a primary-key table, built by compaction, searched with BM25.
DROP TABLE IF EXISTS lake.tour.docs;
CREATE TABLE lake.tour.docs (id BIGINT, title STRING, body STRING)
TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2', 'deletion-vectors.enabled' = 'true',
               'strata-full-text.index.columns' = 'body',
               'fields.body.strata-full-text.index.options' = '{"analyzer":"english"}');
INSERT INTO lake.tour.docs VALUES
  (1, 'disk alarm', 'The disk reported a write failure during the nightly backup'),
  (2, 'network', 'Packets were dropped by the core switch'),
  (3, 'disk ok', 'Disks were replaced; no write failures since'),
  (4, 'backup', 'Backups completed, write throughput normal');
CALL lake.sys.compact(table => 'tour.docs');
SELECT id, title, _score FROM full_text_search('lake.tour.docs', 'body', 'disk AND "write failure"', 10);
