"""Headless widget tests: clicks, typed guesses, timers and map clicks, no browser.

The app runs on a ManualClock, so timers and bot delays move only when a
test advances the clock.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from triviador_nb.engine import Attack as AttackAction
from triviador_nb.engine import ChoiceAnswer, GuessAnswer
from triviador_nb.maps import load_builtin_map
from triviador_nb.ui import ManualClock, play
from triviador_nb.ui.map_view import MapView, fit_view
from triviador_nb.ui.palette import FREE, SEAT_COLOURS
from triviador_nb.ui.question_panel import parse_guess
from triviador_nb.ui.traffic import WidgetTraffic
from triviador_nb.words import WIN_KIND_LABELS, outcome_lines


REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


def started(app):
    """Press the Start button, as the teacher does when the class is ready."""
    app.start_button.click()
    return app


@pytest.fixture
def app(clock):
    return started(play(seed=7, clock=clock))


def test_the_game_waits_for_start_with_bases_drawn(clock):
    app = play(seed=7, clock=clock)
    assert app.game.question is not None and app.panel.controls.children == ()
    assert "Press Start" in app.panel.text.value and "press &quot;Start the game&quot;" in app.status.value
    clock.advance(60)
    assert app.game.actions == []  # no timer runs before Start
    app.map_view.click("HU-PE")
    assert "Press Start to begin the game." in app.message.value
    app.start_button.click()
    assert app.start_button.layout.display == "none"
    assert app.panel.controls.children[0].children == (app.panel.guess_box, app.panel.answer_button)


def finish_question(clock: ManualClock, app) -> None:
    """Let bots answer and the result pause pass."""
    clock.advance(app.game.rules.timers.choice_s + app.reveal_s + 0.5)


def test_map_has_one_polygon_per_territory_and_no_tiles(app):
    layers = app.map_view.map.layers
    assert len(app.map_view.polygons) == 19
    assert not any(type(layer).__name__ == "TileLayer" for layer in layers)  # offline (docs/design.md, "The map")


def test_first_question_is_a_guess_for_everyone_without_the_answer_on_screen(app):
    asked = app.game.question
    assert asked.is_guess and asked.players == (0, 1, 2)
    shown = app.panel.header.value + app.panel.text.value + app.panel.feedback.value
    assert asked.question.text.split()[0] in shown
    assert f">{asked.question.answer}<" not in shown  # the correct answer is not revealed yet
    assert app.panel.controls.children[0].children == (app.panel.guess_box, app.panel.answer_button)


def test_typed_guess_submits_on_enter_with_its_response_time(clock, app):
    clock.advance(2.5)
    app.panel.guess_box.value = " 1848 "  # Enter sends the value (continuous_update=False)
    assert [a for a in app.game.actions if a.player == 0] == [GuessAnswer(0, 1848, 2500)]
    assert app.panel.guess_box.disabled
    assert "Answer sent: 1848 in 2.5 s" in app.panel.feedback.value


def test_invalid_guess_is_refused_with_a_reason_and_nothing_is_sent(app):
    app.panel.guess_box.value = "1,848"
    assert app.game.actions == []
    assert "is not a whole number" in app.panel.feedback.value
    app.panel.answer_button.click()  # the Answer button checks the box the same way
    assert app.game.actions == []
    app.panel.guess_box.value = "1848"
    assert app.game.actions == [GuessAnswer(0, 1848, 0)]


def test_answer_button_submits_what_the_box_holds(app):
    app.panel.guess_box.unobserve_all("value")  # as if typed without Enter
    app.panel.guess_box.value = "1848"
    assert app.game.actions == []
    app.panel.answer_button.click()
    assert app.game.actions == [GuessAnswer(0, 1848, 0)]


def test_parse_guess_accepts_digits_only():
    assert parse_guess(" 42 ") == 42
    assert [parse_guess(t) for t in ("1 000", "1,000", "-5", "3.5", "", "x")] == [None] * 6


def test_guess_timer_runs_out_to_no_answer_d3(clock, app):
    clock.advance(app.game.rules.timers.guess_s + 0.3)
    human = [a for a in app.game.actions if a.player == 0]
    assert human == [GuessAnswer(0, None)]
    assert "Your team</td><td class='tnb-given'><b>no answer</b>" in app.reveal.value


def test_bots_answer_after_their_response_time(clock, app):
    assert app.game.actions == []
    clock.advance(1.0)
    assert app.game.actions == []  # no bot answers within the first second (fastest: 1.5 s)
    clock.advance(8.5)  # 9.5 s: the medium bot answers within 7 s, the hard one within 5 s
    assert sorted(a.player for a in app.game.actions) == [1, 2]
    assert all(1500 <= a.ms <= 7000 for a in app.game.actions)


def test_result_reveals_correct_answer_and_every_answer_and_time(clock, app):
    answer = app.game.question.question.answer
    app.panel.guess_box.value = str(answer)
    clock.advance(10)
    reveal = app.reveal.value
    assert f"Correct answer: <b>{answer}</b>" in reveal
    assert "exact" in reveal and reveal.count("<tr>") == 3 and " s</td>" in reveal


def play_to_human_pick(clock, app):
    """Answer guesses exactly until the human has a pick."""
    for _ in range(200):
        game = app.game
        if game.stage == "pick" and game.current_players() == (0,) and not app.table.paused:
            return
        if game.stage == "answer" and 0 in game.question.waiting_for and app.panel._accepting:
            app.panel.guess_box.value = str(game.question.question.answer)
        clock.advance(0.5)
    raise AssertionError("the human never got a pick")


def test_map_click_picks_a_legal_territory_and_recolours_it(clock, app):
    play_to_human_pick(clock, app)
    legal = app.game.legal_picks(0)
    assert app.map_view.polygons[legal[0]].weight == 4  # outlined: choosable
    app.map_view.click(legal[0])
    assert app.game.territories[legal[0]].owner == 0
    assert app.map_view.polygons[legal[0]].fill_color == SEAT_COLOURS["red"]


def test_illegal_map_click_says_why_and_changes_nothing(clock, app):
    play_to_human_pick(clock, app)
    game = app.game
    taken = next(t for t, s in game.territories.items() if s.owner not in (None, 0))
    before = list(game.actions)
    app.map_view.click(taken)
    assert game.actions == before
    assert f"You cannot choose {game.board.names[taken]}: {game.board.names[taken]} already belongs to" \
        in app.message.value


def test_click_when_it_is_not_your_turn_says_so(app):
    app.map_view.click("HU-PE")
    assert "Pest: it is not your turn to choose a territory." in app.message.value


def test_choice_buttons_answer_a_battle_question(clock):
    app = started(play(seed=7, clock=clock))
    for _ in range(2000):
        game = app.game
        asked = game.question
        if asked is not None and not asked.is_guess and 0 in asked.waiting_for and app.panel._accepting:
            break
        if game.stage in ("pick", "attack") and game.current_players() == (0,) and not app.table.paused:
            app.map_view.click((game.legal_picks(0) if game.stage == "pick" else game.legal_targets(0))[0])
        elif asked is not None and asked.is_guess and 0 in asked.waiting_for and app.panel._accepting:
            app.panel.guess_box.value = str(asked.question.answer)
        clock.advance(0.5)
    else:
        raise AssertionError("no multiple-choice question reached the human")
    labels = [b.description for b in app.panel.choice_buttons]
    assert [label[:3] for label in labels] == ["A) ", "B) ", "C) ", "D) "]
    assert [label[3:] for label in labels] == list(asked.options)
    clock.advance(1.0)
    shown_for_ms = round((clock.now() - app.table._deadline.opened_at) * 1000)
    assert 1000 <= shown_for_ms <= 1500
    app.panel.choice_buttons[2].click()
    assert ChoiceAnswer(0, 2, shown_for_ms) in app.game.actions
    assert app.panel.choice_buttons[2].button_style == "info"
    assert all(b.disabled for b in app.panel.choice_buttons)


def test_a_whole_game_is_played_through_the_widgets(clock):
    app = started(play(seed=11, clock=clock, pace=0.2))
    play_whole_game_by_widgets(app, clock)
    assert app.game.is_over
    assert app.game.score_invariant_problems() == []
    assert "Final ranking" in app.ranking.value
    assert app.play_again.layout.display is None  # shown
    assert "Game over" in app.status.value


def test_play_again_starts_the_next_game(clock, app):
    app.autoplay()
    seed = app.game.seed
    app.play_again.click()
    assert app.game.seed == seed + 1 and not app.game.is_over
    assert app.game.stage == "answer" and app.ranking.value == ""


def test_autoplay_finishes_the_game_and_ignores_pending_timers(clock, app):
    game = app.autoplay()
    assert game.is_over and game.ranking is not None
    actions = len(game.actions)
    clock.advance(60)  # timers from before autoplay must not act any more
    assert len(game.actions) == actions


def test_watch_mode_has_no_human(clock):
    app = started(play(you=None, bots=("easy", "medium", "hard"), seed=3, clock=clock, pace=0))
    clock.advance(600)
    assert app.game.is_over
    app.map_view.click("HU-PE")
    assert "you are watching" in app.message.value


def test_play_rejects_a_wrong_number_of_bots():
    with pytest.raises(ValueError, match="ConQUIZtador is for 3 players"):
        play(bots=("easy",))


def test_bank_markup_is_shown_literally(clock, tmp_path):
    bank = tmp_path / "markup.csv"
    bank.write_text("type,question,answer,wrong_1,wrong_2,wrong_3\n"
                    "guess,<b>How many</b> <script>x</script>?,7,,,\n"
                    "choice,<i>Pick</i>,a,b,c,d\n", encoding="utf-8")
    app = started(play(bank=str(bank), seed=1, clock=clock))
    assert "&lt;b&gt;How many&lt;/b&gt; &lt;script&gt;" in app.panel.text.value
    assert "<script>" not in app.panel.text.value


def test_recolouring_one_territory_sends_under_1_kb():
    view = MapView(load_builtin_map("hungary"))
    owners = {t: None for t in view.polygons}
    values = {t: 0 for t in view.polygons}
    towers = {t: None for t in view.polygons}
    view.show(owners, values, towers, 3)
    with WidgetTraffic() as traffic:
        owners["HU-PE"], values["HU-PE"] = SEAT_COLOURS["blue"], 200
        view.show(owners, values, towers, 3)
    assert 0 < traffic.total_bytes < 1024
    with WidgetTraffic() as traffic:
        view.show(owners, values, towers, 3)
    assert traffic.total_bytes == 0  # nothing changed, nothing sent
    assert view.polygons["HU-BA"].fill_color == FREE


def test_one_bank_file_in_a_list_loads(clock):
    app = started(play(bank=["../question_banks/general_knowledge_en.csv".replace("..", str(REPO))],
                       seed=1, clock=clock))
    assert len(app.game.bank.choice) == 122 and len(app.game.bank.guess) == 91


def test_a_missing_bank_file_says_where_relative_paths_start():
    with pytest.raises(FileNotFoundError, match="relative paths start in"):
        play(bank="no_such_bank.csv")


def test_expansion_outcome_names_the_real_picks(clock, app):
    asked = app.game.question
    app.panel.guess_box.value = str(asked.question.answer)  # exact: your team is closest
    for _ in range(40):  # until the bots have answered and the result is on screen
        clock.advance(0.25)
        if "Result" in app.panel.header.value:
            break
    queue = list(app.game.pick_queue)
    assert queue[:2] == [0, 0]
    names = [app.game.players[s].name for s in dict.fromkeys(queue)]
    expected = "Closest: Your team. " + "; ".join(
        f"{n}: {queue.count(s)} pick{'s' if queue.count(s) > 1 else ''}" for n, s in zip(names, dict.fromkeys(queue)))
    assert outcome_lines(app.view) == [expected + "."]
    assert app.panel.text.value == f'<div class="tnb-qtext">{expected}.</div>'  # in the panel, where players look
    assert "Closest" not in app.reveal.value + app.message.value  # and only there (issue 9: it was shown twice)


def test_resume_before_start_starts_the_game(clock):
    app = play(seed=7, clock=clock)
    app.resume()
    assert app.start_button.layout.display == "none"
    app.start_button.click()  # a late click on Start does nothing more
    clock.advance(1.6)
    answers = [a for a in app.game.actions if a.player != 0]
    assert len(answers) == len(set(a.player for a in answers))  # each bot answered once


def test_fit_view_frames_the_map_for_the_reported_size():
    hungary = load_builtin_map("hungary")
    (lat, lon), zoom = fit_view(hungary.bounds, 600, 560)
    assert zoom == 6.75 and abs(lon - 19.48582) < 1e-9 and 46.9 < lat < 47.4
    assert fit_view(hungary.bounds, 900, 600)[1] == 7.25
    assert fit_view(hungary.bounds, 500, 400)[1] == 6.5


def test_map_view_refits_when_the_browser_reports_a_new_size():
    view = MapView(load_builtin_map("hungary"))
    view.map.set_trait("left", 0)
    view.map.set_trait("top", 0)
    view.map.set_trait("bottom", 560)
    view.map.set_trait("right", 600)
    assert view.map.zoom == 6.75
    view.map.zoom = 8  # the user zooms in: same size, left alone
    view.map.set_trait("right", 600)
    assert view.map.zoom == 8


def play_whole_game_by_widgets(app, clock) -> None:
    """The human answers right and clicks the first outlined territory; uses
    Magic Wings or rebuilds when that is all that is left."""
    for _ in range(20000):
        game = app.game
        if game.is_over:
            return
        asked = game.question
        mine = not app.table.paused and game.current_players() == (0,)
        if mine and game.stage in ("base", "pick"):
            app.map_view.click(game.legal_picks(0)[0])
        elif mine and game.stage == "attack":
            if game.legal_targets(0):
                app.map_view.click(game.legal_targets(0)[0])
            elif game.wings_targets(0):
                app.wings.value = True
                app.map_view.click(game.wings_targets(0)[0])
            else:
                app.rebuild_button.click()
        elif asked is not None and 0 in asked.waiting_for and app.panel._accepting:
            if asked.is_guess:
                app.panel.guess_box.value = str(asked.question.answer)
            else:
                app.panel.choice_buttons[asked.correct_option].click()
        clock.advance(0.25)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("rules, players", [("duel", 2), ("dobyvatel", 3), ("long-campaign", 3)])
def test_every_rule_set_plays_to_the_end_through_the_widgets(clock, rules, players):
    app = started(play(rules=rules, seed=5, clock=clock, pace=0.2))
    assert len(app.game.players) == players
    play_whole_game_by_widgets(app, clock)
    assert app.game.score_invariant_problems() == []
    assert "Final ranking" in app.ranking.value
    if rules == "dobyvatel":
        assert WIN_KIND_LABELS[app.game.win_kind.value].capitalize() in app.ranking.value


def test_long_campaign_bases_are_chosen_by_clicking_in_colour_order(clock):
    app = started(play(rules="long-campaign", seed=2, clock=clock, pace=0.2))
    game = app.game
    order = [s for s in sorted(range(3), key=lambda s: ("red", "blue", "green").index(game.colours[s]))]
    assert [e.data["order"] for e in game.events if e.kind == "phase"][0] == order
    for _ in range(400):
        if game.stage == "base" and game.current_players() == (0,) and not app.table.paused:
            break
        clock.advance(0.25)
    assert "Your base" in app.status.value
    choosable = [t for t, p in app.map_view.polygons.items() if p.weight == 4]
    assert choosable == game.legal_picks(0)
    app.map_view.click(choosable[0])
    assert game.territories[choosable[0]].base_of == 0


def test_duel_magic_wings_control_appears_in_round_3_only(clock):
    # the human answers battle questions wrong, so no castle falls to the human and the game reaches round 3
    app = started(play(rules="duel", bots=("easy",), seed=5, clock=clock, pace=0.2))
    seen = set()
    for _ in range(20000):
        game = app.game
        if game.is_over:
            break
        if not app.table.paused and game.stage == "attack" and game.current_players() == (0,):
            shown = app.wings.layout.display is None
            seen.add((game.battle_round, shown))
            assert shown == bool(game.wings_targets(0))
            if game.battle_round == 3 and game.wings_targets(0):
                app.wings.value = True
                target = game.wings_targets(0)[0]
                assert app.map_view.polygons[target].weight == 4  # outlined once the wings are on
                app.map_view.click(target)
                assert game.actions[-1] == AttackAction(0, target, wings=True)
                continue
        play_step(app, lose_battles=True)
        clock.advance(0.25)
    assert (3, True) in seen and not any(shown for rnd, shown in seen if rnd != 3)


def play_step(app, lose_battles: bool = False) -> None:
    """One human move if one is due: first legal territory, right answers (or
    wrong multiple-choice answers with ``lose_battles``)."""
    game = app.game
    asked = game.question
    if not app.table.paused and game.current_players() == (0,) and game.stage in ("base", "pick"):
        app.map_view.click(game.legal_picks(0)[0])
    elif not app.table.paused and game.current_players() == (0,) and game.stage == "attack" and game.legal_targets(0):
        app.map_view.click(game.legal_targets(0)[0])
    elif asked is not None and 0 in asked.waiting_for and app.panel._accepting:
        if asked.is_guess:
            app.panel.guess_box.value = str(asked.question.answer)
        else:
            wrong = (asked.correct_option + 1) % 4
            app.panel.choice_buttons[wrong if lose_battles else asked.correct_option].click()


def test_setup_form_starts_a_game_from_its_settings(clock):
    from triviador_nb.ui import setup

    form = setup(clock=clock)
    assert form.app.game.rules.name == "conquiztador" and len(form.preview_box.children) == 1
    assert [d.layout.display for d in form.bots] == [None, None, "none"]
    form.rules.value = "duel"
    assert [d.layout.display for d in form.bots] == [None, "none", "none"]
    form.map.value = "hungary15"
    form.seed.value = "42"
    form.new_game.click()
    game = form.app.game
    assert (game.rules.name, len(game.board), game.seed, len(game.players)) == ("duel", 15, 42, 2)
    assert form.game_box.children == (form.app.widget,)


def test_setup_form_starts_a_game_of_two_teams_and_a_bot(clock):
    """Issue 12: teams on one screen from the form; the teacher types their answers."""
    from triviador_nb.ui import setup

    form = setup(clock=clock)
    form.teams.value = "Foxes, Owls"
    form.bots[0].value = "hard"
    form.new_game.click()
    app = form.app
    assert [p.name for p in app.game.players] == ["Foxes", "Owls", "Bot 1 (hard)"]
    assert app.teams == {0: "Foxes", 1: "Owls"} and list(app.controls.entries) == [0, 1]
    form.teams.value = "Foxes, Foxes"
    form.new_game.click()
    assert form.app is app and "the teams need names that differ: Foxes, Foxes" in form.error.value


def test_setup_form_explains_a_bad_setting_and_keeps_the_game(clock):
    from triviador_nb.ui import setup

    form = setup(clock=clock)
    app = form.app
    form.bank.value = "no_such_bank.csv"
    form.new_game.click()
    assert form.app is app and "no question bank file no_such_bank.csv" in form.error.value
    form.bank.value = "general_knowledge_en"
    form.seed.value = "abc"
    form.new_game.click()
    assert form.app is app and "must be a whole number" in form.error.value


def test_setup_form_plays_a_teachers_own_geojson(clock, tmp_path):
    from triviador_nb.ui import setup

    data = json.loads(load_builtin_map("germany15").source_path.read_text(encoding="utf-8"))
    del data["triviador"]
    for feature in data["features"]:
        feature["properties"] = {"name": feature["properties"]["name"]}  # a plain GeoJSON: names only
    own = tmp_path / "germany_plain.geojson"
    own.write_text(json.dumps(data), encoding="utf-8")
    form = setup(clock=clock)
    form.map_file.value = str(own)
    form.new_game.click()
    board = form.app.game.board
    assert len(board) == 15 and form.error.value == ""
    assert board.names[next(t for t in board.territories if board.names[t] == "Bayern")] == "Bayern"
    by_name = {board.names[t]: t for t in board.territories}
    assert {board.names[n] for n in board.adjacency[by_name["Saarland"]]} == {"Rheinland-Pfalz"}


def test_setup_filters_the_bank_by_category_and_difficulty_and_says_if_it_is_enough(clock):
    from triviador_nb.ui import setup

    form = setup(clock=clock)
    assert "Geography" in form.categories.value and form.difficulties.value == ("easy", "medium", "hard")  # easiest first (issue 9)
    assert "enough for a game without repeats" in form.enough.value
    form.categories.value = ("History",)
    form.difficulties.value = ("easy",)
    bank = form.selected_bank()
    assert {q.category for q in bank.guess + bank.choice} == {"History"}
    assert {q.difficulty for q in bank.guess + bank.choice} == {"easy"}
    assert "some may be asked twice (D4)" in form.enough.value
    form.new_game.click()
    assert form.app.game.bank == bank
    form.categories.value = ("Sport",)
    form.difficulties.value = ("hard",)
    assert "no guess" in form.enough.value and "choose more" in form.enough.value


def test_setup_mixes_banks_of_different_formats(clock, tmp_path):
    from triviador_nb.ui import setup

    gift = tmp_path / "quiz.gift"
    gift.write_text("::q1:: In what year did the Berlin Wall fall? {#1989}\n\n"
                    "::q2:: Which planet is largest? {=Jupiter ~Mars ~Venus ~Mercury}\n", encoding="utf-8")
    csv_file = tmp_path / "excel_hu.csv"
    csv_file.write_bytes("type;question;answer;wrong_1;wrong_2;wrong_3\n"
                         "guess;Hány megye van Magyarországon?;19;;;\n"
                         "choice;Melyik város Győr-Moson-Sopron megye székhelye?;Győr;Sopron;Mosonmagyaróvár;Pápa\n"
                         .encode("cp1250"))
    form = setup(clock=clock)
    form.bank.value = f"{gift}, {csv_file}"
    assert "2 guess questions and 2 multiple-choice questions chosen" in form.enough.value
    form.new_game.click()
    texts = {q.text for q in form.app.game.bank.guess + form.app.game.bank.choice}
    assert "Hány megye van Magyarországon?" in texts and "In what year did the Berlin Wall fall?" in texts


def test_setup_rereads_a_fixed_bank_file_and_previews_the_map_played(clock, tmp_path):
    from triviador_nb.ui import setup

    bank = tmp_path / "bank.csv"
    bank.write_text("type,question,answer,wrong_1,wrong_2,wrong_3\ngues,Typo,3,,,\n", encoding="utf-8")
    form = setup(clock=clock)
    first = form.app
    form.bank.value = str(bank)
    form.new_game.click()
    assert form.app is first and "unknown type &#x27;gues&#x27;" in form.error.value
    bank.write_text("type,question,answer,wrong_1,wrong_2,wrong_3\nguess,How many?,3,,,\n"
                    "choice,Pick,a,b,c,d\n", encoding="utf-8")  # the teacher fixes the file
    form.new_game.click()
    assert form.app is not first and len(form.app.game.bank.guess) == 1
    form.map.value = "uk19"
    form.new_game.click()
    assert form._previewed.board.name == form.app.game.board.name == "uk19"


def test_a_stopped_game_stays_stopped(clock):
    app = started(play(seed=7, clock=clock))
    app.stop()
    app.resume()
    app.play_again.click()
    clock.advance(60)
    assert app.game.actions == []


def test_a_teachers_map_for_duel_needs_room_for_two_bases_only(tmp_path):
    from triviador_nb.ui import resolve_map

    squares = [[[19 + x, 47 + y], [19.5 + x, 47 + y], [19.5 + x, 47.5 + y], [19 + x, 47.5 + y], [19 + x, 47 + y]]
               for x in (0, 0.5) for y in (0, 0.5)]
    data = {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"name": f"T{i}"}, "geometry": {"type": "Polygon", "coordinates": [ring]}}
        for i, ring in enumerate(squares)]}
    path = tmp_path / "grid4.geojson"
    path.write_text(json.dumps(data), encoding="utf-8")
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert len(resolve_map(str(path), players=2).board) == 4
        with pytest.raises(ValueError, match="3"):
            resolve_map(str(path), players=3)


def test_setup_form_resumes_a_game_saved_before_the_kernel_restarted(clock, token_home):
    """Issue 12 part 3 without typing a path: the form lists the saved games
    (newest first) and brings one back where it stood."""
    from triviador_nb.ui import setup

    form = setup(clock=clock, seed=42)
    assert form.saved_row.layout.display == "none"  # nothing saved before this form
    form.teams.value = "Foxes, Owls"
    form.new_game.click()
    played = form.app
    played.start()
    played.controls.entries[0].value = "1848"
    before = played.game.to_dict()
    form.close()  # the kernel restarts
    again = setup(clock=clock)
    labels = [label for label, _path in again.saved_choice.options]
    assert again.saved_row.layout.display is None  # issue 24: the game's number and moves tell games apart
    assert labels[0].endswith(" · ConQUIZtador · Foxes, Owls · game 42 · 1 move")
    assert again.resume_button.description == "Resume the saved game"
    again.resume_button.click()
    assert again.app.game.to_dict() == before and again.app.teams == {0: "Foxes", 1: "Owls"}
    assert again.game_box.children == (again.app.widget,)
    again.saved_choice.options = [("broken", str(again.app.journal.path.with_name("missing.journal")))]
    again.resume_button.click()
    assert "missing.journal is not there any more (moved or deleted since the list was made)" in again.error.value
    assert again.app.game.to_dict() == before


def saved_lesson(clock, **settings):
    """A form's game played a little and the form closed, as before a kernel restart: the journal's path."""
    from triviador_nb.ui import setup

    form = setup(clock=clock, seed=42, **settings)
    form.teams.value = "Foxes, Owls"
    form.new_game.click()
    form.app.start()
    form.app.controls.entries[0].value = "1848"
    path = form.app.journal.path
    form.close()
    return path


def test_resume_says_why_a_saved_game_with_a_damaged_setup_cannot_come_back(clock, token_home):
    """Issue 25: a journal whose setup had the wrong shape made the button do nothing (the error went to the log)."""
    from triviador_nb.ui import setup

    path = saved_lesson(clock)
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["setup"]["humans"] = 5  # the form's list must still appear
    header["setup"]["rules"] = 7
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    again = setup(clock=clock)
    assert [" · 7 · bots only · game 42 · " in label for label, _path in again.saved_choice.options] == [True]
    again.resume_button.click()
    assert (f"{path.name}: its setup is damaged (rules 7 is no rule set&#x27;s name; humans 5 is not a list of "
            "names), so the screen cannot be rebuilt from it") in again.error.value
    again.close()


def teachers_po(tmp_path, messages: str):
    """``de.po`` with ``messages`` in token_home's languages folder: its path."""
    languages = tmp_path / "home" / "languages"
    languages.mkdir(parents=True, exist_ok=True)
    (languages / "de.po").write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n' + messages,
                                     "utf-8")
    return languages / "de.po"


def test_a_saved_game_in_a_language_broken_since_does_not_stop_the_form(clock, token_home, tmp_path):
    """Issue 25: the newest saved game's language file cannot be read now: the form appears in English and says why."""
    from triviador_nb.i18n import current_language
    from triviador_nb.ui import setup

    languages = teachers_po(tmp_path, 'msgid "Pause"\nmsgstr "Anhalten"\n').parent
    saved_lesson(clock, language="de")
    (languages / "de.po").write_text('msgid ""\nmsgstr ""\n\nmsgid "Pause"\nmsgstr "Anhalten"\nkaputt\n', "utf-8")
    from triviador_nb.i18n import set_language
    set_language("en")  # the kernel restarted
    again = setup(clock=clock)
    assert again.language == "en" and current_language() == "en"
    assert ("The saved games&#x27; language (de) cannot be read now: de.po, line 6: Unknown or misformatted "
            "keyword: &#x27;kaputt&#x27;") in again.error.value
    again.close()


def test_the_form_lists_what_a_language_file_left_out_when_it_is_chosen(clock, token_home, tmp_path):
    from triviador_nb.ui import setup

    teachers_po(tmp_path, 'msgid "Rule set"\nmsgstr "Regeln {x}"\n\nmsgid "Map"\nmsgstr "Karte"\n')
    form = setup(clock=clock, seed=42)
    form.language_choice.value = "de"
    assert (form.rules.description, form.map.description) == ("Rule set", "Karte")
    assert "1 note about the language file (messages left out show in English)" in form.error.value
    assert ("de.po, line 6: the field {x}, but the English has none (write {{ or }} for a brace itself); left out, "
            "the English shows there: &#x27;Rule set&#x27;") in form.error.value
    form.new_game.click()  # the game starts in German, the notes not said again as a Python warning
    assert form.app.language == "de", form.error.value
    form.close()


def test_the_log_sends_only_its_new_lines_and_keeps_the_kernels_copy_whole():
    """Issue 29 item 4: a new event sends its line, not the 9 lines shown."""
    from triviador_nb.ui.event_log import EventLog

    a, b, c = (f'<li class="tnb-ev-pick">Bot {n} takes Tolna (+200)</li>' for n in (1, 2, 3))
    log = EventLog()
    log.show([b, a])
    with WidgetTraffic() as traffic:
        log.show([c, b])  # one new line on top, the oldest dropped: its kind and text travel
    assert len(traffic.messages) == 1 and traffic.total_bytes < 95  # the two lines whole: 150 bytes
    assert log.lines == [c, b]  # what a page loading the widget later gets
    assert log.value == f'<ul class="tnb-log">{c}{b}</ul>'
    with WidgetTraffic() as traffic:
        log.show(["<li>x</li>"])  # an undo or a new game: the lines whole
    assert len(traffic.messages) == 1 and log.lines == ["<li>x</li>"]
    with WidgetTraffic() as traffic:
        log.show(["<li>x</li>"])
    assert traffic.messages == []


def test_a_move_sends_the_scoreboard_parts_it_changed_not_the_board(clock):
    """Issue 29 item 4: the board was resent whole (about 4 KB) on every move."""
    app = started(play(seed=3, clock=clock, journal=False))
    before = app.scoreboard.value
    assert '<span class="tnb-swatch" style="background:#CC3311">1</span>' in before
    with WidgetTraffic() as traffic:
        app._render(app.view)  # the same view again
    assert traffic.messages == []  # nothing changed, nothing sent
    for _ in range(400):  # to the human's first attack (answering nothing, it wins no pick)
        if app.game.stage == "attack" and app.game.current_players() == (0,) and not app.table.paused:
            break
        question = app.game.question
        if question is not None and 0 in question.waiting_for:
            app.table.submit(0, GuessAnswer(0, None) if question.is_guess else ChoiceAnswer(0, None))
        clock.advance(0.5)
    with WidgetTraffic() as traffic:
        app.map_view.click(app.game.legal_targets(0)[0])
    scoreboard = {part.model_id for line in app.scoreboard.widget.children for part in _descendants(line)}
    scoreboard.add(app.scoreboard.widget.model_id)
    sent = sum(size for (_, size), comm_id in zip(traffic.messages, traffic.comm_ids) if comm_id in scoreboard)
    assert 0 < sent < 600 and app.scoreboard.value != before


def _descendants(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _descendants(child)


def test_the_countdown_is_counted_down_by_the_browser():
    """Issue 29 item 4: the seconds travel when a timer starts, stops or goes on, not once a second."""
    from triviador_nb.ui.question_panel import QuestionPanel

    panel = QuestionPanel()
    panel.prompt("Your turn", "Click a territory", 10)
    assert panel.timer.max == 10.0 and panel.timer.running and panel.timer.label == "10 s"
    with WidgetTraffic() as traffic:
        for left in (9.75, 9.5, 9.25, 9.0, 8.75, 8.4):  # the screen follows the deadline every 0.25 s
            panel.set_time_left(left)
    assert traffic.messages == [] and panel.timer.value == 8.4 and panel.timer.label == "8 s"
    with WidgetTraffic() as traffic:
        panel.set_time_left(8.25, running=False)  # the teacher pauses: the browser's count stands at 8.25
        panel.set_time_left(8.25, running=False)
    assert len(traffic.messages) == 1 and traffic.total_bytes < 100 and not panel.timer.running
    with WidgetTraffic() as traffic:
        panel.set_time_left(8.25)  # Resume
        panel.set_time_left(9.5)  # time given back (more than half a second): sent again
        panel.set_time_left(9.25)
    assert len(traffic.messages) == 2 and panel.timer.running and panel.timer.value == 9.25
    panel.clear("Nothing to answer")
    assert panel.timer.label == "" and not panel.timer.running


def test_an_html_line_sends_only_its_changed_middle():
    """Issue 29 item 4: "1 of 3 answered" -> "2 of 3 answered" travels as a splice, not the whole line;
    the kernel's value is the whole line (what a page loaded later gets)."""
    from triviador_nb.ui.spliced_html import SplicedHTML, splice

    line = SplicedHTML()
    line.value = '<div class="tnb-answered-line" role="status">1 of 3 answered</div>'
    with WidgetTraffic() as traffic:
        line.value = '<div class="tnb-answered-line" role="status">2 of 3 answered</div>'
    assert line.value == '<div class="tnb-answered-line" role="status">2 of 3 answered</div>'
    assert len(traffic.messages) == 1 and traffic.messages[0][0] == "comm_msg" and traffic.total_bytes < 75
    whole = len('{"method": "update", "state": {"value": "short"}, "buffer_paths": []}')  # as an HTML widget sends it
    with WidgetTraffic() as traffic:
        line.value = "short"  # nothing shared: one splice replacing it all, its content the bare list
    assert line.value == "short" and len(traffic.messages) == 1
    assert traffic.total_bytes == len('{"method": "custom", "content": [[0, 66, "short"]]}') == 51 < whole
    # offsets in UTF-16 code units, as the browser's strings count: an emoji is two
    assert splice("a😀b·c", "a😀b-c") == (4, 1, "-")
    assert splice("Pest", "Pest") == (4, 0, "")
    assert splice("ab", "abab") == (2, 0, "ab")


def _applied(old: str, changes) -> str:
    """What the browser's code does with splices: offsets in UTF-16 code units, applied in order."""
    units = old.encode("utf-16-le")
    for at, cut, put in changes:
        units = units[:2 * at] + put.encode("utf-16-le") + units[2 * (at + cut):]
    return units.decode("utf-16-le")


def test_splices_rebuild_the_new_value_in_the_browser():
    import random

    from triviador_nb.ui.spliced_html import splices

    status = ('<div class="tnb-status tnb-yourturn" role="status"><span class="tnb-phase">Expansion</span> · '
              'guess question: everyone answers</div>')
    waiting = ('<div class="tnb-status" role="status"><span class="tnb-phase">Expansion</span> · '
               'Bot 1 (medium) is choosing a territory</div>')
    changes = splices(status, waiting)
    assert _applied(status, changes) == waiting
    assert len(changes) == 2 and sum(len(put) for _at, _cut, put in changes) < 45  # the class and the words
    rng = random.Random(29)
    alphabet = "ab<>·😀é "
    for _ in range(300):
        old = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        new = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        assert _applied(old, splices(old, new)) == new, (old, new)


def test_a_long_question_is_marked_to_be_drawn_smaller_in_a_short_window():
    """Issue 24: at 1280x720 a 97-character question beside the map put option D 8 px from the fold;
    a question over LONG_QUESTION characters gets the class the short-window CSS draws at 17 px."""
    from triviador_nb.ui.question_panel import LONG_QUESTION, QuestionPanel
    from triviador_nb.ui.styles import CSS

    panel = QuestionPanel()
    options = ("Oder", "Elbe", "Vistula", "Warta")
    text = "Together with its tributary the Neisse, which river forms most of the German–Polish border?"
    panel.ask("Multiple-choice question", text, options, True, 15)
    assert len(text) == 91 > LONG_QUESTION and '<div class="tnb-qtext tnb-long" role="status">' in panel.text.value
    panel.ask("Multiple-choice question", "x" * LONG_QUESTION, options, True, 15)
    assert '<div class="tnb-qtext" role="status">' in panel.text.value
    short_window = CSS.split("@media (max-height: 760px) {")[1].split("\n}")[0]
    assert ".tnb-qtext.tnb-long { font-size: 17px;" in short_window
