package io.github.gpusizer.core.model;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import java.io.CharConversionException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The scalar fields of a small JSON configuration file, read with jackson-core's streaming parser; nested objects
 * are flattened to dotted keys ({@code attn_config.alibi}), arrays are kept only as "an array". Typed accessors fail
 * with a {@link ModelFileException} that names the field, the expected type, the value found and its line and
 * column.
 */
final class JsonConfig {

  /** Configuration files are a few kilobytes; anything this large is not one (probably a weights file). */
  static final long MAX_BYTES = 16L << 20;

  /**
   * Fields kept at most, nested ones included (a Hugging Face config has a few hundred): each costs memory, and a
   * 16 MiB file could otherwise hold 1.6 million.
   */
  static final int MAX_FIELDS = 100_000;

  /**
   * Characters of a flattened, dotted key at most: nested objects repeat their prefix in every key below them, so
   * without a limit 990 levels of 16,000-character names would flatten to gigabytes.
   */
  static final int MAX_KEY_CHARS = 1_000;

  /** Strict: duplicate keys are an error, not "last one wins". */
  static final JsonFactory FACTORY = JsonFactory.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .build();

  enum Kind {
    STRING("a string"),
    INTEGER("an integer"),
    NUMBER("a number"),
    BOOLEAN("a boolean"),
    NULL("null"),
    OBJECT("an object"),
    ARRAY("an array");

    private final String description;

    Kind(String description) {
      this.description = description;
    }
  }

  record Value(Kind kind, String text, int line, int column) {}

  private final Path file;
  private final Map<String, Value> fields;

  private JsonConfig(Path file, Map<String, Value> fields) {
    this.file = file;
    this.fields = fields;
  }

  /**
   * Reads {@code file}, which must hold one JSON object.
   *
   * @throws ModelFileException if the file is missing, too large, not JSON or not an object
   * @throws UncheckedIOException if reading fails for another reason
   */
  static JsonConfig read(Path file) {
    try (InputStream in = ModelFiles.open(file, ModelFiles.CONFIG, MAX_BYTES, "a configuration file's limit");
         JsonParser parser = FACTORY.createParser(in)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        throw new ModelFileException(file, "is empty; expected a JSON object");
      }
      if (first != JsonToken.START_OBJECT) {
        throw at(file, parser.currentTokenLocation(), "must hold a JSON object, found " + describe(parser), null);
      }
      Map<String, Value> fields = new LinkedHashMap<>();
      readObject(file, parser, "", fields);
      if (parser.nextToken() != null) {
        throw at(file, parser.currentTokenLocation(), "unexpected content after the JSON object", null);
      }
      return new JsonConfig(file, fields);
    } catch (JsonProcessingException e) {
      throw notJson(file, e);
    } catch (CharConversionException e) {
      throw notText(file, e);
    } catch (NoSuchFileException e) {
      throw new ModelFileException(file, "file not found", e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /**
   * Bytes the JSON parser cannot decode: it guesses UTF-16 or UTF-32 from leading zero bytes and then finds
   * invalid characters. The file was read; its content is bad, so this is not an I/O error.
   */
  static ModelFileException notText(Path file, CharConversionException e) {
    return new ModelFileException(file, "not valid JSON text: " + e.getMessage(), e);
  }

  static ModelFileException notJson(Path file, JsonProcessingException e) {
    JsonLocation where = e.getLocation();
    return at(file, where, "not valid JSON: " + e.getOriginalMessage(), e);
  }

  static ModelFileException at(Path file, JsonLocation where, String problem, Throwable cause) {
    return where == null || where.getLineNr() < 1
        ? new ModelFileException(file, problem, cause)
        : new ModelFileException(file, where.getLineNr(), where.getColumnNr(), problem, cause);
  }

  static String describe(JsonParser parser) throws IOException {
    JsonToken t = parser.currentToken();
    return switch (t) {
      case START_ARRAY -> "an array";
      case START_OBJECT -> "an object";
      case VALUE_STRING -> "the string \"" + parser.getText() + "\"";
      default -> parser.getText();
    };
  }

  private static void readObject(Path file, JsonParser parser, String prefix, Map<String, Value> fields)
      throws IOException {
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String name = parser.currentName();
      JsonLocation nameAt = parser.currentTokenLocation();
      if ((long) prefix.length() + name.length() > MAX_KEY_CHARS) {
        throw at(file, nameAt, String.format("field '%s' has a dotted name of %,d characters, more than the limit "
            + "of %,d", abbreviate(prefix + name.substring(0, Math.min(name.length(), 80))),
            (long) prefix.length() + name.length(), MAX_KEY_CHARS), null);
      }
      String key = prefix + name;
      JsonToken token = parser.nextToken();
      JsonLocation where = parser.currentTokenLocation();
      int line = where.getLineNr();
      int column = where.getColumnNr();
      Value value = switch (token) {
        case START_OBJECT -> new Value(Kind.OBJECT, "{...}", line, column);
        case START_ARRAY -> new Value(Kind.ARRAY, "[...]", line, column);
        case VALUE_STRING -> new Value(Kind.STRING, parser.getText(), line, column);
        case VALUE_NUMBER_INT -> new Value(Kind.INTEGER, parser.getText(), line, column);
        case VALUE_NUMBER_FLOAT -> new Value(Kind.NUMBER, parser.getText(), line, column);
        case VALUE_TRUE, VALUE_FALSE -> new Value(Kind.BOOLEAN, parser.getText(), line, column);
        case VALUE_NULL -> new Value(Kind.NULL, "null", line, column);
        default -> throw at(file, where, "unexpected " + token + " in field '" + key + "'", null);
      };
      Value before = fields.putIfAbsent(key, value);
      if (before != null) {
        // Jackson catches a name given twice in one object; this is "a.b" beside "a": {"b": ...}.
        throw at(file, nameAt, String.format("field '%s' is given twice: here and at line %d, column %d (a dotted "
            + "name and a nested object name the same field)", abbreviate(key), before.line(), before.column()),
            null);
      }
      if (fields.size() > MAX_FIELDS) {
        throw at(file, nameAt, String.format("holds more than %,d fields (nested ones included); a configuration "
            + "file has a few hundred", MAX_FIELDS), null);
      }
      if (token == JsonToken.START_OBJECT) {
        readObject(file, parser, key + ".", fields);
      } else if (token == JsonToken.START_ARRAY) {
        parser.skipChildren();
      }
    }
  }

  private static String abbreviate(String key) {
    return key.length() <= 120 ? key : key.substring(0, 60) + "..." + key.substring(key.length() - 40);
  }

  Path file() {
    return file;
  }

  /** The string field, or empty if absent or null. */
  Optional<String> string(String key) {
    Value v = present(key);
    if (v == null) {
      return Optional.empty();
    }
    expect(key, v, Kind.STRING);
    return Optional.of(v.text());
  }

  /** The string field, which must be there. */
  String requireString(String key, String why) {
    return string(key).orElseThrow(() -> missing(key, why));
  }

  /** The integer field, or empty if absent or null; if present it must be an integer from 1 to 2^31 − 1. */
  OptionalInt positiveInt(String key) {
    Value v = present(key);
    if (v == null) {
      return OptionalInt.empty();
    }
    expect(key, v, Kind.INTEGER);
    long n;
    try {
      n = Long.parseLong(v.text());
    } catch (NumberFormatException e) {
      n = Long.MAX_VALUE; // more digits than a long: out of range below
    }
    if (n < 1 || n > Integer.MAX_VALUE) {
      throw error(v, String.format("field '%s' must be an integer from 1 to %,d, was %s", key, Integer.MAX_VALUE,
          v.text()));
    }
    return OptionalInt.of((int) n);
  }

  /** The positive integer field, which must be there. */
  int requirePositiveInt(String key, String why) {
    OptionalInt n = positiveInt(key);
    if (n.isEmpty()) {
      throw missing(key, why);
    }
    return n.getAsInt();
  }

  /** The boolean field, or {@code otherwise} if absent or null. */
  boolean bool(String key, boolean otherwise) {
    Value v = present(key);
    if (v == null) {
      return otherwise;
    }
    expect(key, v, Kind.BOOLEAN);
    return Boolean.parseBoolean(v.text());
  }

  private Value present(String key) {
    Value v = fields.get(key);
    return v == null || v.kind() == Kind.NULL ? null : v;
  }

  private void expect(String key, Value v, Kind kind) {
    if (v.kind() != kind) {
      String found = v.kind() == Kind.STRING ? "\"" + v.text() + "\"" : v.kind().description + " " + v.text();
      throw error(v, String.format("field '%s' must be %s, was %s", key, kind.description,
          v.kind() == Kind.STRING ? "the string " + found : found));
    }
  }

  ModelFileException error(String key, String problem) {
    Value v = fields.get(key);
    return v == null ? new ModelFileException(file, problem) : error(v, problem);
  }

  private ModelFileException error(Value v, String problem) {
    return new ModelFileException(file, v.line(), v.column(), problem, null);
  }

  private ModelFileException missing(String key, String why) {
    Value v = fields.get(key);
    String state = v == null ? "which is missing" : "which is null";
    return v == null
        ? new ModelFileException(file, String.format("%s needs field '%s', %s", why, key, state))
        : error(v, String.format("%s needs field '%s', %s", why, key, state));
  }
}
