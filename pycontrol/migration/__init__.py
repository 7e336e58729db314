"""Nonstop executor migration from the control plane: write a placement plan for the
plan-following scheduler (storm-plugins/scheduling, io.nonstopstorm.scheduling.plan), read its
decision, and watch the move take effect through the UI REST API."""
