"""Drills made from self-play."""
