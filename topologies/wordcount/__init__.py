"""The N-Storm paper's word count and its compute-heavy variant, as streamparse components."""
