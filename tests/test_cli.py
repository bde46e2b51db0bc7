"""The command line: ``triviador-nb simulate`` for every rule set and map."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from triviador_nb.cli import main

BANK = str(Path(__file__).resolve().parents[1] / "question_banks" / "general_knowledge_en.csv")


@pytest.mark.parametrize("rules, players", [("duel", 2), ("conquiztador", 3), ("classic", 3), ("dobyvatel", 3),
                                            ("long-campaign", 3)])
@pytest.mark.parametrize("map_name", ["hungary", "hungary15"])
def test_simulate_prints_one_json_object_for_every_rule_set_and_map(capsys, rules, players, map_name):
    status = main(["simulate", "--rules", rules, "--map", map_name, "--bank", BANK, "--games", "3",
                   "--seed", "7", "--json"])
    out = capsys.readouterr().out
    assert status == 0 and out.count("\n") == 1
    summary = json.loads(out)
    assert summary["games"] == 3 and summary["finished"] == 3 and summary["map"] == map_name
    assert len(summary["wins_by_seat"]) == players and sum(summary["wins_by_seat"]) == 3
    assert summary["mean_actions"] > 0 and summary["games_per_second"] > 0


def test_simulate_is_deterministic_under_its_seed(capsys):
    args = ["simulate", "--map", "hungary", "--games", "4", "--seed", "11", "--json"]
    main(args)
    first = json.loads(capsys.readouterr().out)
    main(args)
    second = json.loads(capsys.readouterr().out)
    for key in ("wins_by_seat", "mean_actions", "mean_final_scores", "eliminations"):
        assert first[key] == second[key]


@pytest.mark.parametrize("args, message", [
    (["--rules", "chess"], "unknown rule set 'chess'; known rule sets: campaign, classic, conquiztador, dobyvatel, "
                           "duel, long-campaign"),
    (["--games", "0"], "--games must be at least 1"),
    (["--map", "atlantis"], "atlantis"),
    (["--bank", "no_such_file.csv"], "no_such_file.csv"),
    (["--rules", "duel", "--skills", "easy", "hard", "medium"], "--skills needs 2 skills for Duel, got 3"),
    (["--skills", "expert", "hard", "medium"], "unknown bot skill 'expert'; known skills: easy, medium, hard"),
])
def test_simulate_bad_arguments_say_why_and_exit_2(capsys, args, message):
    assert main(["simulate", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("triviador-nb: error: ") and message in err and "Traceback" not in err
