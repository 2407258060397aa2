"""Policies that play whole hands (``selfplay.Policy``), their registry, tournaments and fits (docs/bots.md)."""
