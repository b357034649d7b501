package dev.strata.spark.metrics;

import org.apache.spark.sql.connector.metric.CustomTaskMetric;

/** One reported value of a Strata scan metric. */
final class TaskMetricValue implements CustomTaskMetric {

    private final String name;
    private final long value;

    TaskMetricValue(String name, long value) {
        this.name = name;
        this.value = value;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long value() {
        return value;
    }
}
