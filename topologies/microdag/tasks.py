"""The five modelled tasks of Shukla & Simmhan's micro-DAGs, as plain functions and small classes.

Parse XML (SAX over an in-memory document), Pi (Viete's product), batched file write, and stand-ins
for the Azure blob download and table lookup that emulate their I/O latency and memory use (no
cloud service is reachable here). Component code in bolts.py only wires these to tuples.
"""

from __future__ import annotations

import os
import time
import xml.sax
from decimal import Decimal, localcontext
from pathlib import Path

from topologies.common.cost import fnv1a


def make_xml_document(records: int) -> str:
    """A deterministic XML document with `records` records (about 200 bytes each)."""
    parts = ["<?xml version='1.0' encoding='UTF-8'?>", "<records>"]
    for i in range(records):
        parts.append(f'<record id="{i}"><name>item-{i}</name><value unit="ms">{(i * 7919) % 1000}</value>'
                     f"<tags><tag>t{i % 5}</tag><tag>g{i % 3}</tag></tags></record>")
    parts.append("</records>")
    return "".join(parts)


class _ElementCounter(xml.sax.ContentHandler):
    def __init__(self):
        super().__init__()
        self.elements = 0

    def startElement(self, name, attrs):  # noqa: N802 (SAX API name)
        self.elements += 1


def parse_xml(document: str) -> int:
    """Parses the document with SAX; returns the number of elements."""
    handler = _ElementCounter()
    xml.sax.parseString(document.encode("utf-8"), handler)
    return handler.elements


def viete_pi(iterations: int, digits: int) -> Decimal:
    """pi from Viete's product 2/pi = prod a_k/2, a_1 = sqrt 2, a_(k+1) = sqrt(2 + a_k), at `digits` precision."""
    if iterations < 1:
        raise ValueError("iterations must be >= 1")
    with localcontext() as ctx:
        ctx.prec = digits
        two = Decimal(2)
        a = two.sqrt()
        product = a / two
        for _ in range(iterations - 1):
            a = (two + a).sqrt()
            product *= a / two
        return two / product


class BatchedFileWriter:
    """Buffers one line per tuple and writes a file every `batch` lines; keeps only the newest `keep` files."""

    def __init__(self, directory: str | os.PathLike, batch: int = 10_000, line_bytes: int = 100, keep: int = 3):
        if batch < 1 or line_bytes < 1 or keep < 1:
            raise ValueError("batch, line_bytes and keep must be >= 1")
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.batch = batch
        self.line_bytes = line_bytes
        self.keep = keep
        self.buffer: list[str] = []
        self.files_written = 0

    def add(self, text: str) -> Path | None:
        """Buffers `text` padded/cut to line_bytes - 1 characters plus a newline; returns a file when one is written."""
        self.buffer.append(text[: self.line_bytes - 1].ljust(self.line_bytes - 1, ".") + "\n")
        if len(self.buffer) < self.batch:
            return None
        return self.flush()

    def flush(self) -> Path | None:
        if not self.buffer:
            return None
        path = self.directory / f"batch-{self.files_written:08d}.txt"
        path.write_text("".join(self.buffer), encoding="ascii", errors="replace")
        self.buffer.clear()
        self.files_written += 1
        stale = self.directory / f"batch-{self.files_written - 1 - self.keep:08d}.txt"
        if self.files_written > self.keep and stale.exists():
            stale.unlink()
        return path


def blob_download(blob_bytes: int, latency_s: float, sleep=time.sleep) -> int:
    """Stand-in for downloading a blob into memory: waits the service latency, then fills a buffer."""
    sleep(latency_s)
    blob = bytearray(blob_bytes)
    for i in range(0, blob_bytes, 4096):  # touch every page, as a download would
        blob[i] = 1
    return len(blob)


class TableStandIn:
    """Stand-in for a remote table's point lookup: an in-memory table plus the service latency."""

    def __init__(self, rows: int, row_bytes: int = 200, latency_s: float = 0.3, sleep=time.sleep):
        if rows < 1:
            raise ValueError("rows must be >= 1")
        self.rows = [f"row-{i}:".ljust(row_bytes, "x") for i in range(rows)]
        self.latency_s = latency_s
        self.sleep = sleep

    def lookup(self, key: str) -> str:
        self.sleep(self.latency_s)
        return self.rows[fnv1a(key) % len(self.rows)]
