"""Pure helpers shared by the Python components (no streamparse imports here)."""
