"""The bots by name, and bots from outside by dotted path (``package.module:Class``).

A seat is named by a key of :data:`BOTS` or by ``package.module:Class``: a class, importable
on ``sys.path``, whose instances implement :class:`~kwx.table.selfplay.Policy` (``act`` and
``claim``, each given the seat's :class:`~kwx.table.view.SeatView`; docs/bots.md). So a bot
written elsewhere plays on this table without touching the project.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache

from kwx.bots.advised import AdviceBot
from kwx.bots.basic import BasicBot
from kwx.bots.companion import CompanionBot
from kwx.bots.judge import BoostedJudgeBot, JudgeBot
from kwx.bots.strong import StrongBot
from kwx.table.selfplay import Policy

BOTS: dict[str, Callable[[], Policy]] = {"basic": BasicBot, "companion": CompanionBot, "strong": StrongBot, "judge": JudgeBot, "boosted": BoostedJudgeBot, "advice": AdviceBot}
"""The project's bots, by name."""


class UnknownBot(ValueError):
    """A seat name that is neither a bot of :data:`BOTS` nor an importable Policy class."""


@cache
def policy_factory(name: str) -> Callable[[], Policy]:
    """What makes a fresh policy for the seat name ``name`` (raises UnknownBot saying why)."""
    if name in BOTS:
        return BOTS[name]
    module_name, sep, attr = name.partition(":")
    if not sep or not module_name or not attr:
        raise UnknownBot(f"{name!r} is not a bot: use one of {', '.join(sorted(BOTS))} or package.module:Class")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UnknownBot(f"{name!r}: cannot import {module_name!r} ({exc})") from exc
    factory = getattr(module, attr, None)
    if not callable(factory):
        raise UnknownBot(f"{name!r}: {module_name!r} has no class {attr!r}")
    if not all(callable(getattr(factory, method, None)) for method in ("act", "claim")):
        raise UnknownBot(f"{name!r}: a Policy has act(view) and claim(view) methods")
    made: Callable[[], Policy] = factory
    return made
