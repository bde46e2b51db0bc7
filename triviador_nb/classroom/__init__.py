"""The classroom: the headless game table (game, bots, clock, deadlines) that
every screen - the single screen, the projector, a student's - is fed from.

Each name is imported when first asked for: a student's room connection
needs the clock and :class:`Ack` alone, not the table, its bots and the
journal (issue 24: a restarted kernel back in its seat sooner).
"""

from ..lazy import lazy_names

_WHERE = {"Ack": "ack", "Clock": "clock", "LoopClock": "clock", "ManualClock": "clock", "Timer": "clock",
          "Journal": "journal", "JournalError": "journal", "read_journal": "journal", "rebuild_games": "journal",
          "new_secret": "secret", "Deadline": "table", "Table": "table"}

__all__ = ["Ack", "Clock", "Deadline", "Journal", "JournalError", "LoopClock", "ManualClock", "Table", "Timer",
           "new_secret", "read_journal", "rebuild_games"]

__getattr__, __dir__ = lazy_names(__name__, _WHERE)
