"""The author's check reads words (issue 27): numbers written as words, inflected
Czech and Hungarian forms, surnames alone, and the options of multiple-choice
questions; the seven give-aways a reader found in the shipped banks are found
in small banks made here, and the shipped banks are clean (keyed or reworded).
The game's own avoidance of asked pairs is D4, one step on (docs/rules.md)."""

from __future__ import annotations

import csv

import pytest

from triviador_nb.banks import builtin_bank_path, check_bank_files
from triviador_nb.banks.giveaways import suspected_giveaways
from triviador_nb.banks.words import language_of, numbers_shown, tokens

HEADER = ["id", "type", "question", "answer", "wrong_1", "wrong_2", "wrong_3", "fact"]
FILLER = {  # a few more questions of each language, so that its function words tell the language
    "cs": [["f1", "choice", "Které město je sídlem kraje Vysočina?", "Jihlava", "Třebíč", "Žďár", "Pelhřimov", ""]],
    "hu": [["f1", "choice", "Melyik város Baranya megye székhelye?", "Pécs", "Mohács", "Szigetvár", "Komló", ""]],
    "en": [["f1", "choice", "What is the capital of Slovakia?", "Bratislava", "Košice", "Nitra", "Žilina", ""]],
}
SEVEN = [  # (language, giving row, given row, the warning's words)
    ("cs", ["a", "choice", "Ve kterém sportu získala Věra Čáslavská sedm olympijských zlatých medailí?",
            "Sportovní gymnastika", "Atletika", "Plavání", "Krasobruslení", ""],
     ["b", "guess", "Kolik olympijských zlatých medailí získala Věra Čáslavská?", "7", "", "", "", ""],
     "shows 'sedm', the answer 7 of row 3"),
    ("hu", ["a", "choice", "Melyik sportágban nyert hét olimpiai aranyérmet Gerevich Aladár?",
            "Vívás", "Úszás", "Kajak-kenu", "Öttusa", ""],
     ["b", "guess", "Hány olimpiai aranyérmet nyert Gerevich Aladár?", "7", "", "", "", ""],
     "shows 'hét', the answer 7 of row 3"),
    ("cs", ["a", "guess", "Kolik bodů získal Roman Šebrle v roce 2001, když jako první překonal v desetiboji "
            "hranici 9 000 bodů?", "9026", "", "", "", ""],
     ["b", "choice", "Ve které disciplíně vyhrál Roman Šebrle olympiádu v Aténách 2004?", "Desetiboj",
      "Hod oštěpem", "Skok do dálky", "Skok o tyči", ""],
     "names 'desetiboji', the answer of row 3"),
    ("cs", ["a", "guess", "Ve kterém roce hodil Jan Železný světový rekord v hodu oštěpem 98,48 m?", "1996",
            "", "", "", ""],
     ["b", "choice", "Ve které disciplíně byl Jan Železný olympijským vítězem?", "Hod oštěpem", "Vrh koulí",
      "Hod diskem", "Desetiboj", ""],
     "names 'hodu oštěpem', the answer of row 3"),
    ("hu", ["a", "choice", "Ki zenésítette meg Kölcsey Himnuszát?", "Erkel Ferenc", "Liszt Ferenc", "Egressy Béni",
            "Kodály Zoltán", ""],
     ["b", "choice", "Ki írta a Himnuszt?", "Kölcsey Ferenc", "Vörösmarty Mihály", "Petőfi Sándor", "Arany János",
      ""],
     "names 'kölcsey', the surname of 'Kölcsey Ferenc', the answer of row 3"),
    ("en", ["a", "guess", "In what year did Hawaii become the 50th US state?", "1959", "", "", "", ""],
     ["b", "guess", "How many states make up the United States of America?", "50", "", "", "", ""],
     "shows '50th', the answer 50 of row 3"),
    ("cs", ["a", "choice", "S kterou zemí má Česká republika nejdelší společnou hranici?", "Německo", "Polsko",
            "Rakousko", "Slovensko", ""],
     ["b", "guess", "S kolika státy sousedí Česká republika?", "4", "", "", "", ""],
     "lists 4 options, as many as the answer 4 of row 3"),
]


def write(path, rows):
    with path.open("w", encoding="utf-8", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(HEADER)
        out.writerows(rows)
    return path


@pytest.mark.parametrize("language, giving, given, words", SEVEN, ids=[f"pair{n}" for n in range(1, 8)])
def test_the_seven_giveaways_are_found_and_a_shared_fact_key_silences_each(tmp_path, language, giving, given, words):
    path = write(tmp_path / f"pair_{language}.csv", [giving, given, *FILLER[language]])
    warnings = [str(p) for p in check_bank_files([path]) if "give-away" in p.message]
    assert warnings == [f"{path}:2:question: warning: {words}: a game may ask both (a give-away; give both the "
                        "same fact key if they belong together on purpose, or reword one)"]
    write(path, [[*giving[:-1], "k"], [*given[:-1], "k"], *FILLER[language]])
    assert not [p for p in check_bank_files([path]) if "give-away" in p.message]


def test_number_words_per_language_and_numbers_that_are_not_shown():
    assert numbers_shown("sedm medailí", tokens("sedm medailí"), "cs") == [(7, 0)]
    assert numbers_shown("a hetedik", tokens("a hetedik"), "hu") == [(7, 1)]
    assert numbers_shown("twenty seven", tokens("twenty seven"), "en") == [(20, 0), (7, 1)]
    assert numbers_shown("hod 98,48 m; 9 000 bodů", tokens("hod 98,48 m; 9 000 bodů"), "cs") == [(9000, 4)]
    assert language_of(["Ki írta a Himnuszt?", "Melyik évben?"]) == "hu"
    assert language_of(["1 + 1"]) is None


@pytest.mark.parametrize("giving, given", [
    # two facts of one year are not a give-away
    (["a", "choice", "The word 'robot' was first used in a 1920 play by which Czech writer?", "Karel Čapek",
      "Jaroslav Hašek", "Franz Kafka", "Milan Kundera", ""],
     ["b", "guess", "In what year was the Treaty of Trianon signed?", "1920", "", "", "", ""]),
    # another person of the same family name
    (["a", "guess", "Melyik évben választották királlyá Hunyadi Mátyást?", "1458", "", "", "", ""],
     ["b", "choice", "Ki vezette a magyar sereget Nándorfehérvárnál?", "Hunyadi János", "Kinizsi Pál",
      "Hunyadi Mátyás", "Szilágyi Mihály", ""]),
    # a number word as a multiple-choice answer is a number, read with its subject
    (["a", "choice", "Ve kterém sportu získala Věra Čáslavská sedm zlatých medailí?", "Gymnastika", "Atletika",
      "Plavání", "Veslování", ""],
     ["b", "choice", "Kolik pádů má čeština?", "Sedm", "Šest", "Pět", "Čtyři", ""]),
])
def test_what_is_not_a_giveaway(giving, given):
    files = ["x.csv", "x.csv"]
    rows = [giving, given]
    assert suspected_giveaways(files, [r[1] for r in rows], [r[2] for r in rows], [r[3] for r in rows],
                               [r[4:7] if r[1] == "choice" else [] for r in rows]) == []


@pytest.mark.parametrize("row, column, words", [
    (["q", "choice", "Which Hungarian dish is a soup or stew of beef and paprika?", "Goulash (gulyás)", "Pierogi",
      "Paella", "Moussaka", ""], "answer",
     "option 'Goulash (gulyás)' is the only one that has a gloss in brackets: it stands out from the others "
     "(give them all the same form)"),
    (["q", "choice", "Which country shares a land border with Northern Ireland?", "Ireland", "Iceland", "Norway",
      "Denmark", ""], "answer",
     "the right answer repeats 'ireland' of the question and no wrong option does: it gives itself away "
     "(reword the question or the answer)"),
    (["q", "choice", "Which city is the seat of Zala County in Hungary?", "Zalaegerszeg", "Nagykanizsa", "Keszthely",
      "Szombathely", ""], "answer",
     "the right answer repeats 'zalaegerszeg' of the question and no wrong option does: it gives itself away "
     "(reword the question or the answer)"),
])
def test_an_option_that_gives_its_answer_away_is_flagged_at_its_cell(tmp_path, row, column, words):
    path = write(tmp_path / "options.csv", [row, *FILLER["en"]])
    assert [str(p) for p in check_bank_files([path]) if p.row == 2] == [f"{path}:2:{column}: warning: {words}"]


def test_a_wrong_option_that_stands_out_or_a_shared_echo_gives_nothing_away(tmp_path):
    path = write(tmp_path / "fine.csv", [
        ["q", "choice", "Which vitamin does skin make in sunlight?", "Vitamin D", "Vitamin C", "Vitamin A",
         "Vitamin B12", ""],
        ["r", "choice", "Which city is the seat of Zala County in Hungary?", "Zalaegerszeg", "Nagykanizsa",
         "Keszthely", "Zalaszentgrót", ""], *FILLER["en"]])
    assert [p for p in check_bank_files([path]) if p.row in (2, 3)] == []


@pytest.mark.parametrize("name", ["general_knowledge_en", "geography_en", "hungarian_hu", "czech_cs"])
def test_the_shipped_banks_have_no_giveaway_or_option_warning(name):
    problems = check_bank_files([builtin_bank_path(name)])
    assert [str(p) for p in problems if "give-away" in p.message or "option" in p.message
            or "right answer" in p.message] == []


def test_the_mechanical_fact_keys_are_gone_from_the_shipped_banks():
    keys = set()
    for name in ["general_knowledge_en", "geography_en", "hungarian_hu", "czech_cs"]:
        with builtin_bank_path(name).open(encoding="utf-8") as handle:
            keys |= {key for row in csv.DictReader(handle) for key in row["fact"].split(";") if key}
    assert not [key for key in keys if key.startswith("names-")]
    assert not keys & {"sedm", "hrach", "iron", "1920", "2004", "1896", "tisza", "100"}
