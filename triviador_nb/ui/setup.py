"""The game setup form: rule set, map (with a preview), question bank, bots, pace.

:func:`setup` shows the form above a game; "New game" replaces the game
below with one made from the form. A bad setting (a missing bank file, say)
is explained under the form and the game on screen is kept.
"""

from __future__ import annotations

import re
import warnings
from datetime import datetime
from html import escape
from pathlib import Path
from typing import Callable, Sequence

import ipywidgets as w

from ..engine import RULE_SETS, find_rule_set
from ..maps import (HINT_LINK, HINT_MERGE, HINT_NAME_PROPERTY, MERGE_LABEL, GameMap, MapError, MapWarning,
                    builtin_map_path, builtin_map_titles, load_builtin_map)
from ..engine import QuestionBank
from ..banks import resolve_bank
from ..banks.problems import capped_lines
from ..maps import resolve_map
from .single_screen import DEFAULT_BANK, language_bank, play, resume
from .app import GameApp
from .cells import close_widgets, shown_by_cell
from .map_view import MapView
from babel.dates import format_skeleton, format_time

from ..classroom import Clock
from ..classroom.journal import SavedGame, read_journal, saved_games
from ..i18n import (CATEGORY, DIFFICULTY, MAP, RULE_SET, SOURCE, LanguageError, LanguageWarning, N_, _, babel_locale,
                    current_language, language_notes, languages, ngettext, pgettext, set_language, speaking,
                    translation)
from .teacher import skill_name

SKILLS = ("easy", "medium", "hard")

# Questions a game asks, 95th percentile of 200 bot games per rule set on
# Hungary's 19 counties (measured 2026-11-30; D4). Most games need fewer.
QUESTIONS_PER_GAME = {
    "duel": {"guess": 9, "choice": 10},
    "conquiztador": {"guess": 14, "choice": 12},
    "dobyvatel": {"guess": 15, "choice": 15},
    "long-campaign": {"guess": 17, "choice": 39},
}
PACES = ((N_("realistic"), 1.0), (N_("quick"), 0.5), (N_("fast"), 0.3))
TEAM_COUNTS = (2, 3)  #: how many teams can share a screen (the rule sets' 2 or 3 seats)
#: The form's field widths: labels wide enough for the longest Hungarian and
#: Czech ones ("Szabályrendszer", "nebo soubor mapy"), never cut.
LABEL_WIDTH, FIELD_WIDTH = "140px", "390px"
YOUR_TEAM = N_("Your team")  # the default name of the person at the screen
N_("Merge features with the same name")  # maps.MERGE_LABEL, the merge box's label: marked here for extraction


class GameSetup:
    """A setup form and the game it starts.

    Args:
        rules, map, bank, you, bots, seed, pace, clock: the form's first
            settings (see :func:`~.single_screen.play`); ``you`` None: "Your
            team" in the form's language; ``bank`` None, or a built-in bank
            of another language when ``language`` is not given with it
            (after a Hungarian lesson the form opens in Hungarian): the
            built-in bank in the form's language (a teacher's own file is
            kept).
        teams: team names sharing the screen (``"Foxes, Owls"``), a number
            of teams (2 or 3: "Team A", "Team B"... in the form's language,
            renamed when the language changes), or None.
        folded: the form starts folded into one line above the game (the
            projector: the class sees the game).
        language: the form's first language (``"hu"``; None: the kernel's).
            The form's first field chooses it; the game started from the form
            speaks it, and it becomes the kernel's language
            (:func:`triviador_nb.i18n.set_language`).

    Attributes:
        widget: the form and the game, to display.
        app: the :class:`GameApp` on screen (replaced by "New game").
        language: the code of the language chosen in the form.
    """

    def __init__(self, rules: str = "conquiztador", map: str = "hungary", bank: str | None = None,
                 you: str | None = None, bots: Sequence[str] | None = None, seed: int | None = None,
                 pace: float = 1.0, clock: Clock | None = None, language: str | None = None,
                 teams: int | str | Sequence[str] | None = None, folded: bool = False):
        self._saved = saved_games(limit=8)  # read once: the list below and the language after a restart
        unreadable = ""
        chosen = language is not None and bank is not None  # both given: a teacher's own pairing stays
        if language is None:
            language, unreadable = _saved_language(self._saved)
        with speaking(language) as self.language:
            if not chosen and bank is not None:  # a built-in bank of another language: this language's
                bank = language_bank(str(bank), self.language) or bank
            self._build(rules, map, bank, you, bots, seed, pace, clock, teams, folded)
            if unreadable:  # the saved games' language: its file broke since; the form speaks the kernel's
                self.error.value = warning_html(unreadable) + self.error.value

    def _build(self, rules: str, map: str, bank: str | None, you: str | None, bots: Sequence[str] | None,
               seed: int | None, pace: float, clock: Clock | None, teams: int | str | Sequence[str] | None,
               folded: bool) -> None:
        self._clock = clock
        style = {"description_width": LABEL_WIDTH}
        wide = {"width": FIELD_WIDTH}
        self.language_choice = w.Dropdown(options=[(name, code) for code, name in languages().items()],
                                          value=self.language, style=style, layout=wide)
        self.rules = w.Dropdown(options=self._rule_options(), value=find_rule_set(rules).name, style=style,
                                layout=wide)
        self.map = w.Dropdown(options=self._map_options(), value=map, style=style, layout=wide)
        self.map_file = w.Text(value="", style=style, layout=wide)
        self.name_property = w.Text(value="", style=style, layout=wide)
        self.links = w.Text(value="", style=style, layout=wide)
        self.merge = w.Checkbox(value=False, indent=False, layout=wide)
        self.map_options = w.VBox([self.name_property, self.links, self.merge], layout={"display": "none"})
        self.map_file.observe(self._in_language(self._show_map_options), "value")
        if bank is None:
            bank = language_bank(DEFAULT_BANK, self.language) or DEFAULT_BANK
        self.bank = w.Text(value=str(bank), style=style, layout=wide)
        self.bank.continuous_update = False
        self.categories = w.SelectMultiple(style=style, layout={"width": FIELD_WIDTH, "height": "110px"})
        self.difficulties = w.SelectMultiple(style=style, layout={"width": FIELD_WIDTH, "height": "80px"})
        self.enough = w.HTML()
        self.you = w.Text(value=_(YOUR_TEAM) if you is None else you, style=style, layout=wide)
        self.teams = w.Text(value=team_names(teams), style=style, layout=wide)
        self.bots = [w.Dropdown(options=self._skill_options(), style=style, layout=wide) for _i in range(3)]
        self.pace = w.Dropdown(options=self._pace_options(), value=pace if pace in dict(PACES).values() else 1.0,
                               style=style, layout=wide)
        self.seed = w.Text(value="" if seed is None else str(seed), style=style, layout=wide)
        self.new_game = w.Button(button_style="success", layout={"width": FIELD_WIDTH, "height": "44px"},
                                 style={"font_weight": "bold"})
        self.error = w.HTML()
        # after a kernel restart: the games saved before this form was made (its own game is saved too)
        self.saved_choice = w.Dropdown(options=[(saved_label(g), str(g.path)) for g in self._saved],
                                       style=style, layout={"width": "560px"})
        self.resume_button = w.Button(button_style="warning", icon="play",
                                      layout={"width": FIELD_WIDTH, "height": "44px"}, style={"font_weight": "bold"})
        self.resume_button.on_click(self._in_language(self.resume_saved))
        self.saved_row = w.VBox([self.saved_choice, self.resume_button],
                                layout={"display": None if self._saved else "none", "margin": "0 0 12px 0"})
        self.preview_box = w.Box(layout={"width": "420px", "height": "260px"})
        self.game_box = w.Box(layout={"width": "100%"})
        for i, skill in enumerate((bots or ("medium", "hard", "easy"))[:3]):
            self.bots[i].value = skill
        self.language_choice.observe(lambda change: self._language_chosen(change["new"]), "value")
        self.rules.observe(self._in_language(self._show_bot_seats), "value")
        self.map.observe(self._in_language(self._show_preview), "value")
        self.bank.observe(self._in_language(self._load_bank), "value")
        for control in (self.rules, self.categories, self.difficulties):
            control.observe(self._in_language(self._say_if_enough), "value")
        self.new_game.on_click(self._in_language(self.start))
        form = w.VBox([self.language_choice, self.rules, self.map, self.map_file, self.map_options, self.bank,
                       self.categories, self.difficulties, self.enough, self.you, self.teams, *self.bots, self.pace,
                       self.seed, self.new_game])
        fields = w.HBox([form, self.preview_box])
        # folded (the projector): the game is what the class sees; the form is one line above it
        self.fold = w.Accordion(children=(fields,), selected_index=None if folded else 0)
        self._folded = folded
        self.widget = w.VBox([self.saved_row, self.fold, self.error, self.game_box])
        self._label()
        self._show_bot_seats()
        self._preview: MapView | None = None
        self._show_preview()
        self._bank: QuestionBank | None = None
        self.app: GameApp | None = None
        self.start()  # reads the bank too
        shown_by_cell(self)

    # ------------------------------------------------------------------ the form's words

    def _in_language(self, callback: Callable[[], None]) -> Callable[[object], None]:
        """``callback`` as a widget's handler (its argument dropped), run in the form's language."""
        def handler(_change: object) -> None:
            if self._relabelling:
                return  # options re-labelled in another language: nothing was chosen
            with speaking(self.language):
                callback()
        return handler

    _relabelling = False

    def _rule_options(self) -> list[tuple[str, str]]:
        return [(ngettext("{rules} ({n} player)", "{rules} ({n} players)", r.players)
                 .format(rules=pgettext(RULE_SET, r.title), n=r.players), r.name) for r in RULE_SETS]

    def _map_options(self) -> list[tuple[str, str]]:
        return [(pgettext(MAP, title), name) for name, title in builtin_map_titles().items()]

    @staticmethod
    def _skill_options() -> list[tuple[str, str]]:
        return [(skill_name(skill), skill) for skill in SKILLS]

    @staticmethod
    def _pace_options() -> list[tuple[str, float]]:
        return [(_(label), value) for label, value in PACES]

    def _label(self) -> None:
        """Every description, placeholder and option label of the form, in
        the language in use (the form's: run inside ``speaking``)."""
        self.language_choice.description = _("Language")
        self.rules.description = _("Rule set")
        self.map.description = _("Map")
        self.map_file.description = _("or map file")
        self.map_file.placeholder = _("your own .geojson (path from notebooks/)")
        self.name_property.description = _("Name field")
        self.name_property.placeholder = _("property naming territories (default: name)")
        self.links.description = _("Links")
        self.links.placeholder = _("Isle=Coast, A=B (names or ids; ; between links if names have commas)")
        self.merge.description = _(MERGE_LABEL)
        self.bank.description = _("Questions")
        self.bank.placeholder = _("general_knowledge_en, or files: a.csv, b.xlsx, c.gift")
        self.categories.description = _("Categories")
        self.difficulties.description = _("Difficulty")
        self.you.description = _("Your team")
        self.teams.description = _("or teams")
        self.teams.placeholder = _("2 or 3 names: Foxes, Owls (you type their answers)")
        for i, dropdown in enumerate(self.bots):
            dropdown.description = _("Bot {n}").format(n=i + 1)
        self.pace.description = _("Pace")
        self.seed.description = _("Game no.")
        self.seed.placeholder = _("empty: a new random game")
        self.new_game.description = _("New game")
        self.fold.set_title(0, _("Game setup: language, teams, map, questions"))
        self.saved_choice.description = _("Saved game")
        self.resume_button.description = _("Resume the saved game")
        self.resume_button.tooltip = _("Bring back a game saved before the kernel restarted, where it stood")

    def _relabel(self) -> None:
        """The option labels in the language in use, each control keeping its choice."""
        labels = [(self.saved_choice, [(saved_label(g), str(g.path)) for g in self._saved]),
                  (self.rules, self._rule_options()), (self.map, self._map_options()),
                  (self.pace, self._pace_options()), *((d, self._skill_options()) for d in self.bots)]
        labels += [(control, [(name(value), value) for _label, value in control.options])
                   for control, name in ((self.categories, category_name), (self.difficulties, difficulty_name))]
        self._relabelling = True
        try:
            for control, options in labels:
                chosen = control.value
                control.options = options
                control.value = chosen
        finally:
            self._relabelling = False

    def _language_chosen(self, code: str) -> None:
        """The form's words in language ``code`` at once; the next game speaks
        it. A teacher's ``.po`` file that cannot be read is said here, not
        mid-game, and the form keeps its language; messages of it left out
        (they would fail on screen: the English shows there) are listed."""
        if code == self.language:  # set back after a file that cannot be read: what was said stays
            return
        try:
            translation(code, fresh=True)
            notes = language_notes(code)
        except LanguageError as error:
            self.error.value = warning_html(str(error))
            self.language_choice.value = self.language
            return
        self.error.value = language_notes_html(notes)
        old, self.language = self.language, code
        with speaking(old):
            default_before = _(YOUR_TEAM)
            teams_before = [team_names(n) for n in TEAM_COUNTS]
        with speaking(code):
            if self.you.value.strip() == default_before:
                self.you.value = _(YOUR_TEAM)
            if self.teams.value.strip() in teams_before:  # the default names: in the new language too
                self.teams.value = team_names(TEAM_COUNTS[teams_before.index(self.teams.value.strip())])
            self._label()
            self._relabel()
            other = language_bank(self.bank.value.strip(), code)
            if other is not None:
                self.bank.value = other  # the built-in questions in the chosen language (read at once)
            self._say_if_enough()

    def close(self) -> None:
        """Stop the game and close every widget of the form and the game."""
        if self.app is not None:
            self.app.close()
        if self._preview is not None:
            self._preview.close()
        close_widgets(self.widget)

    def _repr_mimebundle_(self, **kwargs: object) -> dict:
        return self.widget._repr_mimebundle_(**kwargs)

    def _show_map_options(self) -> None:
        """The own-map fields show once a map file is typed in."""
        self.map_options.layout.display = None if self.map_file.value.strip() else "none"

    def _own_map(self, path: str, players: int) -> GameMap:
        """The teacher's map file, read with the form's name field, links and merge box.

        Raises:
            MapError: the map or a link is wrong (options named as the form names them), or the
                file cannot be read.
        """
        text = self.links.value.strip()
        parts = [p for p in re.split(r"[;\n]" if re.search(r"[;\n]", text) else ",", text) if p.strip()]
        bad = [p.strip() for p in parts if "=" not in p or not all(side.strip() for side in p.split("=", 1))]
        if bad:
            raise MapError(_("Links: each link is two territories as A=B, not {links}")
                           .format(links=", ".join(repr(b) for b in bad)))
        links = [tuple(side.strip() for side in p.split("=", 1)) for p in parts]
        try:
            return resolve_map(path, players=players, name_property=self.name_property.value.strip() or None,
                               links=links or None, merge_by_name=self.merge.value, progress=self._checking)
        except MapError as error:
            raise MapError(form_words(str(error)), [form_words(p) for p in error.problems]) from None
        except OSError as error:
            raise MapError(_("cannot read the map file {path}: {error}")
                           .format(path=path, error=error.strerror or error)) from None

    def _checking(self, step: str) -> None:
        """Say under the form what a long check of the teacher's map is doing (a 100 MB map takes
        minutes: issue 25); each update reaches the page while the check runs."""
        self.error.value = '<div class="tnb-note" style="font-size:16px">{}</div>'.format(
            escape(_("Checking your map file: {step}…").format(step=step)))

    def _show_bot_seats(self) -> None:
        bots = find_rule_set(self.rules.value).players - 1
        for i, dropdown in enumerate(self.bots):
            dropdown.layout.display = None if i < bots else "none"

    def _load_bank(self) -> None:
        """Read the bank named in the form and offer its categories and difficulties."""
        text = self.bank.value.strip()
        names = [text] if Path(text).is_file() else [n.strip() for n in text.split(",") if n.strip()]
        try:
            self._bank = resolve_bank(names if len(names) > 1 else (names[0] if names else ""))
        except (ValueError, OSError) as error:
            self._bank, self._bank_error = None, str(error)
            self.enough.value = warning_html(str(error))
            return
        for control, values, name in ((self.categories, self._bank.categories(), category_name),
                                      (self.difficulties, self._bank.difficulties(), difficulty_name)):
            offered = {value for _, value in control.options}
            chosen = set(control.value)
            if offered != set(values):  # a different bank: offer and choose all of its values
                control.options = [(name(v), v) for v in values]
                chosen = set(values)
            control.value = tuple(v for v in values if v in chosen)
        self._say_if_enough()

    def selected_bank(self) -> QuestionBank:
        """The bank cut to the chosen categories and difficulties.

        Raises:
            ValueError: no bank could be read, or the choice leaves no guess or
                no multiple-choice question.
        """
        if self._bank is None:
            raise ValueError(self._bank_error)
        return self._bank.filtered(self.categories.value, self.difficulties.value)

    def _bank_choice(self) -> tuple[object, list[str] | None, list[str] | None]:
        """What the game is given: the bank as named in the form (so its journal
        can name it again), and the categories and difficulties chosen, None
        where all are; the bank read already when it has no name (or fails).

        Raises:
            ValueError: no bank could be read, or the choice leaves no guess or
                no multiple-choice question.
        """
        self.selected_bank()  # raises when the choice leaves a kind of question out
        text = self.bank.value.strip()
        names = [text] if Path(text).is_file() else [n.strip() for n in text.split(",") if n.strip()]
        cut = [list(control.value) if set(control.value) != {v for _label, v in control.options} else None
               for control in (self.categories, self.difficulties)]
        return (names if len(names) > 1 else names[0]), cut[0], cut[1]

    def _say_if_enough(self) -> None:
        """D4: say before the game whether the selection lasts a game without repeats."""
        if self._bank is None:
            return
        try:
            bank = self.selected_bank()
        except ValueError as error:
            self.enough.value = f'<div class="tnb-warn">{escape(str(error))}</div>'
            return
        need = QUESTIONS_PER_GAME.get(find_rule_set(self.rules.value).name, {"guess": 20, "choice": 40})
        have = {"guess": len(bank.guess), "choice": len(bank.choice)}
        short = [kind for kind in need if have[kind] < need[kind]]
        counts = {"guesses": ngettext("{n} guess question", "{n} guess questions",
                                      have["guess"]).format(n=have["guess"]),
                  "choices": ngettext("{n} multiple-choice question", "{n} multiple-choice questions",
                                      have["choice"]).format(n=have["choice"])}
        if short:
            text = _("{guesses} and {choices} chosen: a game usually needs up to {need_guess} and {need_choice}, "
                     "so some may be asked twice (D4).").format(need_guess=need["guess"], need_choice=need["choice"],
                                                                **counts)
            self.enough.value = f'<div class="tnb-warn">{escape(text)}</div>'
        else:
            text = _("{guesses} and {choices} chosen: enough for a game without repeats.").format(**counts)
            self.enough.value = f'<div class="tnb-note">{escape(text)}</div>'
        self.enough.value += bank_warnings_html(self._bank.warnings)

    def _show_preview(self, game_map: GameMap | None = None) -> None:
        """Preview ``game_map`` (default: the map chosen in the list)."""
        self._previewed = game_map or load_builtin_map(self.map.value)
        shown, self._preview = self._preview, map_preview(self._previewed, height="260px")
        self.preview_box.children = (self._preview.widget,)
        if shown is not None:
            shown.close()

    def _chosen_builtin_map(self) -> GameMap:
        """The built-in map chosen in the list (the one previewed, when it is)."""
        if self._previewed.source_path == builtin_map_path(self.map.value):
            return self._previewed
        return load_builtin_map(self.map.value)

    def start(self) -> None:
        """Start a new game from the form (the "New game" button), in the
        form's language (made the kernel's language too)."""
        with speaking(self.language):
            self._start()

    def resume_saved(self) -> None:
        """Bring back the saved game chosen in the form (the "Resume the saved
        game" button) in place of the game below; a journal that cannot be
        resumed is explained under the form and the game on screen is kept."""
        path = self.saved_choice.value
        if not path:
            return
        name = Path(path).name
        try:
            if read_journal(path).header["setup"].get("screen") == "room":  # changed since it was listed
                self.error.value = warning_html(_("{file} is a room's saved game: resume it from host.ipynb")
                                                .format(file=name))
                return
            app = resume(path, clock=self._clock)
        except FileNotFoundError:
            self.error.value = warning_html(_("{file} is not there any more (moved or deleted since the list was "
                                              "made)").format(file=name))
            return
        except (ValueError, OSError) as error:  # JournalError is a ValueError; the message says why
            self.error.value = warning_html(str(error))
            return
        except Exception as error:  # noqa: BLE001 - said under the form, never a silent button
            self.error.value = warning_html(_("{file} could not be resumed (a fault in triviador_nb, not in the "
                                              "file: please report it): {error}")
                                            .format(file=name, error=f"{type(error).__name__}: {error}"))
            return
        if not isinstance(app, GameApp):  # cannot happen: a room's journal was said above
            app.close()
            return
        previous, self.app = self.app, app
        self.game_box.children = (app.widget,)
        if previous is not None:
            previous.close()
        self.error.value = ""

    def _start(self) -> None:
        self._load_bank()  # the file may have been fixed or edited since it was typed in
        rules = find_rule_set(self.rules.value)
        seed_text = self.seed.value.strip()
        if seed_text and not re.fullmatch(r"[0-9]{1,15}", seed_text):
            text = _("Game no. must be a whole number, not {seed}.").format(seed=seed_text)
            self.error.value = f'<div class="tnb-warn">{escape(text)}</div>'
            return
        own_map = self.map_file.value.strip()
        try:
            with warnings.catch_warnings():  # shown under the form instead
                warnings.simplefilter("ignore", MapWarning)
                game_map = self._own_map(own_map, rules.players) if own_map else self._chosen_builtin_map()
            teams = [name.strip() for name in self.teams.value.split(",") if name.strip()] or None
            humans = len(teams) if teams else 1  # teams share the screen; the bots fill the other seats
            with warnings.catch_warnings():  # the form listed what the language's file left out when chosen
                warnings.simplefilter("ignore", LanguageWarning)
                set_language(self.language)  # the report and everything after the game follow the form
                bank, categories, difficulties = self._bank_choice()
                app = play(rules=rules.name, map=game_map, bank=bank, categories=categories,
                           difficulties=difficulties, you=self.you.value.strip() or _(YOUR_TEAM), teams=teams,
                           bots=[d.value for d in self.bots[:max(rules.players - humans, 0)]],
                           seed=int(seed_text) if seed_text else None, pace=self.pace.value, clock=self._clock,
                           language=self.language)
        except (ValueError, OSError) as error:
            self.error.value = warning_html(str(error))
            return
        previous, self.app = self.app, app
        self.game_box.children = (app.widget,)
        if previous is not None:
            previous.close()
            if self._folded:
                self.fold.selected_index = None  # the projector shows the new game, not the form
        self.error.value = "".join(f'<div class="tnb-note">{escape(warning)}</div>' for warning in game_map.warnings)
        if game_map.source_path != self._previewed.source_path:
            self._show_preview(game_map)


def team_names(teams: int | str | Sequence[str] | None) -> str:
    """The form's teams field for ``teams``: a number of teams (2 or 3) as
    the default names in the language in use (``"Team A, Team B"``,
    ``"A csapat, B csapat"``); the English defaults as the language's own
    (a notebook written in English opened in Hungarian); names as given.

    Raises:
        ValueError: a number of teams other than 2 or 3.
    """
    if isinstance(teams, int) and not isinstance(teams, bool):
        if teams not in TEAM_COUNTS:
            raise ValueError(f"teams is 2 or 3 teams sharing the screen, not {teams}")
        return ", ".join(_("Team {letter}").format(letter=letter) for letter in "ABC"[:teams])
    text = teams if isinstance(teams, str) else ", ".join(teams or ())
    with speaking(SOURCE):
        english = {team_names(n): n for n in TEAM_COUNTS}
    return team_names(english[text.strip()]) if text.strip() in english else text


def category_name(category: str) -> str:
    """A category as the form lists it: a built-in bank's (English) category
    in the language in use (``"Arts & Literature"`` -> ``"Művészet és
    irodalom"``), a teacher's own as written, none as "(none)"."""
    return pgettext(CATEGORY, category) if category else _("(none)")


def difficulty_name(difficulty: str) -> str:
    """A question's difficulty as the form lists it: ``easy``, ``medium``
    and ``hard`` (the bank format's words) in the language in use, another
    as written, none as "(none)"."""
    return pgettext(DIFFICULTY, difficulty) if difficulty else _("(none)")


def _saved_language(saved: Sequence[SavedGame]) -> tuple[str | None, str]:
    """After a kernel restart (the kernel still speaking English, never told
    otherwise): the language of the newest saved game, so a Hungarian lesson
    comes back in Hungarian; None otherwise. Second: why that language is
    not spoken when its file cannot be read now (else ``""``): the form
    appears in the kernel's language and says so."""
    if current_language() != SOURCE:
        return None, ""
    code = saved[0].setup.get("language") if saved else None
    if not (isinstance(code, str) and code in languages()):
        return None, ""
    try:
        translation(code, fresh=True)  # as the file is now, not as this kernel read it before
    except LanguageError as error:
        return None, _("The saved games' language ({language}) cannot be read now: {error}").format(
            language=code, error=error)
    return code, ""


def saved_label(game: SavedGame) -> str:
    """How the form lists a saved game: when it was last played, the rule
    set, the teams (or player) at the screen, the game's number and how far
    it went, e.g. ``"Dec 2 6:34 PM · ConQUIZtador · Foxes, Owls · game 812
    · 23 moves"`` (issue 24: four games of one minute are told apart); the
    date in the language in use (Babel)."""
    locale = babel_locale()
    saved = datetime.fromtimestamp(game.saved)
    when = f"{format_skeleton('MMMd', saved, locale=locale)} {format_time(saved, 'short', locale=locale)}"
    setup = game.setup
    try:
        rules = pgettext(RULE_SET, find_rule_set(str(setup.get("rules"))).title)
    except (KeyError, ValueError):
        rules = str(setup.get("rules", "?"))
    humans = setup.get("humans")
    people = ", ".join(str(h) for h in humans if h) if isinstance(humans, list) else ""
    people = people or _("bots only")
    parts = [when, rules, people]
    if game.game is not None:
        parts.append(_("game {number}").format(number=game.game))
    parts.append(ngettext("{n} move", "{n} moves", game.moves).format(n=game.moves))
    return " · ".join(parts)


def form_words(message: str) -> str:
    """A map message with each loading option named as the form names it
    (in the language in use: the form's labels)."""
    return (message.replace(HINT_MERGE, _('tick "{label}"').format(label=_(MERGE_LABEL)))
            .replace(HINT_NAME_PROPERTY, _('type it in "{field}"').format(field=_("Name field")))
            .replace(HINT_LINK, _('"{field}": A=B, C=D').format(field=_("Links"))))


PREVIEW_COLOURS = ("#CFE0C3", "#F3D9B1", "#C9D7EA", "#EBC8C8", "#DCD0E8")


def warning_html(text: str) -> str:
    """``text`` as a warning under the form, its lines kept."""
    return f'<div class="tnb-warn" style="white-space:pre-wrap">{escape(text)}</div>'


def language_notes_html(notes: Sequence[str]) -> str:
    """What a language's file left out or read anyway (:func:`~triviador_nb.i18n.language_notes`),
    folded under a summary, at most 20 of a kind; ``""`` for none."""
    if not notes:
        return ""
    summary = ngettext("{n} note about the language file (messages left out show in English)",
                       "{n} notes about the language file (messages left out show in English)",
                       len(notes)).format(n=len(notes))
    return (f'<details class="tnb-note" open><summary>{escape(summary)}</summary><div style="white-space:pre-wrap">'
            f'{escape(chr(10).join(capped_lines(notes)))}</div></details>')


def bank_warnings_html(found: Sequence[str]) -> str:
    """A bank's warnings (skipped rows...) folded under a summary, at most 20 of a kind; ``""`` for none."""
    if not found:
        return ""
    lines = "\n".join(capped_lines(found))
    summary = ngettext("{n} warning about the questions (rows left out, and why)",
                       "{n} warnings about the questions (rows left out, and why)", len(found)).format(n=len(found))
    return (f'<details class="tnb-note"><summary>{escape(summary)}</summary><div style="white-space:pre-wrap">'
            f"{escape(lines)}</div></details>")


def map_preview(game_map: GameMap, height: str = "260px") -> MapView:
    """A small view of a map with its territories in soft colours and named."""
    view = MapView(game_map, height=height)
    ids = game_map.board.territories
    view.show(owners={t: PREVIEW_COLOURS[i % len(PREVIEW_COLOURS)] for i, t in enumerate(ids)},
              values={t: 0 for t in ids}, towers={t: None for t in ids}, total_towers=0)
    return view


def setup(**settings: object) -> GameSetup:
    """The setup form with a game below it; ``settings`` preset the form
    (``rules``, ``map``, ``bank``, ``you``, ``bots``, ``seed``, ``pace``,
    ``language``: its first field, ``"hu"``; None: the kernel's; ``teams``:
    ``"Foxes, Owls"`` for teams sharing the screen; ``folded=True`` folds
    the form into one line above the game, as the projector wants it).

    Raises:
        LanguageError: no catalogue for ``language`` (the message lists the
            languages there are).
    """
    return GameSetup(**settings)
