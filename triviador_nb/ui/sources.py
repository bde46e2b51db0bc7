"""Where a remote game screen's views come from: a student's room
connection (:class:`RemoteSource`) and a teacher's projector of a room
(:class:`ProjectorSource`). Both are sources of the one
game screen (:class:`~.screen.GameScreen`); the words are made here, on the
screen, from the connection's codes.
"""

from __future__ import annotations

import time
from typing import Callable

from ..classroom import Ack, Clock, Timer
from ..engine import Action
from ..engine.view import View
from .. import words
from ..i18n import N_, _, current_language
from ..rooms.client import RoomClient
from ..rooms.teacher_client import TeacherClient

#: A room connection's notice (:attr:`RoomClient.notice`: its own, a ``closed``
#: code or an ``error`` code, with the error's data) -> what the student reads.
NOTICES = {"reconnecting": N_("Connection lost: reconnecting…"),
           "gone": N_("The room cannot be reached any more. Run the join cell again to try."),
           "fake_host": N_("A program that is not the teacher's room answered at the room's address and could not "
                           "prove it knows your seat's key: your key was not sent to it. Tell the teacher; "
                           "this screen keeps trying to reach the real room."),
           "room_closed": N_("The teacher closed the room."),
           "removed": N_("The teacher took you out of the room."),
           "host_stopped": N_("The room service stopped: the games are saved; the teacher can bring them back."),
           "no_such_room": N_("There is no room {room} here: check the code on the teacher's screen."),
           "bad_token": N_("This computer's key for {name} does not fit room {room}: join with another name, "
                           "or ask the teacher."),
           "name_taken": N_("Someone called {name} is in room {room} already. If that is you, join from the same "
                            "JupyterLab as before; otherwise choose another name."),
           "room_full": N_("Room {room} is full."),
           "too_many_tries": N_("Too many wrong room codes from this computer: try again in {wait_s} s."),
           "slow_down": N_("Too many at once: try again in a moment."),
           "replaced": N_("You joined this room again from another window or kernel: this one has stopped."),
           "name_reserved": N_("{name} is what the screens call the teacher or a bot: choose your own name."),
           "name_confusable": N_("That name looks too much like {name}, who is in room {room} already: choose a "
                                 "name that looks different."),
           "name_released": N_("Someone else took the name {name} in room {room} after you left before Start: "
                               "join with another name."),
           "name_held": N_("You are in room {room} already as {name}: one name each. Join as {name}, or ask the "
                           "teacher.")}


def refusal_text(code: str, data: dict, said: str) -> str:
    """A refusal or closing from a room (its ``code`` and ``data``) in the
    language in use; ``said`` (the host's English) when this screen has no
    words for it or the host sent too little to fill them in."""
    if code in NOTICES:
        try:
            return _(NOTICES[code]).format(**data)
        except (KeyError, IndexError, ValueError):
            return said or _(NOTICES[code])
    return said


def notice_text(client: RoomClient) -> str:
    """The connection's latest notice in the language in use: its own
    (reconnecting, gone, unreadable), a closing, or a refusal."""
    notice = client.notice or ""
    if notice.startswith("unreadable:"):
        return _("The room sent something this screen cannot read ({error}).").format(
            error=notice.split(":", 1)[1])
    if not notice:
        return client.message
    return refusal_text(notice, getattr(client, "notice_data", {}), client.message)


class _WireSource:
    """What a screen fed over the wire shares: views that arrive with the
    time left when they were sent (counted down here), a screen clock, and
    no table to start, restart or recover (the host has it).

    Subclasses give ``_view()``, ``_view_at()`` (``time.monotonic()`` of its arrival),
    ``view``, ``submit``, ``on_change``, ``roles`` and ``title_note``."""

    can_restart = False
    clock: Clock

    def _view(self) -> View | None:
        raise NotImplementedError

    def _view_at(self) -> float:
        raise NotImplementedError

    started = property(lambda self: self._view() is not None and self._view().started)
    paused = property(lambda self: self._view() is not None and self._view().paused)
    state_id = property(lambda self: self._view().state_id if self._view() is not None else "")

    def time_left(self) -> float:
        v = self._view()
        if v is None:
            return 0.0
        if v.paused:
            return v.time_left_s
        return max(0.0, v.time_left_s - (time.monotonic() - self._view_at()))

    def call_later(self, delay_s: float, callback: Callable[[], None]) -> Timer:
        return self.clock.call_later(delay_s, callback)

    _worded_for: tuple[View, str] | None = None  # (the view as it came, the language) of _worded
    _worded: View | None = None

    def _in_words(self, view: View | None, bots: dict[int, dict]) -> View | None:
        """``view`` with the room's bots named in the screen's language
        (:func:`~triviador_nb.words.with_bot_names`), made once per view
        and language."""
        if view is None or not bots:
            return view
        key = (view, current_language())
        if self._worded_for is None or self._worded_for[0] is not view or self._worded_for[1] != key[1]:
            self._worded, self._worded_for = words.with_bot_names(view, bots), key
        return self._worded

    def report_html(self) -> str:
        return ""

    def take_fault(self) -> str:
        return ""

    def start(self) -> None:
        pass

    def recover(self) -> None:
        pass

    def restart(self) -> None:
        pass

    def stop(self) -> None:
        pass


class RemoteSource(_WireSource):
    """A room client as the source of the game screen.

    Args:
        client: the connection.
        screen_clock: the loop the screen lives on (the student kernel's).
    """

    def __init__(self, client: RoomClient, screen_clock: Clock):
        self.client, self.clock = client, screen_clock

    held = property(lambda self: self.client.held)
    stopped = property(lambda self: self.client.status in ("closed", "refused"))

    def _view(self) -> View | None:
        return self.client.view

    def _view_at(self) -> float:
        return self.client.view_at

    def view(self, seat: int | None) -> View:
        return self._in_words(self.client.view, self.client.bot_names)

    def submit(self, seat: int, intent: Action, state_id: str | None = None) -> Ack:
        return self.client.submit(intent, state_id)

    def on_change(self, listener: Callable[[], None]) -> None:
        self.client.on_change(lambda: self.clock.call_soon_threadsafe(listener))

    def roles(self) -> dict[int, dict | str]:
        return dict(self.client.roles)

    def title_note(self) -> str:
        return _("room {code}").format(code=self.client.code)  # the same words as the teacher's projector


class ProjectorSource(_WireSource):
    """A room's projector view, as the teacher's connection keeps it, as the
    source of the one game screen (seat None: it never submits)."""

    def __init__(self, client: TeacherClient, code: str, screen_clock: Clock):
        self.client, self.code, self.clock = client, code, screen_clock

    held = property(lambda self: self.client.held.get(self.code, False))
    stopped = property(lambda self: self.client.status == "closed" or self.code not in self.client.codes)

    def _view(self) -> View | None:
        return self.client.views.get(self.code)

    def _view_at(self) -> float:
        return self.client.view_at.get(self.code, time.monotonic())

    def view(self, seat: int | None) -> View:
        return self._in_words(self._view(), self.client.bot_names.get(self.code, {}))

    def submit(self, seat: int, intent: Action, state_id: str | None = None) -> Ack:
        return Ack("rejected", "not_your_seat", "the projector plays no seat")

    def on_change(self, listener: Callable[[], None]) -> None:
        self.client.on_change(lambda code: self.clock.call_soon_threadsafe(listener) if code == self.code else None)

    def roles(self) -> dict[int, dict]:
        return dict(self.client.states.get(self.code, {}).get("roles", {}))

    def title_note(self) -> str:
        return _("room {code}").format(code=self.code)
