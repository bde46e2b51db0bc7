"""Look-alike names and names that impersonate the teacher or a bot (issue 28, point 4).

Cyrillic "Аnna" and "Annа" were seated next to "Anna"; "Teacher" and
"Bot 2 (medium)" were accepted. A room now refuses a name whose UTS #39
confusable skeleton meets one already in it (``name_confusable``, with the
name it looks like) and a name with a word the screens use for the teacher
or a bot in en/hu/cs (``name_reserved``); the student's screen words both.
"""

from __future__ import annotations

import pytest
from room_helpers import Wire, fast_open

from triviador_nb.i18n import _, speaking
from triviador_nb.rooms import JoinError, RoomClient, RoomHost, codes, protocol
from triviador_nb.rooms.names import impersonates, look_alike, skeleton
from triviador_nb.ui.sources import refusal_text
from triviador_nb.words import SKILL_LABELS


@pytest.fixture
def wire():
    return Wire()


def join(wire, code, name, address):
    peer, _conn = wire.student(code, name, address=address)
    return peer.sent[0]  # (the answer to the join: welcome or error; the lobby follows a welcome)


def test_look_alike_names_are_refused_with_the_name_they_look_like(wire):
    teacher = wire.teacher()
    code = fast_open(wire, teacher)
    assert join(wire, code, "Anna", "127.0.0.2")["type"] == "welcome"
    for i, name in enumerate(["\u0410nna", "Ann\u0430", "\u0410NN\u0410"]):  # Cyrillic А / а
        refused = join(wire, code, name, f"127.0.0.{10 + i}")
        assert refused == {"v": protocol.VERSION, "type": "error", "code": "name_confusable", "room": code, "name": "Anna",
                           "reason": f"The name {name} looks too much like Anna, who is in room {code} already: "
                                     "choose a name that looks different."}
    assert join(wire, code, "Ida", "127.0.0.3")["type"] == "welcome"
    assert join(wire, code, "lda", "127.0.0.4")["name"] == "Ida"  # a small L looks like a capital i
    assert join(wire, code, "Anka", "127.0.0.5")["type"] == "welcome"  # a different name is a name
    assert join(wire, code, "ANNA", "127.0.0.6")["code"] == "name_taken"  # the same name is name_taken, as before
    # a team name the teacher gave is a name in the room too
    assert wire.op(teacher, "name_seat", code, seat=2, name="Foxes")["status"] == "ok"
    assert join(wire, code, "F\u043e\u0445es", "127.0.0.7")["name"] == "Foxes"  # Cyrillic о, х
    names = [m.name for m in wire.rooms.rooms[codes.normalise(code)].record.members.values()]
    assert names == ["Anna", "Ida", "Anka"]


@pytest.mark.parametrize("name", ["Teacher", "Bot 2 (medium)", "bot", "B0t 3", "\u0422eacher", "Mr Teacher",
                                  "Tanár", "tanár úr", "Tanárnő", "2. gép", "Učitel", "paní učitelka", "Robot"])
def test_names_of_the_teacher_and_the_bots_are_refused(wire, name):
    code = fast_open(wire, wire.teacher())
    refused = join(wire, code, name, "127.0.0.2")
    assert refused == {"v": protocol.VERSION, "type": "error", "code": "name_reserved", "room": code, "name": name,
                       "reason": f"{name} is what the screens call the teacher or a bot: choose your own name."}


@pytest.mark.parametrize("name", ["Botond", "Gépész Gábor", "Robotka", "Teachers' Pet", "Ucitelova Jana", "Anna"])
def test_names_that_only_contain_those_letters_are_names(wire, name):
    code = fast_open(wire, wire.teacher())
    assert join(wire, code, name, "127.0.0.2")["type"] == "welcome"


@pytest.mark.parametrize("language", ["en", "hu", "cs"])
def test_every_language_words_for_the_teacher_and_the_bots_are_covered(language):
    """The words come from the catalogues: a translation that changes them
    must keep them refused."""
    with speaking(language):
        shown = [_("Teacher"), _("Bot {n}").format(n=2),
                 _("Bot {n} ({skill})").format(n=3, skill=_(SKILL_LABELS["hard"]))]
    assert [impersonates(words) for words in shown] == [True, True, True], shown


def test_skeletons_follow_unicode_confusables():
    assert skeleton("p\u0430ypal") == "paypal" and skeleton("\U0001d5c9\U0001d5ba") == "pa"  # Cyrillic а; math sans
    assert look_alike("\u0410nna", ["Ben", "Anna"]) == "Anna" and look_alike("Anna", ["Ben"]) is None


def test_a_students_screen_words_the_new_refusals_in_each_language():
    data = {"name": "Anna", "room": "22-2345"}
    with speaking("cs"):
        assert refusal_text("name_confusable", data, "") == ("To jméno se příliš podobá jménu Anna, které už v "
                                                             "místnosti 22-2345 je: zvol jméno, které vypadá jinak.")
    with speaking("hu"):
        assert refusal_text("name_held", data, "") == ("Már bent vagy a(z) 22-2345 szobában Anna néven: mindenkinek "
                                                       "egy neve lehet. Lépj be Anna néven, vagy kérdezd a tanárt.")
        assert refusal_text("name_reserved", {"name": "Tanár", "room": "22-2345"}, "") == (
            "A(z) Tanár név a tanárt vagy egy gépi játékost jelöli a képernyőkön: válassz saját nevet.")
    with speaking("en"):
        assert refusal_text("replaced", {}, "") == ("You joined this room again from another window or kernel: "
                                                    "this one has stopped.")


def test_a_student_client_stops_at_a_look_alike_name(token_home):
    room_host = RoomHost()
    try:
        room = room_host.open_room(pace=0.02, seed=5)
        anna = RoomClient(room.code, "Anna")
        try:
            with pytest.raises(JoinError) as refused:
                RoomClient(room.code, "\u0410nna")
            assert (refused.value.code, refused.value.data) == ("name_confusable", {"room": room.code, "name": "Anna"})
        finally:
            anna.close()
    finally:
        room_host.close()


# The second attack (issue 28): characters that draw nothing, and letters that
# only look narrower or wider, let a student seat a second "Anna" or a "Teacher".
INVISIBLE = {"variation selector 16": "\ufe0f", "variation selector 1": "\ufe00",
             "variation selector 17": "\U000e0100", "combining grapheme joiner": "\u034f",
             "Hangul filler": "\u3164", "Hangul choseong filler": "\u115f",
             "halfwidth Hangul filler": "\uffa0", "braille blank": "\u2800"}


@pytest.mark.parametrize("where", ["end", "middle"])
@pytest.mark.parametrize("invisible", INVISIBLE.values(), ids=INVISIBLE.keys())
def test_a_name_with_a_character_that_draws_nothing_is_the_name_without_it(wire, invisible, where):
    code = fast_open(wire, wire.teacher())
    assert join(wire, code, "Anna", "127.0.0.2")["type"] == "welcome"
    name = "Anna" + invisible if where == "end" else "An" + invisible + "na"
    answer = join(wire, code, name, "127.0.0.3")
    if invisible == "\u2800" and where == "middle":  # a braille blank is drawn as a space: a name anyone can tell apart
        assert answer["type"] == "welcome" and [m.name for m in wire.rooms.rooms[
            codes.normalise(code)].record.members.values()] == ["Anna", "An na"]
    else:
        assert (answer["type"], answer["code"], answer["name"]) == ("error", "name_taken", "Anna"), answer


@pytest.mark.parametrize("invisible", INVISIBLE.values(), ids=INVISIBLE.keys())
def test_a_name_of_only_characters_that_draw_nothing_is_no_name(invisible):
    with pytest.raises(protocol.ProtocolError) as refused:
        protocol.clean_name(invisible * 3)
    assert refused.value.code == "bad_field"


def test_the_name_a_room_shows_has_no_character_that_draws_nothing():
    assert protocol.clean_name("An\u034fna\ufe0f\u2800Kiss") == "Anna Kiss"
    assert protocol.clean_name("Zo\u00eb \U0001f469\u200d\U0001f4bb") == "Zo\u00eb \U0001f469\u200d\U0001f4bb"  # ZWJ kept


@pytest.mark.parametrize("name, like", [("\uff21\uff4e\uff4e\uff41", "Anna"), ("\uff21nna", "Anna")])
def test_fullwidth_letters_are_the_letters_they_widen(wire, name, like):
    code = fast_open(wire, wire.teacher())
    assert join(wire, code, like, "127.0.0.2")["type"] == "welcome"
    assert join(wire, code, name, "127.0.0.3")["name"] == like


@pytest.mark.parametrize("name", ["\uff34\uff45\uff41\uff43\uff48\uff45\uff52", "\uff22\uff4f\uff54 2 (medium)",
                                  "\u0412\u043e\u0442", "\u0412\u043e\u0442 2", "T\u034feacher", "Tea\ufe0fcher",
                                  "Te\u3164acher", "Bot\u2800 2", "\u2800Teacher"])
def test_a_teacher_or_a_bot_hidden_by_width_script_or_an_invisible_character_is_refused(wire, name):
    code = fast_open(wire, wire.teacher())
    refused = join(wire, code, name, "127.0.0.2")
    assert (refused["type"], refused["code"]) == ("error", "name_reserved"), refused


# The third attack: characters Unicode does not call ignorable that draw nothing all the same,
# small capitals, a name of joiners only, and a letter under 39 accents.
@pytest.mark.parametrize("name", ["B\U00016fe4ot 2 (medium)", "Teach\U00016fe4er", "Teach\U0001d159er",
                                  "\u1d1b\u1d07\u1d00\u1d04\u029c\u1d07\u0280", "\u0299\u1d0f\u1d1b 2"])
def test_a_teacher_or_a_bot_behind_a_blank_symbol_or_in_small_capitals_is_refused(wire, name):
    code = fast_open(wire, wire.teacher())
    assert join(wire, code, name, "127.0.0.2")["code"] == "name_reserved"


@pytest.mark.parametrize("name", ["An\U00016fe4na", "Anna\U0001d159", "\u1d00\u0274\u0274\u1d00"])
def test_anna_behind_a_blank_symbol_or_in_small_capitals_is_anna(wire, name):
    code = fast_open(wire, wire.teacher())
    assert join(wire, code, "Anna", "127.0.0.2")["type"] == "welcome"
    answer = join(wire, code, name, "127.0.0.3")
    assert answer["type"] == "error" and answer["code"] in ("name_taken", "name_confusable") and answer["name"] == "Anna"


@pytest.mark.parametrize("name, reason", [
    ("\u200d", "type your name to join: a name needs a letter, a digit or a sign"),
    ("\u200c\u200d\u200c", "type your name to join: a name needs a letter, a digit or a sign"),
    ("A" + "\u0301" * 39, "a name has at most 4 accents on one letter"),
    ("\u0301\u0301", "type your name to join: a name needs a letter, a digit or a sign")])
def test_a_name_of_joiners_or_of_a_letter_under_a_tower_of_accents_is_no_name(name, reason):
    with pytest.raises(protocol.ProtocolError) as refused:
        protocol.clean_name(name)
    assert (refused.value.code, refused.value.reason) == ("bad_field", reason)


@pytest.mark.parametrize("name", ["Nguy\u1ec5n V\u0103n", "\u0928\u092e\u0938\u094d\u0924\u0947",
                                  "Zo\u00eb \U0001f469\u200d\U0001f4bb", "\u0160\u0165astn\u00fd", "\u674e\u534e"])
def test_names_in_other_scripts_with_their_accents_and_joiners_are_names(name):
    assert protocol.clean_name(name) == name


# The fourth attack: letters in forms NFKC leaves alone, words run together, and joiners
# between accents that reset the count.
@pytest.mark.parametrize("name", ["\U0001f171\U0001f17e\U0001f183", "\U0001f1e7\U0001f1f4\U0001f1f9 2",
                                  "\u24af\u24a0\u249c\u249e\u24a3\u24a0\u24ad", "TeacherAnna", "MrTeacher",
                                  "BotAnna"])
def test_a_teacher_or_a_bot_in_squared_letters_flags_brackets_or_run_together_is_refused(wire, name):
    code = fast_open(wire, wire.teacher())
    assert join(wire, code, name, "127.0.0.2")["code"] == "name_reserved"


@pytest.mark.parametrize("name", ["\U0001f170\U0001f17d\U0001f17d\U0001f170", "\U0001f150\U0001f15d\U0001f15d\U0001f150"])
def test_anna_in_negative_squared_or_circled_letters_looks_like_anna(wire, name):
    code = fast_open(wire, wire.teacher())
    assert join(wire, code, "Anna", "127.0.0.2")["type"] == "welcome"
    assert join(wire, code, name, "127.0.0.3")["name"] == "Anna"


def test_joiners_between_accents_do_not_lift_the_limit_on_accents():
    with pytest.raises(protocol.ProtocolError) as refused:
        protocol.clean_name("A" + ("\u0301" * 4 + "\u200d") * 7)
    assert refused.value.reason == "a name has at most 4 accents on one letter"


@pytest.mark.parametrize("name", ["McBride", "DeShawn", "LeBron", "Botond", "AnnaMaria"])
def test_names_with_capitals_inside_are_names(wire, name):
    code = fast_open(wire, wire.teacher())
    assert join(wire, code, name, "127.0.0.2")["type"] == "welcome"


# The fifth attack: letters spaced or dotted apart, capitals run into small letters, other
# forms of the words, and look-alikes Unicode's table lacks.
@pytest.mark.parametrize("name", ["T e a c h e r", "T.e.a.c.h.e.r", "B o t 2 (medium)", "B.O.T. 2", "2. g \u00e9 p",
                                  "TEACHERanna", "BOTanna", "Tan\u00e1rn\u00e9ni", "Tan\u00e1r\u00far",
                                  "U\u010diteli"])
def test_a_teacher_or_a_bot_spelled_apart_run_in_or_inflected_is_refused(wire, name):
    code = fast_open(wire, wire.teacher())
    assert join(wire, code, name, "127.0.0.2")["code"] == "name_reserved"


@pytest.mark.parametrize("name, like", [("VVilli", "Willi"), ("Dor\u0138a", "Dorka"),
                                        ("\u0412\u0435\u043f\u0441\u0435", "Bence")])
def test_look_alikes_the_confusables_table_lacks_are_look_alikes(wire, name, like):
    code = fast_open(wire, wire.teacher())
    assert join(wire, code, like, "127.0.0.2")["type"] == "welcome"
    assert join(wire, code, name, "127.0.0.3")["name"] == like


@pytest.mark.parametrize("name", ["J. R. R. Tolkien", "Anna B", "Kis P\u00e9ter", "Vivien", "Kevin", "Ivan"])
def test_initials_and_names_with_v_or_n_are_names(wire, name):
    code = fast_open(wire, wire.teacher())
    assert join(wire, code, name, "127.0.0.2")["type"] == "welcome"


# The sixth round: digits written for the letters they look like.
@pytest.mark.parametrize("name", ["8ot 2 (medium)", "Te4cher", "T3ach3r", "R0b0t", "U\u010d1tel", "G\u00e9p3k"])
def test_a_teacher_or_a_bot_written_with_digits_for_letters_is_refused(wire, name):
    code = fast_open(wire, wire.teacher())
    assert join(wire, code, name, "127.0.0.2")["code"] == "name_reserved"


@pytest.mark.parametrize("name", ["Anna 2", "Bob 42", "Zs\u00f3fi 3", "B0b", "R2D2", "Peti 8", "Eva 123", "Jan 1"])
def test_names_with_numbers_are_names(wire, name):
    code = fast_open(wire, wire.teacher())
    assert join(wire, code, name, "127.0.0.2")["type"] == "welcome"


# The sixth attack: Coptic letters (the package's confusables data has none), an Arabic alef,
# any mark between letters, a trademark sign glued on by NFKC, a dagger, a sharp s, a robot's face.
@pytest.mark.parametrize("name", ["\u2c82\u2c9e\u2ca6 2 (medium)", "Teacher\u2122", "B\u2024o\u2024t 2 (medium)",
                                  "T\u2022e\u2022a\u2022c\u2022h\u2022e\u2022r", "B*o*t 2", "T~e~a~c~h~e~r",
                                  "Bo\u2020 2 (medium)", "\u00dfot 2", "\U0001f916 2 (medium)", "Teacher\u2120"])
def test_a_teacher_or_a_bot_in_coptic_between_marks_or_with_a_sign_is_refused(wire, name):
    code = fast_open(wire, wire.teacher())
    assert join(wire, code, name, "127.0.0.2")["code"] == "name_reserved"


@pytest.mark.parametrize("name, like", [("\u2c80nna", "Anna"), ("\u0627da", "Ida"), ("\u2c82ob", "Bob")])
def test_coptic_and_arabic_look_alikes_are_look_alikes(wire, name, like):
    code = fast_open(wire, wire.teacher())
    assert join(wire, code, like, "127.0.0.2")["type"] == "welcome"
    assert join(wire, code, name, "127.0.0.3")["name"] == like


@pytest.mark.parametrize("name", ["O'Brien", "Anna-Maria", "Zo\u00eb", "Stefan*"])
def test_names_with_marks_between_letters_are_names(wire, name):
    code = fast_open(wire, wire.teacher())
    assert join(wire, code, name, "127.0.0.2")["type"] == "welcome"
