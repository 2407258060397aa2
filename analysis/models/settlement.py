"""Models of the settlement calculator and score sheets."""
