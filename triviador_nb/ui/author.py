"""Tools for content authors in a notebook: a bank's problems as a table,
a question preview in the game's own question panel, and statistics plots.
"""

from __future__ import annotations

import math
import random
from html import escape
from pathlib import Path
from typing import Sequence

import ipywidgets as w
import matplotlib.pyplot as plt
import pandas as pd

from ..banks import check_bank_files
from ..engine import ChoiceQuestion, QuestionBank, Timers
from ..i18n import _, speaking
from .question_panel import QuestionPanel
from .styles import CSS

TIMERS = Timers()  # the answer times of every rule set (D3)


def problems_table(paths: Sequence[str | Path]) -> pd.DataFrame:
    """Every problem of the bank files as a table: file, row, column,
    severity and message (row numbers as a spreadsheet shows them)."""
    problems = check_bank_files([Path(p) for p in paths])
    return pd.DataFrame([{"file": p.file, "row": p.row, "column": p.column, "severity": p.severity,
                          "message": p.message} for p in problems],
                        columns=["file", "row", "column", "severity", "message"])


class QuestionPreview:
    """Any question of a bank in the game's question panel; answer it yourself.

    Args:
        bank: the questions; seed: the options' shuffle.
        language: the language code of the preview's words (``"hu"``; None:
            the kernel's); the questions are shown as the bank has them.

    Attributes:
        widget: the picker and the panel, to display.
        panel: the :class:`QuestionPanel` players see in the game.
    """

    def __init__(self, bank: QuestionBank, seed: int = 0, language: str | None = None):
        with speaking(language) as self.language:
            self._build(bank, seed)

    def _build(self, bank: QuestionBank, seed: int) -> None:
        self.bank = bank
        self._rng = random.Random(seed)
        questions = [*bank.guess, *bank.choice]
        self._by_id = {q.id: q for q in questions}
        self.picker = w.Dropdown(options=[(f"{q.id}: {q.text[:70]}", q.id) for q in questions],
                                 description=_("Question"), layout={"width": "95%"})
        self.panel = QuestionPanel()
        self.result = w.HTML()
        self.again = w.Button(description=_("Ask again"), layout={"width": "140px"})
        self.again.on_click(lambda _b: self.show())
        self.panel.on_choice(lambda option: self._speaking(self._chosen, option))
        self.panel.on_guess(lambda value: self._speaking(self._guessed, value))
        self.picker.observe(lambda _c: self.show(), "value")
        self.widget = w.VBox([w.HTML(CSS), self.picker, self.panel.widget, self.result, self.again],
                             layout={"width": "640px"})
        self.widget.add_class("tnb-root")
        self._options: tuple[str, ...] = ()
        self.show()

    def _repr_mimebundle_(self, **kwargs: object) -> dict:
        return self.widget._repr_mimebundle_(**kwargs)

    def _speaking(self, action, *args: object) -> None:
        with speaking(self.language):
            action(*args)

    def show(self) -> None:
        """Show the picked question as the game would, options shuffled (D2)."""
        with speaking(self.language):
            self._show()

    def _show(self) -> None:
        question = self._by_id[self.picker.value]
        self.result.value = ""
        if isinstance(question, ChoiceQuestion):
            options = list(question.options)
            self._rng.shuffle(options)
            self._options = tuple(options)
            self.panel.ask(_("Multiple-choice question · preview"), question.text, self._options, True,
                           TIMERS.choice_s)
        else:
            self._options = ()
            self.panel.ask(_("Guess question · preview"), question.text, (), True, TIMERS.guess_s)

    def _chosen(self, option: int) -> None:
        question = self._by_id[self.picker.value]
        right = self._options[option] == question.answer
        text = _("Right: the answer is {answer}.") if right else _("Wrong: the answer is {answer}.")
        self._reveal(escape(text).format(answer=f"<b>{escape(question.answer)}</b>"))

    def _guessed(self, value: int) -> None:
        question = self._by_id[self.picker.value]
        off = abs(value - question.answer)
        text = (_("The answer is {answer}; you were exact.") if off == 0
                else _("The answer is {answer}; you were off by {off}."))
        html = escape(text).format(answer=f"<b>{question.answer}</b>", off=off)
        if question.source:
            html += " " + escape(_("Source: {source}").format(source=question.source))
        self._reveal(html)

    def _reveal(self, html: str) -> None:
        self.panel.stop(_("Answer sent."))
        self.result.value = f'<div class="tnb-outcome">{html}</div>'


def statistics_figure(bank: QuestionBank) -> plt.Figure:
    """Bar charts of the bank: questions by category and type, by difficulty,
    and the spread of guess answers (log scale)."""
    rows = [{"type": q.kind, "category": q.category or _("(none)"), "difficulty": q.difficulty or _("(none)")}
            for q in (*bank.guess, *bank.choice)]
    table = pd.DataFrame(rows)
    figure, axes = plt.subplots(1, 3, figsize=(15, 4.5), constrained_layout=True)
    table.groupby(["category", "type"]).size().unstack(fill_value=0).plot.barh(ax=axes[0], stacked=True)
    axes[0].set_title(_("Questions by category"))
    axes[0].set_xlabel(_("questions"))
    table.groupby(["difficulty", "type"]).size().unstack(fill_value=0).plot.bar(ax=axes[1], rot=0)
    axes[1].set_title(_("By difficulty"))
    answers = pd.Series([q.answer for q in bank.guess], dtype="float64")
    top = max(1, math.ceil(math.log10(max(answers.max(), 10)))) if len(answers) else 1
    axes[2].hist(answers.clip(lower=1), bins=[10 ** (k / 2) for k in range(0, 2 * top + 1)])
    axes[2].set_xscale("log")
    axes[2].set_title(_("Guess answers (log scale)"))
    axes[2].set_xlabel(_("answer"))
    return figure
