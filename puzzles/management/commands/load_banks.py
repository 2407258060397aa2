"""``manage.py load_banks``: the shipped puzzle banks into the database, upserted by key (``puzzles.banks``)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from puzzles.banks import FILES, NAMES, load_banks, retire_old


class Command(BaseCommand):
    help = (
        "Load the shipped puzzle banks (puzzles/data/*.json.gz) by key: add the missing puzzles, bring stored ones up to "
        "their record, delete nothing; with every bank, retire the puzzles no bank holds (of the banks made before, table drills that left the bank, 期望值 drills the table did not bear out, quiz items replaced). "
        "Running it again changes nothing; `make setup` and deploys run it after migrate."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("names", nargs="*", metavar="bank", help=f"Only these ({', '.join(NAMES)}); all by default.")

    def handle(self, *args, names: list[str], **options) -> None:
        try:
            done = load_banks(names=names or NAMES)
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        for name, loaded in done.items():
            source = FILES[name].name
            self.stdout.write(f"{source}: {loaded.records} records, {loaded.added} added, {loaded.updated} updated")
            if loaded.apart:
                shown = ", ".join(loaded.apart[:10]) + (" …" if len(loaded.apart) > 10 else "")
                self.stderr.write(f"{source}: {len(loaded.apart)} stored puzzles hold another position than their key's record, left as they are: {shown}")
        if not names:
            self.stdout.write(
                f"retired: {retire_old(shipped=[k for loaded in done.values() for k in loaded.keys])} puzzles no shipped bank holds (of the banks made before, table drills that left the bank, 期望值 drills the table did not bear out, quiz items replaced or withdrawn), kept for their attempts, no longer served"
            )
