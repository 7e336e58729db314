"""The model-driven scheduling paper's micro-DAGs (Linear, Diamond, Star) and their five tasks."""
