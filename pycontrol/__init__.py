"""nonstop Storm suite: control plane."""
