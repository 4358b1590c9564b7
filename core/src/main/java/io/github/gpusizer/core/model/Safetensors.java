package io.github.gpusizer.core.model;

import static com.google.common.base.Preconditions.checkNotNull;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.google.common.collect.ImmutableMap;
import java.io.CharConversionException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads the header of a local {@code .safetensors} file (or every shard named by a
 * {@code model.safetensors.index.json}) and reports the exact parameter count and the stored dtype, without reading
 * the weights.
 *
 * <pre>{@code
 * SafetensorsInfo info = Safetensors.read(Path.of("Llama-2-7b-hf/model.safetensors.index.json"));
 * info.parameters();    // 6,738,415,616
 * info.dominantDtype(); // "F16"
 * }</pre>
 *
 * <p>The format (github.com/huggingface/safetensors, README "Format"): 8 bytes holding the header length N as an
 * unsigned little-endian 64-bit integer, N bytes of a UTF-8 JSON object mapping each tensor name to
 * {@code {"dtype", "shape", "data_offsets": [begin, end]}} (plus an optional {@code "__metadata__"} map of strings),
 * then the tensor bytes. The reader is strict, as the reference implementation is: the declared header length is
 * checked against the file size and the 100,000,000-byte limit before anything is allocated; duplicate keys,
 * unknown dtypes, negative or overflowing shapes, offsets that disagree with dtype size × elements, and tensor data
 * that overlaps, leaves holes or runs past the file are all rejected with the tensor's name.
 */
public final class Safetensors {
  private Safetensors() {}

  /**
   * The reference implementation's header limit ({@code MAX_HEADER_SIZE = 100_000_000} in safetensors'
   * {@code tensor.rs}; README: "a limit on the size of the header of 100MB").
   */
  public static final long MAX_HEADER_BYTES = 100_000_000L;

  /**
   * Size of a {@code model.safetensors.index.json} at most: the largest published ones (DeepSeek-V3's 91,000-odd
   * tensors over 163 shards) are under 10 MB.
   */
  public static final long MAX_INDEX_BYTES = 64L << 20;

  /**
   * Tensors in one file, or named by one index, at most: published checkpoints hold a few thousand per file and
   * under 200,000 in all; each costs memory, and a 100 MB header could otherwise name almost two million.
   */
  public static final int MAX_TENSORS = 500_000;

  /** Bits per element of each safetensors dtype ({@code Dtype::bitsize} in safetensors' {@code tensor.rs}). */
  private static final ImmutableMap<String, Integer> DTYPE_BITS = ImmutableMap.<String, Integer>builder()
      .put("BOOL", 8).put("F4", 4).put("F6_E2M3", 6).put("F6_E3M2", 6)
      .put("U8", 8).put("I8", 8).put("F8_E5M2", 8).put("F8_E4M3", 8).put("F8_E8M0", 8)
      .put("F8_E4M3FNUZ", 8).put("F8_E5M2FNUZ", 8)
      .put("I16", 16).put("U16", 16).put("F16", 16).put("BF16", 16)
      .put("I32", 32).put("U32", 32).put("F32", 32)
      .put("I64", 64).put("U64", 64).put("F64", 64).put("C64", 64)
      .buildOrThrow();

  private static final String INDEX_SUFFIX = ".index.json";

  private record Tensor(String name, String dtype, long elements, long begin, long end, int line, int column) {}

  private record Header(SafetensorsInfo info, Set<String> tensors) {}

  /**
   * Reads a {@code .safetensors} file, or a sharded checkpoint's {@code *.safetensors.index.json} (then every shard
   * it names, in the same folder, is read and the counts add up).
   *
   * @throws ModelFileException if the file is missing, too short, declares a header longer than the file or than
   *     {@link #MAX_HEADER_BYTES}, its header is not valid JSON (line and column given) or breaks a rule of the
   *     format, or it holds no tensors
   * @throws UncheckedIOException if reading fails for another reason
   */
  public static SafetensorsInfo read(Path file) {
    checkNotNull(file, "file");
    Path name = file.getFileName();
    if (name != null && name.toString().endsWith(INDEX_SUFFIX)) {
      return readIndex(file);
    }
    return readFile(file, false).info();
  }

  private static Header readFile(Path file, boolean keepNames) {
    try {
      // Before opening: opening a FIFO blocks until a writer comes.
      ModelFiles.checkRegular(file, "a .safetensors file", Long.MAX_VALUE, "no limit");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = channel.size();
      if (size < Long.BYTES) {
        throw new ModelFileException(file, String.format(
            "is %d bytes, too short for a safetensors file (8-byte header length, then the header)", size));
      }
      ByteBuffer prefix = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
      readFully(channel, prefix, 0);
      long headerLength = prefix.flip().getLong(); // unsigned: negative means >= 2^63
      if (headerLength < 0 || headerLength > MAX_HEADER_BYTES) {
        throw new ModelFileException(file, String.format(
            "declares a header of %s bytes, more than the format's limit of %,d bytes",
            Long.toUnsignedString(headerLength), MAX_HEADER_BYTES));
      }
      if (headerLength > size - Long.BYTES) {
        throw new ModelFileException(file, String.format(
            "declares a header of %,d bytes but only %,d bytes follow the length field", headerLength,
            size - Long.BYTES));
      }
      if (headerLength < 2) {
        throw new ModelFileException(file, String.format(
            "declares a header of %d bytes, too short for a JSON object", headerLength));
      }
      ByteBuffer header = ByteBuffer.allocate((int) headerLength);
      readFully(channel, header, Long.BYTES);
      return parse(file, header.array(), size - Long.BYTES - headerLength, keepNames);
    } catch (NoSuchFileException e) {
      throw new ModelFileException(file, "file not found", e);
    } catch (CharConversionException e) {
      throw JsonConfig.notText(file, e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  private static void readFully(FileChannel channel, ByteBuffer into, long position) throws IOException {
    long at = position;
    while (into.hasRemaining()) {
      int n = channel.read(into, at);
      if (n < 0) {
        throw new IOException("file ended early at byte " + at);
      }
      at += n;
    }
  }

  private static Header parse(Path file, byte[] header, long dataBytes, boolean keepNames) throws IOException {
    List<Tensor> tensors = new ArrayList<>();
    try (JsonParser p = JsonConfig.FACTORY.createParser(header)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw JsonConfig.at(file, p.currentTokenLocation(), "header must be a JSON object", null);
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        JsonToken value = p.nextToken();
        if (value != JsonToken.START_OBJECT) {
          throw JsonConfig.at(file, p.currentTokenLocation(),
              String.format("'%s' must be an object, was %s", key, JsonConfig.describe(p)), null);
        }
        if (key.equals("__metadata__")) {
          readMetadata(file, p);
        } else {
          if (tensors.size() == MAX_TENSORS) {
            throw JsonConfig.at(file, p.currentTokenLocation(), String.format(
                "holds more than %,d tensors, the limit of one file", MAX_TENSORS), null);
          }
          tensors.add(readTensor(file, p, key));
        }
      }
      if (p.nextToken() != null) {
        throw JsonConfig.at(file, p.currentTokenLocation(), "unexpected content after the header object", null);
      }
    } catch (JsonProcessingException e) {
      throw JsonConfig.notJson(file, e);
    }
    if (tensors.isEmpty()) {
      throw new ModelFileException(file, "holds no tensors");
    }
    checkLayout(file, tensors, dataBytes);
    Map<String, Long> byDtype = new TreeMap<>();
    long total = 0;
    Set<String> names = new HashSet<>();
    for (Tensor t : tensors) {
      byDtype.merge(t.dtype(), t.elements(), Math::addExact);
      total = Math.addExact(total, t.elements());
      if (keepNames) {
        names.add(t.name());
      }
    }
    return new Header(info(total, byDtype, header.length), names);
  }

  private static SafetensorsInfo info(long total, Map<String, Long> byDtype, long headerBytes) {
    String dominant = byDtype.entrySet().stream()
        .max(Comparator.<Map.Entry<String, Long>>comparingLong(Map.Entry::getValue)
            .thenComparing(Map.Entry::getKey, Comparator.reverseOrder()))
        .orElseThrow().getKey();
    return new SafetensorsInfo(total, ImmutableMap.copyOf(byDtype), dominant, headerBytes);
  }

  private static void readMetadata(Path file, JsonParser p) throws IOException {
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String key = p.currentName();
      if (p.nextToken() != JsonToken.VALUE_STRING) {
        throw JsonConfig.at(file, p.currentTokenLocation(), String.format(
            "__metadata__ maps text to text; '%s' is %s", key, JsonConfig.describe(p)), null);
      }
    }
  }

  private static Tensor readTensor(Path file, JsonParser p, String name) throws IOException {
    JsonLocation where = p.currentTokenLocation();
    String dtype = null;
    long elements = -1;
    long[] offsets = null;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken value = p.nextToken();
      switch (field) {
        case "dtype" -> {
          if (value != JsonToken.VALUE_STRING || !DTYPE_BITS.containsKey(p.getText())) {
            throw JsonConfig.at(file, p.currentTokenLocation(), String.format(
                "tensor '%s': dtype must be one of %s, was %s", name, String.join(", ", DTYPE_BITS.keySet()),
                JsonConfig.describe(p)), null);
          }
          dtype = p.getText();
        }
        case "shape" -> elements = product(file, p, name, readLongs(file, p, name, "shape"));
        case "data_offsets" -> {
          offsets = readLongs(file, p, name, "data_offsets");
          if (offsets.length != 2 || offsets[0] > offsets[1]) {
            throw JsonConfig.at(file, p.currentTokenLocation(), String.format(
                "tensor '%s': data_offsets must be [begin, end] with begin <= end, was %s", name,
                Arrays.toString(offsets)), null);
          }
        }
        default -> throw JsonConfig.at(file, p.currentTokenLocation(), String.format(
            "tensor '%s': unexpected field '%s' (a tensor has dtype, shape and data_offsets)", name, field), null);
      }
    }
    if (dtype == null || elements < 0 || offsets == null) {
      String missing = dtype == null ? "dtype" : elements < 0 ? "shape" : "data_offsets";
      throw JsonConfig.at(file, where, String.format("tensor '%s' has no %s", name, missing), null);
    }
    long bits = DTYPE_BITS.get(dtype);
    long bytes;
    try {
      long totalBits = Math.multiplyExact(elements, bits);
      if (totalBits % 8 != 0) {
        throw JsonConfig.at(file, where, String.format(
            "tensor '%s': %,d elements of %s do not fill whole bytes", name, elements, dtype), null);
      }
      bytes = totalBits / 8;
    } catch (ArithmeticException e) {
      throw JsonConfig.at(file, where, String.format("tensor '%s': its byte size overflows", name), e);
    }
    if (offsets[1] - offsets[0] != bytes) {
      throw JsonConfig.at(file, where, String.format(
          "tensor '%s': data_offsets [%d, %d] span %,d bytes, but %,d elements of %s take %,d bytes", name,
          offsets[0], offsets[1], offsets[1] - offsets[0], elements, dtype, bytes), null);
    }
    return new Tensor(name, dtype.intern(), elements, offsets[0], offsets[1], where.getLineNr(), where.getColumnNr());
  }

  private static long[] readLongs(Path file, JsonParser p, String tensor, String field) throws IOException {
    if (p.currentToken() != JsonToken.START_ARRAY) {
      throw JsonConfig.at(file, p.currentTokenLocation(), String.format(
          "tensor '%s': %s must be an array of non-negative integers, was %s", tensor, field,
          JsonConfig.describe(p)), null);
    }
    List<Long> values = new ArrayList<>();
    while (p.nextToken() != JsonToken.END_ARRAY) {
      if (p.currentToken() != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
          || p.getLongValue() < 0) {
        throw JsonConfig.at(file, p.currentTokenLocation(), String.format(
            "tensor '%s': %s must hold non-negative integers that fit 64 bits, found %s", tensor, field,
            JsonConfig.describe(p)), null);
      }
      values.add(p.getLongValue());
    }
    return values.stream().mapToLong(Long::longValue).toArray();
  }

  private static long product(Path file, JsonParser p, String tensor, long[] shape) {
    long n = 1;
    for (long dim : shape) {
      try {
        n = Math.multiplyExact(n, dim);
      } catch (ArithmeticException e) {
        throw JsonConfig.at(file, p.currentTokenLocation(), String.format(
            "tensor '%s': shape %s has more elements than fit 64 bits", tensor, Arrays.toString(shape)),
            e);
      }
    }
    return n;
  }

  /** The tensors must tile the data section exactly: no overlap, no hole, nothing past its end. */
  private static void checkLayout(Path file, List<Tensor> tensors, long dataBytes) {
    List<Tensor> sorted = new ArrayList<>(tensors);
    sorted.sort(Comparator.comparingLong(Tensor::begin).thenComparingLong(Tensor::end));
    long expected = 0;
    for (Tensor t : sorted) {
      if (t.begin() < expected) {
        throw at(file, t, String.format(
            "tensor '%s' at bytes [%d, %d) overlaps the tensor before it, which ends at %d", t.name(), t.begin(),
            t.end(), expected));
      }
      if (t.begin() > expected) {
        throw at(file, t, String.format(
            "tensor '%s' starts at byte %d, leaving a hole after byte %d (the format forbids holes)", t.name(),
            t.begin(), expected));
      }
      expected = t.end();
    }
    if (expected != dataBytes) {
      throw new ModelFileException(file, String.format(
          "tensors cover %,d bytes of data but %,d bytes follow the header", expected, dataBytes));
    }
  }

  private static ModelFileException at(Path file, Tensor t, String problem) {
    return t.line() > 0 ? new ModelFileException(file, t.line(), t.column(), problem, null)
        : new ModelFileException(file, problem);
  }

  private static SafetensorsInfo readIndex(Path index) {
    Map<String, String> weightMap = new LinkedHashMap<>();
    Map<String, String> shardNames = new HashMap<>(); // one String per shard, not one per tensor
    try (InputStream in = ModelFiles.open(index, "a JSON index file", MAX_INDEX_BYTES, "an index's limit");
         JsonParser p = JsonConfig.FACTORY.createParser(in)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw JsonConfig.at(index, p.currentTokenLocation(), "an index must be a JSON object", null);
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        JsonToken value = p.nextToken();
        if (key.equals("weight_map")) {
          if (value != JsonToken.START_OBJECT) {
            throw JsonConfig.at(index, p.currentTokenLocation(),
                "weight_map must be an object of tensor name to shard file, was " + JsonConfig.describe(p), null);
          }
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String tensor = p.currentName();
            if (p.nextToken() != JsonToken.VALUE_STRING || !isShardName(p.getText())) {
              throw JsonConfig.at(index, p.currentTokenLocation(), String.format(
                  "weight_map['%s'] must name a .safetensors file in the same folder, was %s", tensor,
                  JsonConfig.describe(p)), null);
            }
            if (weightMap.size() == MAX_TENSORS) {
              throw JsonConfig.at(index, p.currentTokenLocation(), String.format(
                  "weight_map names more than %,d tensors, the limit of one index", MAX_TENSORS), null);
            }
            String shard = p.getText();
            weightMap.put(tensor, shardNames.computeIfAbsent(shard, k -> k));
          }
        } else {
          p.skipChildren();
        }
      }
    } catch (NoSuchFileException e) {
      throw new ModelFileException(index, "file not found", e);
    } catch (JsonProcessingException e) {
      throw JsonConfig.notJson(index, e);
    } catch (CharConversionException e) {
      throw JsonConfig.notText(index, e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + index, e);
    }
    if (weightMap.isEmpty()) {
      throw new ModelFileException(index, "has no weight_map entries, so names no shards");
    }
    Path folder = index.toAbsolutePath().getParent();
    Map<String, Header> shards = new LinkedHashMap<>();
    for (String shard : new LinkedHashSet<>(weightMap.values())) {
      shards.put(shard, readFile(folder.resolve(shard), true));
    }
    weightMap.forEach((tensor, shard) -> {
      if (!shards.get(shard).tensors().contains(tensor)) {
        throw new ModelFileException(index, String.format(
            "weight_map puts tensor '%s' in %s, which does not hold it", tensor, shard));
      }
    });
    Map<String, Long> byDtype = new TreeMap<>();
    long total = 0;
    long headerBytes = 0;
    for (Header h : shards.values()) {
      h.info().parametersByDtype().forEach((dtype, n) -> byDtype.merge(dtype, n, Math::addExact));
      total = Math.addExact(total, h.info().parameters());
      headerBytes += h.info().headerBytes();
    }
    return info(total, byDtype, headerBytes);
  }

  private static boolean isShardName(String name) {
    return name.endsWith(".safetensors") && !name.contains("/") && !name.contains("\\") && !name.startsWith(".");
  }
}
