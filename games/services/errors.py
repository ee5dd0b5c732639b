"""What a service says when it refuses a change, in players' terms."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.models import Deal


class Refused(Exception):
    """A change the rules don't allow; ``problems`` say why in players' terms."""

    def __init__(self, problems: Sequence[str] | str, deal: int | None = None):
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        self.deal = deal  # the number of the deal refused, when it is one deal
        super().__init__("; ".join(self.problems))


@dataclass
class DealConflict(Exception):
    """Somebody else changed the game since this entry was started."""

    message: str
    deal: Deal | None
