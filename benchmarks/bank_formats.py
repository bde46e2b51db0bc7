"""Reading other tools' bank formats: ``check_bank_file`` of the same questions written as the project's
CSV (the baseline), GIFT, Moodle XML, a QTI 1.2 file, a QTI 2.1 zip (one item a file) and a Quizlet set.

Run: ``.venv/bin/python benchmarks/bank_formats.py [--questions 5000] [--repeat 3]``

Half the questions are multiple choice, half guess (Quizlet: N terms, all
multiple choice). Prints each format's best-of-``repeat`` time and its ratio
to the CSV's, measured in the same process.
"""

from __future__ import annotations

import argparse
import csv
import random
import tempfile
import time
import zipfile
from html import escape
from pathlib import Path

from triviador_nb.banks import check_bank_file


def questions(count: int, seed: int = 1) -> list[tuple[str, str, list[str]]]:
    """``(question, answer, wrong options)``; guess questions have no wrong options."""
    rng = random.Random(seed)
    syllables = ["ka", "lo", "mi", "ter", "san", "vo", "ru", "bel", "dan", "que", "pra", "zu", "nor"]
    words = sorted({"".join(rng.choices(syllables, k=rng.randint(2, 4))) for _ in range(6000)})

    def text() -> str:
        return "Which " + " ".join(rng.choices(words, k=rng.randint(6, 14))) + f" {rng.randint(0, 10**6)}?"

    made = []
    for index in range(count):
        if index % 2:
            made.append((text(), str(rng.randint(0, 10**6)), []))
        else:
            options = rng.sample(words, 4)
            made.append((text(), options[0], options[1:]))
    return made


def write_all(folder: Path, made: list[tuple[str, str, list[str]]]) -> dict[str, Path]:
    paths = {name: folder / file for name, file in (
        ("csv", "bank.csv"), ("gift", "bank.gift"), ("moodle_xml", "bank.xml"), ("qti 1.2", "qti12.xml"),
        ("qti 2.1 zip", "qti21.zip"), ("quizlet", "set.txt"))}
    with paths["csv"].open("w", encoding="utf-8", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(["type", "question", "answer", "wrong_1", "wrong_2", "wrong_3"])
        out.writerows([("choice" if wrong else "guess", question, answer, *(wrong or ["", "", ""]))
                       for question, answer, wrong in made])
    paths["gift"].write_text("".join(
        f"{question} {{={answer} {' '.join('~' + option for option in wrong)}}}\n\n" if wrong
        else f"{question} {{#{answer}}}\n\n" for question, answer, wrong in made), encoding="utf-8")
    paths["moodle_xml"].write_text("<quiz>\n" + "".join(
        f'<question type="{"multichoice" if wrong else "numerical"}"><name><text>q{number}</text></name>'
        f'<questiontext format="html"><text>{escape(question)}</text></questiontext><single>true</single>'
        f'<answer fraction="100"><text>{answer}</text></answer>'
        + "".join(f'<answer fraction="0"><text>{option}</text></answer>' for option in wrong) + "</question>\n"
        for number, (question, answer, wrong) in enumerate(made)) + "</quiz>\n", encoding="utf-8")
    paths["qti 1.2"].write_text("<questestinterop><assessment title='A'><section>" + "".join(
        _item_12(number, question, answer, wrong) for number, (question, answer, wrong) in enumerate(made))
        + "</section></assessment></questestinterop>\n", encoding="utf-8")
    with zipfile.ZipFile(paths["qti 2.1 zip"], "w") as archive:
        archive.writestr("imsmanifest.xml", "<manifest/>")
        for number, (question, answer, wrong) in enumerate(made):
            archive.writestr(f"items/q{number}.xml", _item_21(number, question, answer, wrong))
    paths["quizlet"].write_text("".join(f"{answer} {number}\t{question}\n"
                                        for number, (question, answer, _) in enumerate(made)), encoding="utf-8")
    return paths


def _item_12(number: int, question: str, answer: str, wrong: list[str]) -> str:
    if wrong:
        labels = "".join(f'<response_label ident="{place}"><material><mattext>{option}</mattext></material>'
                         "</response_label>" for place, option in enumerate([answer, *wrong]))
        response = f'<response_lid ident="r" rcardinality="Single"><render_choice>{labels}</render_choice></response_lid>'
        correct = '<varequal respident="r">0</varequal>'
    else:
        response = '<response_str ident="r"><render_fib fibtype="Integer"/></response_str>'
        correct = f'<varequal respident="r">{answer}</varequal>'
    return (f'<item ident="i{number}" title="q{number}"><presentation><material><mattext>{escape(question)}</mattext>'
            f"</material>{response}</presentation><resprocessing><respcondition><conditionvar>{correct}"
            '</conditionvar><setvar action="Set">100</setvar></respcondition></resprocessing></item>\n')


def _item_21(number: int, question: str, answer: str, wrong: list[str]) -> str:
    if wrong:
        choices = "".join(f'<simpleChoice identifier="c{place}">{option}</simpleChoice>'
                          for place, option in enumerate([answer, *wrong]))
        declaration, correct = "identifier", "c0"
        body = f'<choiceInteraction responseIdentifier="R" maxChoices="1">{choices}</choiceInteraction>'
    else:
        declaration, correct = "integer", answer
        body = '<textEntryInteraction responseIdentifier="R"/>'
    return (f'<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="q{number}" '
            f'title="q{number}"><responseDeclaration identifier="R" cardinality="single" baseType="{declaration}">'
            f"<correctResponse><value>{correct}</value></correctResponse></responseDeclaration><itemBody><p>"
            f"{escape(question)}</p>{body}</itemBody></assessmentItem>\n")


def best(path: Path, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        problems = check_bank_file(path)
        times.append(time.perf_counter() - start)
    assert not any(problem.message.startswith("skipped") or problem.is_error and "has no" not in problem.message
                   for problem in problems), problems[:3]  # only "the bank has no guess questions" (Quizlet)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        paths = write_all(Path(folder), questions(args.questions))
        baseline = best(paths["csv"], args.repeat)
        print(f"{args.questions:,} questions, best of {args.repeat}")
        for name, path in paths.items():
            seconds = baseline if name == "csv" else best(path, args.repeat)
            print(f"{name:<12} {seconds * 1000:>9.0f} ms  {seconds / baseline:>6.1f}x the CSV  "
                  f"({path.stat().st_size / 2**20:.1f} MiB)")


if __name__ == "__main__":
    main()
