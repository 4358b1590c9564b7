/** Example: the smallest complete use of the library, sizing LoRA fine-tuning of Llama-2-7B within 24 hours. */
package io.github.gpusizer.examples.quickstart;
