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

-- Time travel to the first snapshot.
SELECT count(*) AS shipped_in_snapshot_1 FROM lake.tour.orders VERSION AS OF 1 WHERE status = 'shipped';
SELECT count(*) AS shipped_now FROM lake.tour.orders WHERE status = 'shipped';

SHOW TBLPROPERTIES lake.tour.orders;
