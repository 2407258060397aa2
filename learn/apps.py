from django.apps import AppConfig


class LearnConfig(AppConfig):
    """The learn pages: rules, fans, settlement, glossary, the 口诀 and its memorise mode."""

    name = "learn"
    verbose_name = "卡五星 learn"

    def ready(self) -> None:
        """A visitor's memorise cards follow them into their account (this area's part of the one merge)."""
        from accounts.services import on_merge

        from .services import merge_cards

        on_merge(merge_cards, uid="learn-merge-cards")
