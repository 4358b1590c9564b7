package io.github.gpusizer.core.serving;

/** Predicted latencies of one replica under its share of the traffic, in seconds. */
record Latency(double ttftP50Seconds, double ttftP95Seconds, double tpotP50Seconds, double tpotP95Seconds) {}
