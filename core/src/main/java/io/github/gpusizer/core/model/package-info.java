/**
 * The architecture of a model as sizing needs it: a sealed {@link io.github.gpusizer.core.model.ModelSpec} for
 * transformers, convolutional networks, recurrent networks and anything else, presets of well-known models, and
 * importers for local Hugging Face {@code config.json} and {@code .safetensors} files.
 */
package io.github.gpusizer.core.model;
