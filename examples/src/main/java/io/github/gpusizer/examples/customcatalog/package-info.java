/**
 * Example: your own prices (the library's offerings CSV) and a SkyPilot catalog file, alone or laid over the
 * bundled catalog.
 */
package io.github.gpusizer.examples.customcatalog;
