"""The classroom: the headless game table (game, bots, clock, deadlines) that
every screen - the single screen, the projector, a student's - is fed from."""

from .clock import Clock, LoopClock, ManualClock, Timer
from .journal import Journal, JournalError, read_journal, rebuild_games
from .secret import new_secret
from .table import Ack, Deadline, Table

__all__ = ["Ack", "Clock", "Deadline", "Journal", "JournalError", "LoopClock", "ManualClock", "Table", "Timer",
           "new_secret", "read_journal", "rebuild_games"]
