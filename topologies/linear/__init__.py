"""The N-Storm paper's linear two-bolt template, as streamparse components."""
