"""Words a native reader corrected (issue 27): the Hungarian game's own word for
the battle phase, the Czech rulebook's "teritorium" declined, dashes, a team
addressed in the plural, the decimal mark of each language, and an English
plural that was missing."""

from __future__ import annotations

from babel.messages.pofile import read_po

from triviador_nb.i18n import LOCALES, _, ngettext, pgettext, speaking
from triviador_nb.words import phase_label, seconds_text


def strings(code: str) -> list[str]:
    with (LOCALES / f"{code}.po").open("rb") as handle:
        catalog = read_po(handle)
    found = []
    for message in catalog:
        if message.id:
            found += list(message.string) if isinstance(message.string, (list, tuple)) else [message.string]
    return found


def test_seconds_are_written_with_each_languages_decimal_mark():
    with speaking("en"):
        assert seconds_text(4200) == "4.2 s"
    with speaking("hu"):
        assert seconds_text(4200) == "4,2 mp"
    with speaking("cs"):
        assert seconds_text(4200) == "4,2 s"


def test_the_count_of_guess_questions_has_an_english_plural():
    with speaking("en"):
        assert ngettext("{n} guess question", "{n} guess questions", 12).format(n=12) == "12 guess questions"
        assert ngettext("{n} guess question", "{n} guess questions", 1).format(n=1) == "1 guess question"


def test_hungarian_screens_use_the_hungarian_games_words():
    with speaking("hu"):
        assert phase_label("battle") == "háború"
        assert _("hard bot") == "gép (nehéz)"
        assert ngettext("A tower of {territory} falls ({towers} left)", "A tower of {territory} falls ({towers} left)",
                        0).format(territory="Pest", towers=0) == "Leomlik egy torony – Pest (0 maradt)"
        assert _("neighbours, no castles") == "szomszédos terület, vár nem"
        assert pgettext("territory", "Pacific Northwest") == "Csendes-óceáni északnyugat"
    assert not [text for text in strings("hu") if "csata" in text.lower() or "Nyisd meg ezt" in text]


def test_czech_screens_say_teritorium_declined_and_address_a_team_in_the_plural():
    with speaking("cs"):
        captured = ngettext(
            "{player} captures the base of {defender} and takes {count} territory and {points} points; {defender} "
            "is out of the game",
            "{player} captures the base of {defender} and takes all {count} territories and {points} points; "
            "{defender} is out of the game", 5)
        assert captured.format(player="A", defender="B", count=5, points=1000) == (
            "Základna hráče B padla: A získává všech 5 teritorií a 1000 bodů; B je mimo hru")
        assert ngettext("{count} territory", "{count} territories", 3).format(count=3) == "3 teritoria"
        assert _("{team}: your turn").format(team="Sovy") == "Sovy: jste na tahu"
        assert _("Territory") == "Teritorium"
    czech = strings("cs")
    assert not [text for text in czech if "územ" in text.lower() or " - " in text]
    assert [text for text in czech if text.startswith("Mapa „{map}“: {n} teritori")]
