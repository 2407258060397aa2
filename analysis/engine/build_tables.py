"""``python -m analysis.engine.build_tables``: rebuild the shipped suit table (about 20 s)."""

from .tables import main

if __name__ == "__main__":
    main()
