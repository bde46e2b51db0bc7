"""Words for the screen: event records, enum identifiers and errors.

The engine records what happened as data (:class:`~triviador_nb.engine.Event`:
kind, code, parameters) and names its phases, targets and win kinds with
identifiers. This module alone turns them into sentences. They are written in
English as ``str.format`` templates with named fields and marked for gettext
(:mod:`triviador_nb.i18n`): each is looked up in the language in use when it
is made, so a second language is a ``.po`` file, not a change to the rules.
It is pure: no widgets, no clock.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Callable, Iterable, Mapping, Sequence

from .engine.events import EVENT_CODES, Event
from babel.numbers import format_decimal

from .i18n import SOURCE, TERRITORY, N_, _, babel_locale, current_language, ngettext, pgettext

if TYPE_CHECKING:
    from .engine.view import View

LETTERS = "ABCD"

#: Phase identifiers (``Phase`` values and expansion phase names) -> labels
#: (English, marked: :func:`phase_label` gives them in the language in use).
PHASE_LABELS = {"bases": N_("bases"), "expansion": N_("expansion"), "allocation": N_("allocation"),
                "claim": N_("claim"), "battle": N_("battle"), "tiebreak": N_("tie-break"),
                "over": N_("game over")}
#: ``Targets`` values -> what a battle round lets an attacker choose.
TARGET_LABELS = {"adjacent_no_bases": N_("neighbours, no castles"), "adjacent": N_("neighbours"),
                 "any": N_("anything")}
#: ``WinKinds`` values -> labels (D13).
WIN_KIND_LABELS = {"whole_map": N_("whole-map victory"), "great": N_("great victory"),
                   "narrow": N_("narrow victory")}
#: ``Purpose`` values -> why a question is asked.
PURPOSE_LABELS = {"expansion": N_("expansion"), "claim": N_("claim"), "battle": N_("battle"),
                  "rebuild": N_("rebuild"), "battle_guess": N_("battle (guess)"), "tiebreak": N_("tie-break")}
#: Bot skill names (``BotSkill.name``) -> labels.
SKILL_LABELS = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}


def phase_label(phase: str) -> str:
    """A phase identifier as players call it, in the language in use
    (unknown names are shown as they are)."""
    return _(PHASE_LABELS[phase]) if phase in PHASE_LABELS else phase


def target_label(targets: str) -> str:
    """A ``Targets`` value as players call it (``"neighbours"``)."""
    return _(TARGET_LABELS[targets]) if targets in TARGET_LABELS else targets


def win_kind_label(kind: str) -> str:
    """A ``WinKinds`` value as players call it (``"great victory"``)."""
    return _(WIN_KIND_LABELS[kind]) if kind in WIN_KIND_LABELS else kind


def purpose_label(purpose: str) -> str:
    """A ``Purpose`` value as players call it (``"battle (guess)"``)."""
    return _(PURPOSE_LABELS[purpose]) if purpose in PURPOSE_LABELS else purpose


def role_label(role: "str | Mapping[str, object]") -> str:
    """A seat's role as a room sends it, in the language in use: as data
    (``{"kind": "bot", "skill": "medium"}``, ``{"kind": "team", "members":
    [...]}``, ``{"kind": "student"}``, ``{"kind": "empty"}``: protocol
    version 2, :func:`triviador_nb.rooms.protocol.role`), or a version-1
    host's English label (``"bot · medium"``, ``"team: Anna, Ben"``); any
    other text is shown as it is."""
    if isinstance(role, Mapping):
        kind = role.get("kind")
        if kind == "bot":
            return _("bot · {skill}").format(skill=skill_label(str(role.get("skill", ""))))
        if kind == "team":
            members = role.get("members")
            return _("team: {names}").format(names=", ".join(str(m) for m in members)
                                             if isinstance(members, list) else "")
        return {"student": _("student"), "empty": _("empty seat")}.get(str(kind), "")
    if role.startswith("bot · "):
        return _("bot · {skill}").format(skill=skill_label(role[len("bot · "):]))
    if role.startswith("team: "):
        return _("team: {names}").format(names=role[len("team: "):])
    return {"student": _("student"), "empty seat": _("empty seat")}.get(role, role)


def skill_label(skill: str) -> str:
    """A bot skill's name as players call it (``"medium"``)."""
    return _(SKILL_LABELS[skill]) if skill in SKILL_LABELS else skill


def bot_name(number: int, skill: str) -> str:
    """A bot's name on screen: ``"Bot 3 (medium)"`` (``"3. gép (közepes)"``)
    for the bot playing seat ``number`` (1-based) at ``skill``."""
    return _("Bot {n} ({skill})").format(n=number, skill=skill_label(skill))


def with_bot_names(view: View, bots: Mapping[int, Mapping[str, object]]) -> View:
    """``view`` with each bot that a room named after itself worded in the
    language in use: ``bots`` is seat -> ``{"number": 3, "skill": "medium"}``
    (a room's ``view.bot_names``, sent as data); other seats keep their
    names. The same view when there is nothing to word."""
    names = {seat: bot_name(int(bot.get("number", seat + 1)), str(bot.get("skill", "")))
             for seat, bot in bots.items() if 0 <= seat < len(view.players)}
    if not names:
        return view
    players = tuple(replace(p, name=names[p.seat]) if p.seat in names else p for p in view.players)
    return replace(view, players=players)


def colour_label(colour: str) -> str:
    """A seat's colour name (``"red"``, marked in :mod:`triviador_nb.ui.palette`)
    in the language in use."""
    return _(colour) if colour else colour  # gettext("") is the catalogue's header


def territory_name(name: str) -> str:
    """A territory's name in the language in use (a name with no translation,
    a county's own, is shown as it is)."""
    return pgettext(TERRITORY, name)


def seconds_text(ms: int) -> str:
    """A response time, ``4200`` -> ``"4.2 s"`` (``"4,2 s"`` in Hungarian and Czech: the decimal
    mark is the language's, from Babel)."""
    return _("{seconds} s").format(seconds=format_decimal(ms / 1000, format="0.0", locale=babel_locale()))


def and_list(names: Iterable[str]) -> str:
    """Names joined as a sentence joins them: ``"Anna and Bot 1"`` (three:
    ``"Anna and Bot 1 and Bot 2"``)."""
    names = list(names)
    joined = names[0] if names else ""
    for name in names[1:]:
        joined = _("{first} and {second}").format(first=joined, second=name)
    return joined


@dataclass(frozen=True)
class Names:
    """What sentences need besides an event: who is who and what is where.

    Attributes:
        players: display name per seat.
        colours: colour name per seat (``"red"``), or empty.
        territories: territory id -> display name.
    """

    players: Sequence[str]
    colours: Sequence[str]
    territories: Mapping[str, str]

    @classmethod
    def of_game(cls, game) -> "Names":
        """The names of a :class:`~triviador_nb.engine.Game`."""
        return cls(tuple(p.name for p in game.players), tuple(game.colours), game.board.names)

    @classmethod
    def of_view(cls, view) -> "Names":
        """The names of a :class:`~triviador_nb.engine.view.View`."""
        return cls(tuple(p.name for p in view.players), tuple(p.colour for p in view.players),
                   {t.id: t.name for t in view.territories})

    def seat(self, seat: int) -> str:
        return self.players[seat]

    def seats(self, seats: Iterable[int]) -> str:
        """Seats' names as a list: ``"Anna, Bot 1, Bot 2"``."""
        return ", ".join(self.seat(s) for s in seats)

    def place(self, territory: str) -> str:
        """A territory's name in the language in use."""
        return territory_name(self.territories.get(territory, territory))


def _answers(d: Mapping, n: Names) -> str:
    guess = d["kind"] == "guess"
    correct = str(d["correct"]) if guess else f"{LETTERS[d['correct_option']]}) {d['options'][d['correct_option']]}"
    parts = []
    for a in d["answers"]:
        given = a["given"]
        if given is None:
            parts.append(_("{player}: no answer").format(player=n.seat(a["seat"])))
            continue
        shown = str(given) if guess else f"{LETTERS[given]}) {d['options'][given]}"
        if a["ms"] is None:
            parts.append(_("{player}: {answer}").format(player=n.seat(a["seat"]), answer=shown))
        else:
            parts.append(_("{player}: {answer} in {time}").format(player=n.seat(a["seat"]), answer=shown,
                                                                   time=seconds_text(a["ms"])))
    return _("Correct answer: {correct}. {answers}").format(correct=correct, answers="; ".join(parts))


def _attack(d: Mapping, n: Names) -> str:
    fields = {"attacker": n.seat(d["seat"]), "defender": n.seat(d["defender"]), "territory": n.place(d["territory"]),
              "towers": d["towers"]}
    if d["towers"] and d["wings"]:
        text = ngettext("{attacker} attacks {defender} on Magic Wings: the castle of {territory} "
                        "({towers} tower standing)",
                        "{attacker} attacks {defender} on Magic Wings: the castle of {territory} "
                        "({towers} towers standing)", d["towers"])
    elif d["towers"]:
        text = ngettext("{attacker} attacks {defender}: the castle of {territory} ({towers} tower standing)",
                        "{attacker} attacks {defender}: the castle of {territory} ({towers} towers standing)",
                        d["towers"])
    elif d["wings"]:
        text = _("{attacker} attacks {defender} on Magic Wings: {territory}")
    else:
        text = _("{attacker} attacks {defender}: {territory}")
    return text.format(**fields)


def _round_battle(d: Mapping, n: Names) -> str:
    text = (_("Battle round {round} of {rounds} ({targets}; Magic Wings allowed); order: {order}")
            if d["magic_wings"] else _("Battle round {round} of {rounds} ({targets}); order: {order}"))
    return text.format(round=d["round"], rounds=d["rounds"], targets=target_label(d["targets"]),
                       order=n.seats(d["order"]))


def _ranking(d: Mapping, n: Names) -> str:
    places = d.get("places") or range(1, len(d["ranking"]) + 1)  # a shared place shows twice: "1. A; 1. B" (D16)
    lines = "; ".join(f"{place}. {n.seat(s)} {d['scores'][s]}" for place, s in zip(places, d["ranking"]))
    if d.get("win_kind"):
        return _("Game over ({win_kind}). Final ranking: {ranking}").format(
            win_kind=win_kind_label(d["win_kind"]), ranking=lines)
    return _("Game over. Final ranking: {ranking}").format(ranking=lines)


def _defend(d: Mapping, n: Names) -> str:
    text = (_("{player} holds {territory} and earns the defense bonus (+{points})") if d["points"]
            else _("{player} holds {territory}"))
    return text.format(player=n.seat(d["seat"]), territory=n.place(d["territory"]), points=d["points"])


def _bases(d: Mapping, n: Names) -> str:
    return ", ".join(f"{n.seat(s)}: {n.place(t)}" for s, t in enumerate(d["bases"]))


def _base_order(d: Mapping, n: Names) -> str:
    return ", ".join(_("{player} ({colour})").format(player=n.seat(s), colour=colour_label(n.colours[s]))
                     if n.colours else n.seat(s) for s in d["order"])


def _capture(d: Mapping, n: Names) -> str:
    count = len(d["territories"])
    return ngettext("{player} captures the base of {defender} and takes {count} territory and {points} points; "
                    "{defender} is out of the game",
                    "{player} captures the base of {defender} and takes all {count} territories and {points} points; "
                    "{defender} is out of the game", count).format(
        player=n.seat(d["seat"]), defender=n.seat(d["defender"]), count=count, points=d["points"])


def _deck_reshuffled(d: Mapping, n: Names) -> str:
    if d["kind"] == "guess":
        return _("every guess question has been asked; used questions are shuffled and asked again (D4)")
    return _("every choice question has been asked; used questions are shuffled and asked again (D4)")


def _related_question(d: Mapping, n: Names) -> str:
    if d["kind"] == "guess":
        return _("every guess question left belongs with one asked already "
                 "(it gives one away, or asks the same fact); one of them is asked")
    return _("every choice question left belongs with one asked already "
             "(it gives one away, or asks the same fact); one of them is asked")


def _question_asked(d: Mapping, n: Names) -> str:
    text = (_("Guess question for {players}: {question}") if d["kind"] == "guess"
            else _("Multiple-choice question for {players}: {question}"))
    return text.format(players=n.seats(d["seats"]), question=d["question_text"])


_TEXT: dict[str, Callable[[Mapping, Names], str]] = {
    "bases.drawn": lambda d, n: _("Bases drawn - {bases}").format(bases=_bases(d, n)),
    "bases.placed": lambda d, n: _("Bases placed - {bases}").format(bases=_bases(d, n)),
    "bases.chosen": lambda d, n: _("{player} chooses {territory} as base").format(
        player=n.seat(d["seat"]), territory=n.place(d["territory"])),
    "phase.bases": lambda d, n: _("Bases: each player chooses a base, in the order {order}").format(
        order=_base_order(d, n)),
    "phase.expansion": lambda d, n: ngettext("{phase}: {points} point a territory",
                                             "{phase}: {points} points a territory", d["value"]).format(
        phase=phase_label(d["phase"]).capitalize(), points=d["value"]),
    "phase.battle": lambda d, n: _("Expansion is over: the battle begins"),
    "phase.tiebreak": lambda d, n: ngettext("{players} have {points} point each: a guess question decides their order",
                                            "{players} have {points} points each: a guess question decides their order",
                                            d["points"]).format(players=and_list(n.seat(s) for s in d["seats"]),
                                                                points=d["points"]),
    "round.claim": lambda d, n: _("{phase} round {round} of {rounds}; order: {order}").format(
        phase=phase_label(d["phase"]).capitalize(), round=d["round"], rounds=d["rounds"], order=n.seats(d["order"])),
    "round.battle": _round_battle,
    "question.asked": _question_asked,
    "answers.revealed": _answers,
    "pick.taken": lambda d, n: _("{player} takes {territory} (+{points})").format(
        player=n.seat(d["seat"]), territory=n.place(d["territory"]), points=d["points"]),
    "pick.claim_wrong": lambda d, n: _("{player} answered wrong: {territory} stays free").format(
        player=n.seat(d["seat"]), territory=n.place(d["territory"])),
    "claim.made": lambda d, n: _("{player} claims {territory}: a multiple-choice question decides").format(
        player=n.seat(d["seat"]), territory=n.place(d["territory"])),
    "attack.started": _attack,
    "battle.both_right": lambda d, n: _("Both answered right: a guess question decides"),
    "tower.fallen": lambda d, n: ngettext("A tower of {territory} falls ({towers} left)",
                                          "A tower of {territory} falls ({towers} left)", d["towers"]).format(
        territory=n.place(d["territory"]), towers=d["towers"]),
    "take.territory": lambda d, n: _("{player} takes {territory} (+{gained}); {defender} loses {lost}").format(
        player=n.seat(d["seat"]), territory=n.place(d["territory"]), gained=d["gained"],
        defender=n.seat(d["defender"]), lost=d["lost"]),
    "defend.held": _defend,
    "capture.base": _capture,
    "award.elimination": lambda d, n: ngettext("{player} earns {points} point for eliminating {defender}",
                                               "{player} earns {points} points for eliminating {defender}",
                                               d["points"]).format(
        player=n.seat(d["seat"]), points=d["points"], defender=n.seat(d["defender"])),
    "award.tiebreak": lambda d, n: _("{player} wins the tie-break: +{points}").format(
        player=n.seat(d["seat"]), points=d["points"]),
    "rebuild.tried": lambda d, n: _("{player} tries to rebuild the castle: a multiple-choice question decides").format(
        player=n.seat(d["seat"])),
    "rebuild.done": lambda d, n: ngettext("{player} rebuilds the castle: {towers} tower stands again",
                                          "{player} rebuilds the castle: {towers} towers stand again",
                                          d["towers"]).format(player=n.seat(d["seat"]), towers=d["towers"]),
    "rebuild.failed": lambda d, n: _("{player} answered wrong: the castle stays as it was").format(
        player=n.seat(d["seat"])),
    "skip.nothing_to_attack": lambda d, n: _("{player} has nothing to attack and skips the turn").format(
        player=n.seat(d["seat"])),
    "skip.timed_out": lambda d, n: _("{player} ran out of time; the turn passes").format(player=n.seat(d["seat"])),
    "timeout.random_choice": lambda d, n: _("{player} ran out of time; chosen at random: {territory}").format(
        player=n.seat(d["seat"]), territory=n.place(d["territory"])),
    "warning.deck_reshuffled": _deck_reshuffled,
    "warning.related_question": _related_question,
    "teacher.skipped": lambda d, n: _("The teacher skipped the question: here is another one"),
    "teacher.ended": lambda d, n: _("The teacher ended the game"),
    "ranking.final": _ranking,
}
assert set(_TEXT) == {code for codes in EVENT_CODES.values() for code in codes}, "a sentence per event code"


def event_text(event: Event, names: Names) -> str:
    """The sentence for one event in the language in use, e.g. ``"Anna takes
    Baranya (+400); Bot 1 loses 200"``.

    Raises:
        KeyError: an event code with no sentence (cannot happen for events the
            engine makes: a test checks every code).
    """
    return _TEXT[event.code](event.data, names)


# ----------------------------------------------------------------------------- refusals

#: Why an intent was refused (an engine error's or an ``Ack``'s code) -> a
#: clause for the player in the language in use (:func:`refusal`).
REFUSALS = {
    # the engine (triviador_nb.engine.errors)
    "illegal_action": N_("this move is not allowed now"),
    "not_your_turn": N_("it is not your turn"),
    "illegal_territory": N_("this territory cannot be chosen now"),
    "invalid_answer": N_("this answer cannot be taken"),
    "answer_too_late": N_("too late: the timer had run out, so this counts as no answer"),
    "illegal_rebuild": N_("the castle cannot be rebuilt now"),
    "game_over": N_("the game is over"),
    "nothing_to_undo": N_("there is nothing to undo yet"),
    # the table (triviador_nb.classroom.table)
    "not_started": N_("the game has not started yet"),
    "paused": N_("one moment: the result is still on screen"),
    "get_ready": N_("get ready: the game begins in a moment"),
    "held": N_("the teacher has paused the game"),
    "stopped": N_("this game has been closed"),
    "no_question": N_("there is no open question"),
    "not_your_seat": N_("this seat is not yours to play"),
    "stale_state": N_("that moment of the game has passed"),
    "already_answered": N_("your answer is in already"),
    "unreadable": N_("this move could not be read"),
    "not_an_intent": N_("only a pick, an attack, a rebuild or an answer can be sent"),
    # a room (triviador_nb.rooms: the client and the protocol)
    "no_connection": N_("not connected to the room (reconnecting…)"),
    "no_answer": N_("the room did not answer in time: check the connection"),
    "bad_field": N_("this move could not be read"),
    "not_json": N_("this move could not be read"),
    "not_an_object": N_("this move could not be read"),
    "unknown_type": N_("this move could not be read"),
    "wrong_version": N_("this screen and the room run different versions: join the room again"),
}
#: The clause for a code :data:`REFUSALS` does not know.
REFUSED = N_("this move is not allowed now")


def refusal(code: str, reason: str) -> str:
    """Why an intent was refused, for the player, in the language in use.

    In English it is ``reason`` as it is (the engine's or the table's own
    sentence, which names the territory or the seat); in any other language
    it is the translated clause for ``code`` (:data:`REFUSALS`), or a
    generic "this move is not allowed now" for a code it does not know. The
    clause starts in lower case and has no full stop, like the engine's
    reasons: the screen capitalises it or puts it after a colon.

    Args:
        code: the ``Ack``'s or the engine error's code (``"not_your_turn"``).
        reason: its English sentence.
    """
    if current_language() == SOURCE:
        return reason
    return _(REFUSALS.get(code, REFUSED))


# ----------------------------------------------------------------------------- views


def status(view) -> tuple[str, str]:
    """The status line for the view's seat: ``(phase, what)``, e.g.
    ``("Battle round 2 of 3", "Your attack: click a territory to attack
    (neighbours)")``; before Start and after the game, ``what`` says so.
    Plain text (the screen escapes it)."""
    if not view.started:
        return _("Ready"), _('press "Start the game"')
    if view.is_over:
        winner = view.players[view.ranking[0]]
        firsts = [view.players[s].name for s, place in zip(view.ranking, view.places or ()) if place == 1]
        if len(firsts) > 1:  # D13, D16: equal scores share first place
            what = (ngettext("Game over: {winners} share first place with {points} point - {win_kind}",
                             "Game over: {winners} share first place with {points} points - {win_kind}",
                             winner.score) if view.win_kind else
                    ngettext("Game over: {winners} share first place with {points} point",
                             "Game over: {winners} share first place with {points} points", winner.score))
        elif view.win_kind:
            what = ngettext("Game over: {winner} wins with {points} point - {win_kind}",
                            "Game over: {winner} wins with {points} points - {win_kind}", winner.score)
        else:
            what = ngettext("Game over: {winner} wins with {points} point",
                            "Game over: {winner} wins with {points} points", winner.score)
        return _("Game over"), what.format(winner=winner.name, winners=", ".join(firsts), points=winner.score,
                                           win_kind=win_kind_label(view.win_kind) if view.win_kind else "")
    stage = view.stage
    if view.phase == "battle":
        phase = _("Battle round {round} of {rounds}").format(round=view.battle_round, rounds=view.battle_rounds)
    else:
        phase = phase_label(view.phase_name).capitalize()
    acting = view.acting
    prompt = view.prompt
    you = not view.paused and prompt.kind not in ("wait", "over")
    other = view.players[acting[0]].name if acting else ""
    if view.paused:
        what = _("the result")
    elif view.get_ready_s > 0:
        what = _("get ready: the game begins in a moment")
    elif stage == "base":
        what = (_("Your base: click a territory (outlined) for your castle") if you
                else _("{player} is choosing a base").format(player=other))
    elif stage == "pick" and view.claiming:
        what = (_("Your claim: click a free territory next to yours, then answer right to keep it") if you
                else _("{player} is choosing a territory to claim").format(player=other))
    elif stage == "pick":
        left = prompt.picks_left + 1
        what = (ngettext("Your pick: click a free territory next to yours ({left} left)",
                         "Your pick: click a free territory next to yours ({left} left)", left).format(left=left)
                if you else _("{player} is choosing a territory").format(player=other))
    elif stage == "attack":
        if not you:
            what = _("{player} is choosing whom to attack").format(player=other)
        else:
            rebuild, wings = prompt.can_rebuild, bool(prompt.wings_choices)
            if rebuild and wings:
                what = _("Your attack: click a territory to attack ({targets}) - or rebuild your castle"
                         " - Magic Wings reach anything once")
            elif rebuild:
                what = _("Your attack: click a territory to attack ({targets}) - or rebuild your castle")
            elif wings:
                what = _("Your attack: click a territory to attack ({targets}) - Magic Wings reach anything once")
            else:
                what = _("Your attack: click a territory to attack ({targets})")
            what = what.format(targets=target_label(view.round_targets))
    else:
        what = _question_status(view)
    return phase, what


def _question_status(view) -> str:
    asked = view.question
    names = [view.players[s].name for s in asked.players]
    if asked.purpose == "expansion":
        return _("guess question: everyone answers")
    if asked.purpose == "claim":
        seat, territory = view.claim
        return _("{player} claims {territory}: a right answer takes it").format(
            player=view.players[seat].name, territory=territory_name(view.territory(territory).name))
    if asked.purpose == "rebuild":
        return _("{player} rebuilds the castle: a right answer raises every tower").format(player=names[0])
    if view.attack is not None:
        a = view.attack
        text = (_("{attacker} attacks {defender} at {territory}: guess question decides") if asked.kind == "guess"
                else _("{attacker} attacks {defender} at {territory}: both answer"))
        return text.format(attacker=view.players[a.attacker].name, defender=view.players[a.defender].name,
                           territory=territory_name(view.territory(a.territory).name))
    return _("{players} answer").format(players=and_list(names))


def question_title(view) -> str:
    """The question panel's heading: the kind of question, who answers, what it
    decides (labels between `` · ``)."""
    asked = view.question
    kind = _("Guess question") if asked.kind == "guess" else _("Multiple-choice question")
    players = [view.players[s].name for s in asked.players]
    names = players[0] if players else ""
    for name in players[1:]:
        names = _("{first} vs {second}").format(first=names, second=name)
    if asked.purpose == "expansion":
        parts = [kind, _("everyone answers"), _("closest wins")]
    elif asked.purpose == "battle_guess":
        parts = [kind, _("both were right"), _("closest wins"), names]
    elif asked.purpose == "claim":
        _seat, territory = view.claim
        parts = [kind, names, _("right = {territory} is yours").format(
            territory=territory_name(view.territory(territory).name))]
    elif asked.purpose == "rebuild":
        parts = [kind, names, _("right = the castle stands again")]
    else:
        parts = [kind, names]
    return " · ".join(parts)


def turn_text(view) -> str:
    """What the view's seat is asked to click on its turn."""
    kind = view.prompt.kind
    if kind == "base":
        return _("Click a territory (outlined) for your base and castle.")
    if kind == "claim":
        return _("Click a free territory next to yours, then answer a question to keep it.")
    if kind == "pick":
        return _("Click a free territory next to yours on the map.")
    sentences = [_("Click a territory to attack (outlined on the map).")]
    if view.prompt.wings_choices:
        sentences.append(_("Magic Wings (button below) reach one far territory or castle."))
    if view.prompt.can_rebuild:
        sentences.append(_("Or rebuild your castle (button below)."))
    return " ".join(sentences)


OUTCOME_KINDS = {"battle", "tower", "take", "defend", "capture", "award", "pick", "rebuild"}


def outcome_lines(view) -> list[str]:
    """What the last resolved question decided, in sentences for the back row:
    who picks how many territories, or what the battle did."""
    reveal = view.reveal
    if reveal is None:
        return []
    names = Names.of_view(view)
    if reveal.data["purpose"] == "expansion":
        picks = [e.data["seat"] for e in view.outcome if e.kind == "pick"] + list(view.pick_queue)
        counts = {seat: picks.count(seat) for seat in dict.fromkeys(picks)}
        parts = [ngettext("{player}: {picks} pick", "{player}: {picks} picks", n).format(
            player=view.players[seat].name, picks=n) for seat, n in counts.items()]
        answered = {a["seat"] for a in reveal.data["answers"] if a["given"] is not None}
        if not answered:
            return [_("Nobody answered: no picks.")]
        closest = view.players[next(s for s in reveal.data["order"] if s in answered)].name
        if not parts:
            return [_("Closest: {player}. No picks.").format(player=closest)]
        return [_("Closest: {player}. {picks}.").format(player=closest, picks="; ".join(parts))]
    if reveal.data["purpose"] == "tiebreak":
        order = [view.players[s].name for s in reveal.data["order"]]
        joined = order[0] if order else ""
        for name in order[1:]:
            joined = _("{first}, then {second}").format(first=joined, second=name)
        return [_("Tie-break: {order}.").format(order=joined)]
    return [event_text(e, names) + "." for e in view.outcome if e.kind in OUTCOME_KINDS]
