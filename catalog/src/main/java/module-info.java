/** GPUs, cloud offerings and prices: immutable records, the bundled catalog and strict loaders. */
module io.github.gpusizer.catalog {
  requires transitive com.google.common;
  requires org.apache.commons.csv;

  exports io.github.gpusizer.catalog;
}
