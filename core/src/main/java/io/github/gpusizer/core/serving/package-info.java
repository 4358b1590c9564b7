/**
 * Sizing online inference: which GPU, what tensor-parallel degree and how many replicas serve a traffic level
 * (requests per second, prompt and output lengths) within latency targets (time to first token, time per output
 * token), at what cost per hour and per million output tokens. {@link io.github.gpusizer.core.serving.ServingSizer}
 * is the entry point; the engine and queueing models behind it are package-private.
 */
package io.github.gpusizer.core.serving;
