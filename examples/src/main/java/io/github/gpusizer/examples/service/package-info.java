/** Example: the sizer embedded in a small JSON service on the JDK's own HTTP server. */
package io.github.gpusizer.examples.service;
