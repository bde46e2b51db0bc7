"""How many of the seats asked have answered the open question: "2 of 3 answered" (issue 24).

Read from the view's ``question.answered`` (who has answered, never what:
engine/view.py), so the projector can show the class's progress without
showing an answer. Shown while a question is open, gone with the result.
"""

from __future__ import annotations

from html import escape


from ..engine.view import View
from ..i18n import _
from .spliced_html import SplicedHTML

ANSWERED_CSS = """
<style>
.tnb-answered-line { font-size: 24px; font-weight: bold; color: #1B1B1B; padding: 2px 10px; }
.tnb-answered-line:empty { display: none; }
</style>
"""


def answered_text(view: View) -> str:
    """``"2 of 3 answered"`` while a question is open (not during a result,
    the get-ready or before Start), else ""."""
    q = view.question
    if q is None or not view.started or view.paused or view.get_ready_s > 0:
        return ""
    return _("{answered} of {asked} answered").format(answered=len(q.answered), asked=len(q.players))


class AnsweredCount:
    """The count line under the question (class ``tnb-answered``).

    Attributes:
        widget: the ``HTML`` widget; "" when no question is open.
    """

    def __init__(self) -> None:
        self.widget = SplicedHTML()
        self.widget.add_class("tnb-answered")

    def show(self, view: View) -> None:
        """Show ``view``'s count (a message only when it changes)."""
        text = answered_text(view)
        # the line stays, empty and hidden (CSS), when there is nothing to say: its next count is a splice
        self.widget.value = f'<div class="tnb-answered-line" role="status">{escape(text)}</div>'

    @property
    def value(self) -> str:
        return self.widget.value
