/**
 * What is done with a model: a {@link io.github.gpusizer.core.task.Task} (training, adapter fine-tuning or
 * inference, with its batch, precision, optimizer and memory recipe) and the
 * {@link io.github.gpusizer.core.task.Layout} that spreads it over GPUs.
 */
package io.github.gpusizer.core.task;
