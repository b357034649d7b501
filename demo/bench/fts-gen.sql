-- Full-text search at a user's defaults: 200 000 documents of ~200 bytes (a 5 000-word vocabulary, 30 words each),
-- 2 partitions x 4 buckets, deletion vectors, every row archived by CALL compact. A planted rare term
-- 'strataneedle' is in 7 documents. Run demo/bench/fts-q.sql after it.
CREATE NAMESPACE IF NOT EXISTS lake.d;
DROP TABLE IF EXISTS lake.d.docs;
CREATE TABLE lake.d.docs (id BIGINT NOT NULL, dt STRING, body STRING) PARTITIONED BY (dt)
TBLPROPERTIES ('primary-key' = 'dt,id', 'bucket' = '4', 'deletion-vectors.enabled' = 'true',
               'strata-full-text.index.columns' = 'body');
INSERT INTO lake.d.docs
SELECT id, concat('d', cast(id % 2 AS STRING)),
       concat_ws(' ', transform(sequence(1, 30), i -> concat('w', cast(pmod(hash(id, i), 5000) AS STRING))))
         || CASE WHEN id % (200000 div 7) = 3 THEN ' strataneedle' ELSE '' END
FROM range(0, 200000);
CALL lake.sys.compact(table => 'd.docs');
SELECT count(*), avg(length(body)) FROM lake.d.docs;
