/**
 * The architecture of a model as sizing needs it: a sealed {@link io.github.gpusizer.core.model.ModelSpec} for
 * transformers, convolutional networks, recurrent networks and anything else; {@link
 * io.github.gpusizer.core.model.Presets} of well-known models, each with its source; and importers for local Hugging
 * Face {@code config.json} ({@link io.github.gpusizer.core.model.HuggingFaceConfig}) and {@code .safetensors}
 * ({@link io.github.gpusizer.core.model.Safetensors}) files. Image-model presets are walked layer by layer by a
 * package-private calculator, so their parameters, FLOPs and activations follow from the architecture.
 */
package io.github.gpusizer.core.model;
