"""Policies that play whole hands (``selfplay.Policy``): ``basic`` and ``strong`` (docs/bots.md)."""
