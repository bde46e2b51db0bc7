"""The game engine: pure rules, no widgets, no pandas, no clock, no global random.

A game is (rule set, board, question bank, seed, actions); replaying the
actions on the same inputs gives the same state.
"""

from .actions import (
    Action,
    ActionParseError,
    Attack,
    ChoiceAnswer,
    End,
    GuessAnswer,
    Pick,
    Rebuild,
    Skip,
    Timeout,
    parse_action,
)
from .board import Board, BoardError
from .errors import (
    AnswerTooLateError,
    GameOverError,
    IllegalActionError,
    IllegalRebuildError,
    IllegalTerritoryError,
    InvalidAnswerError,
    NothingToUndoError,
    NotYourTurnError,
)
from .events import Event
from .game import Game
from .questions import ChoiceQuestion, GuessQuestion, Question, QuestionBank
from .rules import (
    CONQUIZTADOR,
    DOBYVATEL,
    DUEL,
    LONG_CAMPAIGN,
    RULE_SETS,
    BasePlacement,
    BattleOrder,
    BattleRound,
    ClaimExpansion,
    GuessExpansion,
    RuleSet,
    Targets,
    Timers,
    WinKinds,
    find_rule_set,
)
from .state import Phase

__all__ = [name for name in dir() if not name.startswith("_")]
