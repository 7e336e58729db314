"""How a sentence splits into words: identical to io.nonstopstorm.workloads.wordcount.Words."""

from __future__ import annotations

import re

_WHITESPACE = re.compile(r"[ \t\n\x0b\f\r]+")


def split_words(sentence: str) -> list[str]:
    """Lower-cased words separated by runs of ASCII whitespace (the prepared corpus is ASCII)."""
    return [w for w in _WHITESPACE.split(sentence.lower()) if w]
