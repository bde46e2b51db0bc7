"""The question panel: the question, a countdown, and the answer controls.

Multiple-choice questions get four large buttons (A-D; keys 1-4 and A-D
press them). Guess questions get a number box that submits on Enter and an
"Answer" button; the box takes focus when the question opens, so a player can
type at once (:mod:`.browser_input`). The panel is given only what players
may see: the text and the shuffled options, never the correct answer: a
player never sees it before the question is resolved. Its widgets are made
once and reused for every question, in the language of the screen that makes
the panel (:mod:`triviador_nb.i18n`).
"""

from __future__ import annotations

import re
from html import escape
from typing import Callable, Sequence

import ipywidgets as w

from ..i18n import _, current_language, speaking
from .browser_input import BrowserInput
from .cells import close_widgets
from .countdown import Countdown
from .spliced_html import SplicedHTML

LETTERS = "ABCD"
# A question longer than this (characters) is drawn smaller in a window at most 760 px tall: at 1280x720 a
# 104-character question took 5 lines beside the map and pushed option D below the fold (issue 24).
LONG_QUESTION = 60
_DIGITS = re.compile(r"[0-9]{1,15}")  # D1: a whole number >= 0; 15 digits at most


def parse_guess(text: str) -> int | None:
    """Read a typed guess: digits only, spaces around them ignored.

    Returns None when the text is not a whole number >= 0 of at most 15
    digits (D1).
    """
    text = text.strip()
    return int(text) if _DIGITS.fullmatch(text) else None


class QuestionPanel:
    """Widgets for asking one question at a time.

    Attributes:
        widget: the ``VBox`` to display.
        choice_buttons: the four option buttons, A-D.
        guess_box: the number box (``Text``; ``continuous_update=False``, so
            its value reaches the kernel on Enter).
        answer_button: submits the number box.
        guess_row: the number box and its button, shown for guess questions.
        keys: the keyboard's way to the controls (:mod:`.browser_input`).
        language: the language of the panel's own words (its widgets'
            labels, the warning about a typed guess).

    Args:
        language: a language code; None: the one in use where the panel is
            made (a screen makes its panel inside its own language).
    """

    def __init__(self, language: str | None = None) -> None:
        with speaking(language or current_language()) as self.language:
            self._setup()

    def _setup(self) -> None:
        self.header = SplicedHTML(layout={"margin": "0"})
        self.text = SplicedHTML(layout={"margin": "4px 0 8px 0"})
        self.timer = Countdown(layout={"width": "100%"})  # the browser counts it down (countdown.py)
        self.choice_buttons = [w.Button(description="", layout={"width": "100%", "height": "54px"},
                                        style={"font_size": "19px", "font_weight": "bold"}) for _ in LETTERS]
        for i, button in enumerate(self.choice_buttons):
            button.add_class("tnb-choice")
            button.on_click(self._choice_clicked(i))
        self.guess_box = w.Text(placeholder=_("your number"), continuous_update=False,
                                layout={"width": "50%", "height": "48px"})
        self.guess_box.add_class("tnb-guess")
        self.answer_button = w.Button(description=_("Answer"), button_style="primary",
                                      layout={"width": "48%", "height": "48px"},
                                      style={"font_size": "19px", "font_weight": "bold"})
        self.answer_button.add_class("tnb-answer")
        self.guess_box.observe(self._guess_submitted, "value")
        self.answer_button.on_click(lambda _: self._submit_guess())
        self.guess_row = w.HBox([self.guess_box, self.answer_button],
                                layout={"width": "100%", "justify_content": "space-between"})
        self.feedback = SplicedHTML()
        self.controls = w.VBox(layout={"width": "100%"})
        self.keys = BrowserInput()
        self.widget = w.VBox([self.header, self.text, self.timer, self.controls, self.feedback, self.keys],
                             layout={"width": "100%", "padding": "10px", "border": "2px solid #3A3A3A",
                                     "min_height": "120px"})
        self.widget.add_class("tnb-question")
        self._on_choice: Callable[[int], None] | None = None
        self._on_guess: Callable[[int], None] | None = None
        self._accepting = False
        self.clear(_("Waiting for the game to start"))

    def close(self) -> None:
        """Close every widget of the panel, the controls not on screen now included."""
        close_widgets(self.widget, self.choice_buttons, self.guess_row)

    # --------------------------------------------------------------- handlers

    def on_choice(self, handler: Callable[[int], None]) -> None:
        """``handler(option_index)`` when the player clicks option A-D (0-3)."""
        self._on_choice = handler

    def on_guess(self, handler: Callable[[int], None]) -> None:
        """``handler(value)`` when the player submits a valid guess."""
        self._on_guess = handler

    def _choice_clicked(self, index: int) -> Callable[[w.Button], None]:
        def clicked(_: w.Button) -> None:
            if self._accepting and self._on_choice is not None:
                self._accepting = False
                self._mark_choice(index)
                self._on_choice(index)
        return clicked

    def _guess_submitted(self, change: dict) -> None:
        if change["new"].strip():
            self._submit_guess()

    def _submit_guess(self) -> None:
        if not self._accepting or self._on_guess is None:
            return
        value = parse_guess(self.guess_box.value)
        if value is None:
            with speaking(self.language):
                typed = self.guess_box.value.strip()
                text = (_('"{typed}" is not a whole number. Type digits only, e.g. 1848.').format(typed=typed)
                        if typed else _('"nothing" is not a whole number. Type digits only, e.g. 1848.'))
            self.feedback.value = f'<div class="tnb-warn">{escape(text, quote=False)}</div>'
            return
        self._accepting = False
        self.guess_box.disabled = self.answer_button.disabled = True
        self._on_guess(value)

    # --------------------------------------------------------------- display

    def ask(self, title: str, text: str, options: Sequence[str], can_answer: bool, seconds: float,
            watching: str | None = None) -> None:
        """Show a question.

        Args:
            title: e.g. ``"Guess question - everyone answers"``.
            text: the question, shown literally (HTML-escaped).
            options: the four shuffled options, or ``()`` for a guess question.
            can_answer: False for a player who only watches this battle.
            seconds: the timer (D3).
            watching: what a screen that cannot answer says under it
                (None: "You watch this one."; "": nothing).
        """
        if watching is None:
            with speaking(self.language):
                watching = _("You watch this one.")
        self.header.value = f'<div class="tnb-qhead">{escape(title)}</div>'
        long = " tnb-long" if len(text) > LONG_QUESTION else ""  # smaller in a short window (styles.CSS)
        self.text.value = f'<div class="tnb-qtext{long}" role="status">{escape(text)}</div>'
        self._start_timer(seconds)
        self.feedback.value = "" if can_answer or not watching else f'<div class="tnb-note">{escape(watching)}</div>'
        self._accepting = can_answer
        if options:
            for button, letter, option in zip(self.choice_buttons, LETTERS, options):
                with button.hold_sync():  # one message per button, not one per property
                    # no tooltip: a long option wraps on its button (styles.CSS), and one sent the text twice
                    button.description = f"{letter}) {option}"
                    button.disabled = not can_answer
                    button.button_style = ""
            self.controls.children = tuple(self.choice_buttons)
        else:
            self.guess_box.value = ""
            self.guess_box.disabled = self.answer_button.disabled = not can_answer
            self.controls.children = (self.guess_row,)

    def prompt(self, title: str, text: str, seconds: float) -> None:
        """Show an instruction with a countdown and no answer controls
        (e.g. "Click a free territory next to yours")."""
        self._accepting = False
        self.header.value = f'<div class="tnb-qhead">{escape(title)}</div>'
        self.text.value = f'<div class="tnb-qtext" role="status">{escape(text)}</div>'
        self._start_timer(seconds)
        self.controls.children = ()
        self.feedback.value = ""

    def set_time_left(self, seconds: float, running: bool = True) -> None:
        """Follow the deadline (seconds left, >= 0); the browser counts down by itself, so this sends
        only when the count stops or goes on (``running``: False while paused) or the time left grew
        (:meth:`.Countdown.follow`)."""
        self.timer.follow(seconds, running)

    def _start_timer(self, seconds: float) -> None:
        with speaking(self.language):
            self.timer.start(seconds, _("{seconds} s"))

    def stop(self, message: str) -> None:
        """Stop taking answers and say why (e.g. "Answer sent - 1848 in 4.2 s")."""
        self._accepting = False
        for button in self.choice_buttons:
            button.disabled = True
        self.guess_box.disabled = self.answer_button.disabled = True
        self.feedback.value = f'<div class="tnb-note">{escape(message)}</div>'

    def warn(self, message: str) -> None:
        """Show a problem without stopping (e.g. an answer after the timer)."""
        self.feedback.value = f'<div class="tnb-warn">{escape(message)}</div>'

    def result(self, lines: Sequence[str]) -> None:
        """Show what a resolved question decided (e.g. "Bot 1 takes Heves."),
        large, while the result stays on screen."""
        with speaking(self.language):
            heading = _("Result")
        # set straight from the question to the result: clearing first sent the header and text twice
        self._accepting = False
        self.header.value = f'<div class="tnb-qhead">{escape(heading)}</div>'
        self.text.value = "".join(f'<div class="tnb-qtext">{escape(line)}</div>' for line in lines)
        self.timer.clear()
        self.controls.children = ()
        self.feedback.value = ""

    def clear(self, message: str) -> None:
        """No question open: show ``message`` instead."""
        self._accepting = False
        self.header.value = '<div class="tnb-qhead"></div>'  # empty, not gone: the next header is a splice
        self.text.value = f'<div class="tnb-idle">{escape(message)}</div>'
        self.timer.clear()
        self.controls.children = ()
        self.feedback.value = ""

    def _mark_choice(self, index: int) -> None:
        for i, button in enumerate(self.choice_buttons):
            button.disabled = True
            button.button_style = "info" if i == index else ""
