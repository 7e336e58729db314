"""Clients of a Storm cluster: the UI REST API and topology submission."""
