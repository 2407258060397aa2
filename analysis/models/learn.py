"""Models of the learn pages."""
