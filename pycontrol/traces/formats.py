"""Spark parsers of raw traces, one per input format.

Every format works in two steps:

- `lines(spark, paths)`: one row per non-blank input line (CSV: per record) with `_seq` (input
  order), `_raw` (the line, for error reports), `_bad` (null, or why the line cannot be used) and
  the format's fields as strings. A bad line is tagged, never raised, so a trace with some garbage
  still prepares and the caller decides when there is too much of it.
- `events(good_lines)`: the events of the good lines as `t_ms` (epoch or synthetic milliseconds),
  `key`, `payload` (string or null), and `seq`/`pos`, which order events of the same millisecond
  as they came in.

Keys and payloads are picked from named fields; several fields are joined with "|". An event
whose key field is missing or empty is a bad line. Spark 4 runs with ANSI mode on, so every
conversion uses try_* functions: an unparseable value becomes null and then a `_bad` reason.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from pyspark.sql import Column, DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import StringType, StructField, StructType

from pycontrol.traces.errors import TraceError

JOIN = "|"
SEQ, RAW, BAD = "_seq", "_raw", "_bad"
EVENT_COLUMNS = ("t_ms", "key", "payload", "seq", "pos")


@dataclass(frozen=True)
class Fields:
    """Which named fields of a record make the key and the payload."""
    key: tuple[str, ...]
    payload: tuple[str, ...] = ()


class TraceFormat(ABC):
    name: str
    known_fields: tuple[str, ...] = ()
    synthetic_time = False  # True when event times are made up (text has none of its own)

    def __init__(self, fields: Fields):
        self.fields = fields
        if self.known_fields:
            self._check_fields(self.known_fields)

    @abstractmethod
    def lines(self, spark: SparkSession, paths: list[str]) -> DataFrame:
        """Tagged lines: _seq, _raw, _bad and the fields."""

    @abstractmethod
    def events(self, good: DataFrame) -> DataFrame:
        """t_ms, key, payload, seq, pos of the good lines."""

    def describe(self) -> dict:
        return {"format": self.name, "key": list(self.fields.key), "payload": list(self.fields.payload)}

    # -- shared pieces -----------------------------------------------------------------------

    def _check_fields(self, available) -> None:
        if not self.fields.key:
            raise TraceError(f"{self.name}: give at least one key field (--key-col)")
        wanted = list(self.fields.key) + list(self.fields.payload)
        unknown = [f for f in wanted if f not in available]
        if unknown:
            raise TraceError(f"{self.name}: unknown field(s) {', '.join(unknown)}; "
                             f"available: {', '.join(available)}")

    def _key(self) -> Column:
        return F.concat_ws(JOIN, *[F.col(f) for f in self.fields.key])

    def _key_missing(self) -> Column:
        missing = F.lit(False)
        for f in self.fields.key:
            missing = missing | F.col(f).isNull() | (F.col(f) == "")
        return missing

    def _payload(self) -> Column:
        if not self.fields.payload:
            return F.lit(None).cast("string")
        return F.concat_ws(JOIN, *[F.coalesce(F.col(f), F.lit("")) for f in self.fields.payload])

    def _missing_key_reason(self) -> str:
        return f"missing key field ({', '.join(self.fields.key)})"

    @staticmethod
    def _text_lines(spark: SparkSession, paths: list[str], *extra: str) -> DataFrame:
        """Non-blank lines of text files in input order (blank lines are ignored, not bad)."""
        df = spark.read.text(paths)
        df = df.select(F.col("value").alias(RAW), *extra)
        df = df.where(F.trim(F.col(RAW)) != "")
        return df.withColumn(SEQ, F.monotonically_increasing_id())

    def _timed_events(self, good: DataFrame) -> DataFrame:
        """Events of formats with one event per line and a `_t_ms` column."""
        return good.select(F.col("_t_ms").alias("t_ms"), self._key().alias("key"),
                           self._payload().alias("payload"), F.col(SEQ).alias("seq"),
                           F.lit(0).alias("pos"))


def _first_reason(*rules: tuple[Column, str]) -> Column:
    """The reason of the first rule whose condition holds, else null."""
    expr = None
    for cond, reason in rules:
        expr = F.when(cond, reason) if expr is None else expr.when(cond, reason)
    return expr.otherwise(F.lit(None).cast("string"))


# -- web server access logs ------------------------------------------------------------------------

# host ident authuser [date] "request" status bytes ["referer" "user-agent"]  (Common / Combined)
# Unrolled "normal* (special normal*)*" form: Java's regex engine recurses once per repetition of
# an alternation inside a star, which is slow and overflows the stack on very long user agents.
_QUOTED = r'"([^"\\]*(?:\\.[^"\\]*)*)"'
CLF_PATTERN = (r'^(\S+) (\S+) (\S+) \[([^\]]+)\] ' + _QUOTED + r' (\d{3}|-) (\d+|-)'
               r'(?: ' + _QUOTED + ' ' + _QUOTED + r')?.*$')
CLF_TIME_FORMAT = "dd/MMM/yyyy:HH:mm:ss Z"
CLF_REQUEST = r"^(\S+) (.+?)(?: (HTTP/[0-9.]+))?$"  # method, path (may hold spaces), protocol
_SEP = "\u0001"  # splits the one regex pass into fields; a line containing it does not match


class ClfFormat(TraceFormat):
    """Common / Combined Log Format (Apache, nginx; the World Cup 1998 trace after its
    `recreate` tool). One request is one event, keyed by URL path by default."""

    name = "clf"
    known_fields = ("host", "ident", "user", "method", "path", "protocol", "status", "size",
                    "referer", "agent")
    _groups = ("host", "ident", "user", "time", "request", "status", "size", "referer", "agent")

    def lines(self, spark, paths):
        df = self._text_lines(spark, paths)
        # One regex pass: rewrite a matching line into SEP-separated groups, then split. A line
        # that does not match comes back unchanged (one part) and is tagged below.
        template = _SEP.join(f"${i}" for i in range(1, len(self._groups) + 1))
        parts = F.split(F.regexp_replace(F.col(RAW), CLF_PATTERN, template), _SEP)
        matched = (F.size(parts) == len(self._groups)) & ~F.col(RAW).contains(_SEP)
        df = df.select(SEQ, RAW, matched.alias("_ok"),
                       *[F.get(parts, i).alias(g) for i, g in enumerate(self._groups)])
        request = [F.nullif(F.regexp_extract(F.col("request"), CLF_REQUEST, i), F.lit("")) for i in (1, 2, 3)]
        df = df.select(
            SEQ, RAW, "_ok", *[g for g in self._groups if g != "request"],
            request[0].alias("method"), request[1].alias("path"), request[2].alias("protocol"),
            F.unix_millis(F.try_to_timestamp(F.col("time"), F.lit(CLF_TIME_FORMAT))).alias("_t_ms"))
        return df.withColumn(BAD, _first_reason(
            (~F.col("_ok"), "not a Common/Combined Log Format line"),
            (F.col("_t_ms").isNull(), f"bad timestamp (want [{CLF_TIME_FORMAT}])"),
            (self._key_missing(), self._missing_key_reason())))

    def events(self, good):
        return self._timed_events(good)


# -- keyed event CSV ------------------------------------------------------------------------------

TIME_EPOCH_S, TIME_EPOCH_MS = "epoch", "epoch_ms"


class CsvFormat(TraceFormat):
    """CSV with a header row: each record is one event. The time is one column, or several joined
    with spaces (e.g. year month day hhmm), parsed with a Spark datetime pattern, or `epoch` /
    `epoch_ms` for numbers; without a pattern Spark's default (ISO-like) parsing is used."""

    name = "csv"

    def __init__(self, fields: Fields, time_cols: tuple[str, ...], time_format: str | None = None,
                 delimiter: str = ",", null_value: str | None = None):
        super().__init__(fields)
        if not time_cols:
            raise TraceError("csv: give the time column(s) with --time-col")
        if not self.fields.key:
            raise TraceError("csv: give the key column(s) with --key-col")
        self.time_cols = time_cols
        self.time_format = time_format
        self.delimiter = delimiter
        self.null_value = null_value

    def describe(self):
        return {**super().describe(), "time": list(self.time_cols), "time_format": self.time_format,
                "delimiter": self.delimiter, "null_value": self.null_value}

    def lines(self, spark, paths):
        reader = spark.read.option("header", True).option("sep", self.delimiter)
        if self.null_value is not None:  # e.g. R's "NA": a key that is NA is a missing key
            reader = reader.option("nullValue", self.null_value)
        columns = reader.csv(paths).columns
        self._check_fields(columns)
        missing = [c for c in self.time_cols if c not in columns]
        if missing:
            raise TraceError(f"csv: unknown time column(s) {', '.join(missing)}; "
                             f"available: {', '.join(columns)}")
        schema = StructType([StructField(c, StringType()) for c in columns]
                            + [StructField("_corrupt", StringType())])
        df = (reader.schema(schema).option("mode", "PERMISSIVE")
              .option("columnNameOfCorruptRecord", "_corrupt").csv(paths))
        df = df.withColumn(SEQ, F.monotonically_increasing_id())
        raw = F.coalesce(F.col("_corrupt"),
                         F.concat_ws(self.delimiter, *[F.coalesce(F.col(c), F.lit("")) for c in columns]))
        df = df.withColumn(RAW, raw).withColumn("_t_ms", self._time())
        return df.withColumn(BAD, _first_reason(
            (F.col("_corrupt").isNotNull(), f"wrong number of columns (want {len(columns)})"),
            (F.col("_t_ms").isNull(), f"bad time in {' '.join(self.time_cols)}"
                                      + (f" (want {self.time_format})" if self.time_format else "")),
            (self._key_missing(), self._missing_key_reason())))

    def _time(self) -> Column:
        text = F.trim(F.concat_ws(" ", *[F.col(c) for c in self.time_cols]))
        if self.time_format == TIME_EPOCH_S:
            return F.floor(text.try_cast("double") * 1000).cast("long")
        if self.time_format == TIME_EPOCH_MS:
            return F.floor(text.try_cast("double")).cast("long")
        ts = F.try_to_timestamp(text) if not self.time_format else F.try_to_timestamp(text, F.lit(self.time_format))
        return F.unix_millis(ts)

    def events(self, good):
        return self._timed_events(good)


# -- Wikipedia page-view dumps ---------------------------------------------------------------------

HOUR_MS = 3_600_000
PAGEVIEW_FILE_TIME = r"(\d{8}-\d{6})"


class PageviewsFormat(TraceFormat):
    """Hourly Wikipedia page-view dumps (pageviews-YYYYMMDD-HHMMSS[.gz], also the older
    pagecounts-*): lines `domain_code page_title count_views [total_response_size]`. The hour comes
    from the file name; a line with n views becomes n events spread evenly over that hour."""

    name = "pageviews"
    known_fields = ("project", "title", "views", "bytes")

    def lines(self, spark, paths):
        df = self._text_lines(spark, paths, F.col("_metadata.file_name").alias("_file"))
        parts = F.split(F.trim(F.col(RAW)), " +")
        hour = F.try_to_timestamp(F.regexp_extract(F.col("_file"), PAGEVIEW_FILE_TIME, 1),
                                  F.lit("yyyyMMdd-HHmmss"))
        df = df.select(
            SEQ, RAW, F.size(parts).alias("_n"),
            F.get(parts, 0).alias("project"), F.get(parts, 1).alias("title"),
            F.get(parts, 2).alias("views"),
            F.when(F.size(parts) >= 4, F.get(parts, 3)).alias("bytes"),
            F.get(parts, 2).try_cast("long").alias("_views"),
            F.unix_millis(hour).alias("_hour_ms"))
        return df.withColumn(BAD, _first_reason(
            (~F.col("_n").isin(3, 4), "not a page-view line (domain_code page_title count_views [bytes])"),
            (F.col("_views").isNull() | (F.col("_views") < 0), "count_views is not a whole number"),
            (F.col("_hour_ms").isNull(), "no YYYYMMDD-HHMMSS hour in the file name"),
            (self._key_missing(), self._missing_key_reason())))

    def events(self, good):
        i = F.col("pos")
        # event i of n at (i + 1/2)·hour/n: evenly spaced, exact in integer arithmetic
        t_ms = F.col("_hour_ms") + F.floor((2 * i + 1) * HOUR_MS / (2 * F.col("_views"))).cast("long")
        exploded = good.where(F.col("_views") > 0).select(
            "*", F.explode(F.sequence(F.lit(0).cast("long"), F.col("_views") - 1)).alias("pos"))
        return exploded.select(t_ms.alias("t_ms"), self._key().alias("key"),
                               self._payload().alias("payload"), F.col(SEQ).alias("seq"), "pos")


# -- plain text -----------------------------------------------------------------------------------

SENTENCE_SPLIT = r"(?<=[.!?])\s+"
NON_WORD = r"[^\p{L}\p{N}']+"


class TextFormat(TraceFormat):
    """Plain text for word count: each line is split into sentences (a sentence never spans lines),
    sentence k arrives at k/`sentences_per_second` s, and each of its words is one event keyed by
    the lower-cased word; `sentence` is available as payload."""

    name = "text"
    known_fields = ("word", "sentence")
    synthetic_time = True

    def __init__(self, fields: Fields, sentences_per_second: float = 100.0):
        super().__init__(fields)
        if not sentences_per_second > 0:
            raise TraceError(f"text: sentences per second must be > 0, got {sentences_per_second:g}")
        self.sentences_per_second = sentences_per_second

    def describe(self):
        return {**super().describe(), "sentences_per_second": self.sentences_per_second}

    def lines(self, spark, paths):
        return self._text_lines(spark, paths).withColumn(BAD, F.lit(None).cast("string"))

    def events(self, good):
        sentences = good.select(SEQ, F.posexplode(F.split(F.trim(F.col(RAW)), SENTENCE_SPLIT))
                                .alias("_spos", "sentence"))
        sentences = with_global_index(sentences.where(F.col("sentence").rlike(r"[\p{L}\p{N}]")), "_sidx")
        words = sentences.select(
            "_sidx", "sentence",
            F.posexplode(F.split(F.lower(F.col("sentence")), NON_WORD)).alias("pos", "_w"))
        words = words.withColumn("word", F.regexp_replace(F.col("_w"), r"^'+|'+$", "")).where(F.col("word") != "")
        t_ms = F.floor(F.col("_sidx") * 1000.0 / self.sentences_per_second).cast("long")
        return words.select(t_ms.alias("t_ms"), self._key().alias("key"), self._payload().alias("payload"),
                            F.col("_sidx").alias("seq"), "pos")


def with_global_index(df: DataFrame, name: str) -> DataFrame:
    """`df` with a consecutive 0-based row index in partition order (= input order for files).

    monotonically_increasing_id is partition-id << 33 | row-in-partition; adding the row counts of
    the earlier partitions closes the gaps. One small job; no single-partition sort. The input must
    be deterministic (here: derived from cached lines), as it is evaluated twice.
    """
    spark = df.sparkSession
    df = df.withColumn("_mid", F.monotonically_increasing_id())
    part = (F.col("_mid") / (1 << 33)).cast("long")
    counts = sorted((r["p"], r["n"]) for r in df.groupBy(part.alias("p")).count()
                    .withColumnRenamed("count", "n").collect())
    offsets, start = [], 0
    for p, n in counts:
        offsets.append((p, start))
        start += n
    if not offsets:
        return df.withColumn(name, F.lit(0).cast("long")).drop("_mid")
    table = spark.createDataFrame(offsets, "p long, _start long")
    joined = df.withColumn("_p", part).join(F.broadcast(table), F.col("_p") == table["p"])
    index = F.col("_start") + (F.col("_mid") - F.col("_p") * (1 << 33))
    return joined.withColumn(name, index).drop("_mid", "_p", "p", "_start")


FORMATS = ("clf", "csv", "pageviews", "text")
DEFAULT_KEYS = {"clf": ("path",), "pageviews": ("project", "title"), "text": ("word",), "csv": ()}


def make_format(name: str, *, key: tuple[str, ...] = (), payload: tuple[str, ...] = (),
                time_cols: tuple[str, ...] = (), time_format: str | None = None, delimiter: str = ",",
                null_value: str | None = None, sentences_per_second: float = 100.0) -> TraceFormat:
    """The parser for `name` with the user's field choices (defaults per format when none)."""
    if name not in FORMATS:
        raise TraceError(f"unknown trace format {name!r}; known: {', '.join(FORMATS)}")
    fields = Fields(key=tuple(key) or DEFAULT_KEYS[name], payload=tuple(payload))
    if name != "csv" and (time_cols or time_format or null_value is not None):
        raise TraceError(f"{name}: --time-col, --time-format and --null-value apply to csv only")
    if name == "clf":
        return ClfFormat(fields)
    if name == "csv":
        return CsvFormat(fields, tuple(time_cols), time_format, delimiter, null_value)
    if name == "pageviews":
        return PageviewsFormat(fields)
    return TextFormat(fields, sentences_per_second)
