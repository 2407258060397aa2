"""``python -m kwx.hand.build_tables``: rebuild the shipped suit table (about 20 s)."""

from kwx.hand.tables import main

if __name__ == "__main__":
    main()
