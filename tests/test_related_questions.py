"""Questions that belong together (issue 15): give-aways and shared facts.

A question whose text names another's answer gives it away; two questions
with one ``fact`` key ask the same fact (in two languages, say). ``bank
check`` warns of give-aways no key covers, ``bank stats`` counts them, and a
game asks at most one question of each pair or key (D4, one step on).
"""

from __future__ import annotations

import random

import pytest
from fixture_data import grid_board

from triviador_nb.banks import builtin_bank_path, check_and_load_bank, load_bank
from triviador_nb.banks.usage import bank_stats
from triviador_nb.bots import Bot
from triviador_nb.cli import main
from triviador_nb.engine import (CONQUIZTADOR, LONG_CAMPAIGN, ChoiceQuestion, Game, GuessAnswer, GuessQuestion, Pick,
                                 QuestionBank)
from triviador_nb.engine.deck import Deck
from triviador_nb.engine.related import fact_keys, giveaway_pairs, normalise, normalised_words
from triviador_nb.maps import load_builtin_map
from triviador_nb.words import Names, event_text

HEADER = "id,type,question,answer,wrong_1,wrong_2,wrong_3,fact\n"


def pairs(*questions: tuple[str, str, str]) -> list[tuple[int, int, str]]:
    kinds, texts, answers = zip(*questions)
    return giveaway_pairs(kinds, texts, answers)


def test_a_choice_answer_named_in_another_text_is_a_giveaway_whatever_the_case_and_accents():
    found = pairs(("choice", "Which is the highest point of Hungary?", "Kékes"),
                  ("guess", "How high above sea level is KEKES, in metres?", "1014"))
    assert found == [(1, 0, "kekes")]
    assert normalise("Bács-Kiskun!") == "bacs kiskun"


def test_a_guess_answer_of_three_or_more_digits_named_in_another_text_is_a_giveaway():
    found = pairs(("guess", "In what year was the Battle of Mohács?", "1526"),
                  ("choice", "Which king fell at Mohács in 1526?", "Louis II"))
    assert found == [(1, 0, "1526")]


def test_a_many_word_answer_is_found_as_a_whole_phrase_only():
    found = pairs(("choice", "Who wrote Good Soldier Švejk?", "Jaroslav Hašek"),
                  ("guess", "In what year was Jaroslav Hašek born?", "1883"),
                  ("guess", "How many novels did Jaroslav Seifert write, Hašek aside?", "0"))
    assert found == [(1, 0, "jaroslav hasek")]


@pytest.mark.parametrize("named, text", [
    ("Water", "Which gas makes up most of water vapour?"),  # a common word
    ("12", "How many of the 12 months have 31 days?"),  # a number of 1-2 digits
    ("Ice", "Which country has the most ice hockey titles?"),  # shorter than 4 letters
    ("Rome", "Who wrote Romeo and Juliet?"),  # not a whole word
])
def test_common_words_short_numbers_and_parts_of_words_are_not_giveaways(named, text):
    kind = "guess" if named.isdigit() else "choice"
    assert pairs((kind, "The question asked first?", named), ("choice", text, "Something else")) == []


def test_an_answer_named_in_more_than_three_texts_is_a_common_word_of_that_bank():
    texts = [("choice", f"Question {i} about Danube shipping?", f"Answer{i}") for i in range(4)]
    assert pairs(("choice", "Which river flows through Budapest?", "Danube"), *texts) == []
    assert len(pairs(("choice", "Which river flows through Budapest?", "Danube"), *texts[:3])) == 3


def test_a_question_naming_its_own_answer_is_not_counted_among_the_three_texts():
    """Four texts name Danube, one of them the Danube question itself: three others, still give-aways
    (the search drops a word only when more than MAX_NAMED + 1 texts name it)."""
    texts = [("choice", f"Question {i} about Danube shipping?", f"Answer{i}") for i in range(3)]
    own = ("choice", "Which river, the Danube or the Tisza, flows through Budapest?", "Danube")
    assert pairs(own, *texts) == [(1, 0, "danube"), (2, 0, "danube"), (3, 0, "danube")]
    assert pairs(own, *texts, ("choice", "A fourth Danube question?", "Answer4")) == []


def test_normalised_words_of_many_texts_are_those_of_each_text_alone():
    rng = random.Random(5)
    alphabet = ["Kékes", "KEKES", "a_b", "x-y", "12", " ", "\t", "!", "\x00", "½", "Straße", "दिल्ली", "ok", "?"]
    for ascii_only in (True, False):
        pool = [part for part in alphabet if part.isascii() or not ascii_only]
        for _ in range(300):
            texts = ["".join(rng.choice(pool) for _ in range(rng.randint(0, 5))) for _ in range(rng.randint(0, 6))]
            assert normalised_words(texts) == [normalise(text).split() for text in texts]


def test_bank_check_warns_at_the_naming_row_and_a_shared_fact_key_marks_it_intended(tmp_path, capsys):
    path = tmp_path / "alps.csv"
    path.write_text(HEADER
                    + "q1,choice,What is the highest mountain in Austria?,Grossglockner,Zugspitze,Wildspitze,Dachstein,\n"
                    + 'q2,guess,"How high is the Grossglockner, in metres?",3798,,,,\n', encoding="utf-8")
    assert main(["bank", "check", str(path)]) == 0
    out = capsys.readouterr().out
    assert (f"{path}:3:question: warning: names 'grossglockner', the answer of row 2: a game never asks both "
            "(a give-away; give both the same fact key if they belong together on purpose, or reword one)") in out
    path.write_text(path.read_text(encoding="utf-8").replace("Dachstein,\n", "Dachstein,alps\n")
                    .replace("3798,,,,\n", "3798,,,,alps\n"), encoding="utf-8")
    assert main(["bank", "check", str(path)]) == 0
    assert "give-away" not in capsys.readouterr().out
    stats = bank_stats(load_bank(path))
    assert (stats.giveaway_pairs, stats.giveaway_pairs_unkeyed, stats.fact_groups) == (1, 0, 1)


def test_several_fact_keys_in_one_cell():
    assert fact_keys(" alps ; names-danube;") == {"alps", "names-danube"}
    assert fact_keys("") == frozenset()


def test_the_shipped_banks_have_no_unkeyed_giveaways_alone_or_mixed():
    """As the author's check reads them (bank check): give-aways are not searched when a game loads a bank."""
    names = ["general_knowledge_en", "geography_en", "hungarian_hu", "czech_cs"]
    for paths in [*([builtin_bank_path(name)] for name in names), [builtin_bank_path(name) for name in names]]:
        problems, bank = check_and_load_bank(paths)
        assert not [str(p) for p in problems if "give-away" in p.message], paths
        assert bank_stats(bank).giveaway_pairs_unkeyed == 0
        assert bank_stats(bank).giveaway_pairs > 0


def load_builtin_bank_mix(names: list[str]) -> QuestionBank:
    from triviador_nb.banks import builtin_bank_path

    return load_bank([builtin_bank_path(name) for name in names])


def test_the_same_fact_in_english_and_czech_is_one_question():
    bank = load_builtin_bank_mix(["general_knowledge_en", "czech_cs"])
    by_id = {q.id: q for q in (*bank.guess, *bank.choice)}
    assert bank.belong_together(by_id["gk-g-005"], by_id["cs-g-007"])  # the Velvet Revolution, 1989, twice
    assert bank.belong_together(by_id["cs-g-007"], by_id["gk-g-005"])


def test_a_game_never_asks_two_questions_that_belong_together():
    """Seeded games over every shipped bank mixed: no give-away pair and no
    shared fact within one game (before a deck runs out, D4)."""
    bank = load_builtin_bank_mix(["general_knowledge_en", "geography_en", "hungarian_hu", "czech_cs"])
    board = load_builtin_map("hungary").board
    checked = 0
    for rules in (CONQUIZTADOR, LONG_CAMPAIGN):
        for seed in range(12):
            game = Game(rules, board, bank, seed)
            bots = {p.seat: Bot(p.seat, "medium", seed) for p in game.players}
            while not game.is_over:
                game.apply(bots[game.current_players()[0]].act(game))
            by_id = {q.id: q for q in (*bank.guess, *bank.choice)}
            asked = [by_id[e.data["question"]] for e in game.events if e.kind == "question"]
            assert not any(e.kind == "warning" for e in game.events)  # no deck ran out
            for k, question in enumerate(asked):
                assert not any(bank.belong_together(question, before) for before in asked[:k]), (rules.name, seed)
            checked += len(asked)
    assert checked > 500


def test_a_deck_passes_over_avoided_questions_and_draws_them_when_nothing_else_is_left():
    deck = Deck(["a", "b", "c"], random.Random(3))
    order = list(deck._order)
    first, _ = deck.draw(avoid=lambda q: q == order[0])
    assert first == order[1]
    second, _ = deck.draw(avoid=lambda q: q != "zzz")  # everything avoided: drawn anyway
    assert second == order[0]


def test_related_questions_come_from_the_bank_itself():
    bank = QuestionBank(
        (GuessQuestion("g1", "How high is Kékes?", 1014), GuessQuestion("g2", "Guess 2?", 5, fact="x"),
         GuessQuestion("g3", "Guess 3?", 6, fact="x")),
        (ChoiceQuestion("c1", "The highest point of Hungary?", "Kékes", ("Dobogókő", "Galya", "Csóványos")),))
    assert bank.giveaways == {"g1": {"c1"}, "c1": {"g1"}}
    g1, g2, g3 = bank.guess
    assert bank.belong_together(g2, g3) and bank.belong_together(g1, bank.choice[0])
    assert not bank.belong_together(g1, g2)


def test_the_fact_checks_wording_fixes_are_in_the_shipped_banks():
    bank = load_builtin_bank_mix(["general_knowledge_en", "geography_en", "hungarian_hu", "czech_cs"])
    text = {q.id: q for q in (*bank.guess, *bank.choice)}
    assert "land border" in text["geo-c-012"].text  # Croatia shares a sea border with Italy
    assert "entirely within" in text["geo-c-025"].text  # the Danube flows within Slovakia too
    assert "Nantes" not in text["geo-c-065"].options  # arguably Brittany's historic capital
    assert "2024" in text["hu-g-041"].text  # national parks: a count needs a year
    assert "dosud platný" not in text["cs-g-035"].text and "98,48 m" in text["cs-g-035"].text
    assert "vármegye" in text["gk-g-035"].text and "vármegyéje" in text["hu-g-038"].text
    assert not [qid for qid in text if qid.startswith("gkx-")]  # one id prefix: gk-


# ----------------------------------------------------------------------------- found by a hostile review


def test_a_guess_answer_with_leading_zeros_names_the_number_in_check_and_game_alike(tmp_path, capsys):
    path = tmp_path / "zeros.csv"
    path.write_text(HEADER + "g1,guess,In what year was the Battle of Mohács?,01526,,,,\n"
                    + "c1,choice,Which king fell at Mohács in 1526?,Louis II,Béla IV,Matthias,Sigismund,\n"
                    + "g2,guess,Guess 2?,5,,,,\nc2,choice,Choice?,Aaaa,Bbbb,Cccc,Dddd,\n", encoding="utf-8")
    main(["bank", "check", str(path)])
    assert "shows '1526', the answer 1526 of row 2" in capsys.readouterr().out
    bank = load_bank(path)
    assert bank.giveaways["g1"] == {"c1"}


def test_a_question_naming_its_own_answer_does_not_count_against_the_limit():
    found = pairs(("choice", "Which river, the Danube or the Tisza, flows through Budapest?", "Danube"),
                  *[("choice", f"Question {i} about the Danube?", f"Answer{i}") for i in range(3)])
    assert [(i, j) for i, j, _ in found] == [(1, 0), (2, 0), (3, 0)]


def test_marks_of_every_script_are_ignored_and_spacing_marks_stay_in_words():
    assert pairs(("choice", "Capital of Egypt?", "القَاهِرَة"), ("guess", "How old is القاهرة?", "1234")) == [(1, 0, "القاهرة")]
    assert pairs(("choice", "Capital of Israel?", "יְרוּשָׁלַיִם"), ("guess", "How old is ירושלים?", "3000")) == \
        [(1, 0, "ירושלים")]  # pointed answer, unpointed text
    assert " " not in normalise("दिल्ली")  # its vowel signs stay in the word (they split it before)
    assert pairs(("choice", "Capital of India?", "दिल्ली"), ("guess", "How big is दिल्ली?", "1484")) == \
        [(1, 0, normalise("दिल्ली"))]


def test_fact_keys_ignore_case():
    assert fact_keys("Alps;ALPS") == {"alps"}


def test_questions_burned_or_asked_before_keep_what_belongs_with_them_out():
    bank = QuestionBank(
        (GuessQuestion("g1", "How high is the Grossglockner?", 3798), *(GuessQuestion(f"g{i}", f"Guess {i}?", i)
                                                                       for i in range(2, 6))),
        (ChoiceQuestion("c1", "Highest mountain in Austria?", "Grossglockner", ("Zugspitze", "Wildspitze", "Dachstein")),
         *(ChoiceQuestion(f"c{i}", f"Choice {i}?", f"Right{i}", (f"W{i}a", f"W{i}b", f"W{i}c")) for i in range(2, 6))))
    board = load_builtin_map("hungary").board
    for seen in ({"burned": {"g1"}}, {"asked_before": {"g1"}}):
        for seed in range(8):
            game = Game(CONQUIZTADOR, board, bank, seed, **seen)
            bots = {p.seat: Bot(p.seat, "medium", seed) for p in game.players}
            while not game.is_over and not any(e.kind == "warning" for e in game.events):
                game.apply(bots[game.current_players()[0]].act(game))
            first_pass = [e.data["question"] for e in game.events if e.kind == "question"]
            assert "c1" not in first_pass[:8], (seen, seed)


def test_when_only_related_questions_are_left_the_game_says_so():
    bank = QuestionBank(
        (GuessQuestion("g1", "Guess 1?", 1, fact="k"), GuessQuestion("g2", "Guess 2?", 2, fact="k")),
        tuple(ChoiceQuestion(f"c{i}", f"Choice {i}?", f"Right{i}", (f"W{i}a", f"W{i}b", f"W{i}c")) for i in range(4)))
    game = Game(CONQUIZTADOR, grid_board(), bank, 1)
    answer = game.question.question.answer
    for seat in range(3):
        game.apply(GuessAnswer(seat, answer + seat, 1000))
    while game.stage == "pick":
        game.apply(Pick(game.pick_queue[0], game.legal_picks(game.pick_queue[0])[0]))
    warning = [e for e in game.events if e.kind == "warning"]
    assert warning and warning[0].code == "warning.related_question"
    assert "belongs with one asked already" in event_text(warning[0], Names.of_game(game))
    again = Game.replay(CONQUIZTADOR, grid_board(), bank, 1, [str(e) for e in game.record])  # a journal, an undo
    assert again.events == game.events  # the replay says so too (the review found it silent)


def test_one_fact_key_on_ten_thousand_questions_is_kept_as_one_key_not_as_pairs():
    """Expanding a key into every pair of its questions took 43 s and 10 GB here."""
    questions = tuple(GuessQuestion(f"g{i}", f"Guess {i}?", i, fact="geo") for i in range(10_000))
    bank = QuestionBank(questions, (ChoiceQuestion("c", "C?", "Aaaa", ("Bbbb", "Cccc", "Dddd")),))
    game = Game(CONQUIZTADOR, load_builtin_map("hungary").board, bank, 3)
    assert game.question.question.fact == "geo"
    assert bank.giveaways == {} and game._avoid.keys == {"geo"} and game._avoid.ids == set()
