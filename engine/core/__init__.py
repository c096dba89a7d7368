"""What both rules engines share: errors, the common game shape, record replay."""

from .errors import CorruptRecord, IllegalMove
from .record import replay
from .shape import Engine, ToAct

__all__ = ["CorruptRecord", "Engine", "IllegalMove", "ToAct", "replay"]
