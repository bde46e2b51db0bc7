"""The game engine: pure rules, no widgets, no pandas, no clock, no global random.

A game is (rule set, board, question bank, seed, actions); replaying the
actions on the same inputs gives the same state.

Each name is imported when first asked for (``from triviador_nb.engine import
Pick`` loads the actions alone): a student's room connection reads views and
builds intents without loading the game's rules of play (issue 24: a
restarted kernel back in its seat sooner).
"""

from ..lazy import lazy_names

_WHERE = {
    "Action": "actions", "ActionParseError": "actions", "Attack": "actions", "ChoiceAnswer": "actions",
    "End": "actions", "GuessAnswer": "actions", "Pick": "actions", "Rebuild": "actions", "Skip": "actions",
    "Timeout": "actions", "parse_action": "actions", "Board": "board", "BoardError": "board",
    "AnswerTooLateError": "errors", "GameOverError": "errors", "IllegalActionError": "errors",
    "IllegalRebuildError": "errors", "IllegalTerritoryError": "errors", "InvalidAnswerError": "errors",
    "NothingToUndoError": "errors", "NotYourTurnError": "errors", "Event": "events", "Game": "game",
    "ChoiceQuestion": "questions", "GuessQuestion": "questions", "Question": "questions",
    "QuestionBank": "questions", "CONQUIZTADOR": "rules", "DOBYVATEL": "rules", "DUEL": "rules",
    "LONG_CAMPAIGN": "rules", "RULE_SETS": "rules", "BasePlacement": "rules", "BattleOrder": "rules",
    "BattleRound": "rules", "ClaimExpansion": "rules", "GuessExpansion": "rules", "RuleSet": "rules",
    "Targets": "rules", "Timers": "rules", "WinKinds": "rules", "find_rule_set": "rules", "Phase": "state"}

__all__ = [
    "Action", "ActionParseError", "AnswerTooLateError", "Attack", "BasePlacement", "BattleOrder", "BattleRound",
    "Board", "BoardError", "CONQUIZTADOR", "ChoiceAnswer", "ChoiceQuestion", "ClaimExpansion", "DOBYVATEL", "DUEL",
    "End", "Event", "Game", "GameOverError", "GuessAnswer", "GuessExpansion", "GuessQuestion",
    "IllegalActionError", "IllegalRebuildError", "IllegalTerritoryError", "InvalidAnswerError", "LONG_CAMPAIGN",
    "NotYourTurnError", "NothingToUndoError", "Phase", "Pick", "Question", "QuestionBank", "RULE_SETS", "Rebuild",
    "RuleSet", "Skip", "Targets", "Timeout", "Timers", "WinKinds", "find_rule_set", "parse_action"]

__getattr__, __dir__ = lazy_names(__name__, _WHERE)
