"""A bot written outside the project (docs/bots.md's example): it only reads its seat's view."""

from kwx.table.table import Action
from kwx.table.view import SeatView


class FirstChoice:
    """Wins when it may, never calls, and throws the tile it just drew (else its first tile); never declares 亮倒."""

    def act(self, view: SeatView) -> Action:
        for action in view.options:
            if action.verb == "win":
                return action
        discards = [a for a in view.options if a.verb == "discard" and not a.liang_dao]
        drawn = [a for a in discards if a.kind == view.drawn_tile]
        return (drawn or discards)[0]

    def claim(self, view: SeatView) -> Action | None:
        return next((a for a in view.options if a.verb == "win"), None)


class NoPolicy:
    """Not a bot: it has no ``claim``."""

    def act(self, view: SeatView) -> Action:
        return view.options[0]


class Cheater:
    """Claims a win it was not offered on its first own turn."""

    def act(self, view: SeatView) -> Action:
        return Action(view.seat, "win", view.drawn_tile if view.drawn_tile is not None else 0)

    def claim(self, view: SeatView) -> Action | None:
        return None


class Crashing:
    """Raises on its first own turn, as a buggy bot would."""

    def act(self, view: SeatView) -> Action:
        raise KeyError("no such tile")

    def claim(self, view: SeatView) -> Action | None:
        return None
