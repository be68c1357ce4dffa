"""``parlour play`` in the platform's language: the locale (LANG, LC_ALL...) says French."""

from __future__ import annotations

import os
import subprocess
import sys

PLAY = ["play", "clobber", "--vs", "human", "--position", "oxo x"]


def _play(tmp_path, **env: str) -> str:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    result = subprocess.run(
        [sys.executable, "-c", "from parlour.cli import main; main()", *PLAY,
         "--record", str(tmp_path / "game.json")],
        input="help\nzz\nb1a1\n", capture_output=True, text=True, timeout=120,
        env={**clean, "COLUMNS": "200", **env},
    )
    assert result.returncode == 0, result.stderr
    return " ".join(result.stdout.split())


def test_a_french_locale_plays_in_french(tmp_path):
    out = _play(tmp_path, LANG="fr_FR.UTF-8")
    assert "Tapez help pour les commandes." in out
    assert "Comment jouer : tapez la case de votre pierre" in out.replace("\u00a0", " ")
    # a refusal keeps the project's style: the rule in brackets at the end, in French
    assert ("Impossible de lire le coup 'zz' : écrivez la case de départ puis la case "
            "d'arrivée, comme a1b1 (Clobber : jouer un coup)") in out.replace("\u00a0", " ")
    assert "gagné" in out and "Résultat" in out
    assert "partie enregistrée dans" in out


def test_the_c_locale_and_an_unknown_language_play_in_english(tmp_path):
    assert "Type help for commands." in _play(tmp_path, LC_ALL="C", LANG="fr_FR.UTF-8")
    assert "Type help for commands." in _play(tmp_path, LANG="de_DE.UTF-8")


def _run(*args: str, **env: str) -> tuple[int, str]:
    """``parlour ARGS`` as a person runs it, in the locale ``env`` says; its output on one line."""
    clean = {k: v for k, v in os.environ.items()
             if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    result = subprocess.run(
        [sys.executable, "-c", "from parlour.cli import main; main()", *args],
        capture_output=True, text=True, timeout=120, env={**clean, "COLUMNS": "300", **env},
    )
    return result.returncode, " ".join((result.stdout + result.stderr).split()).replace(
        "\u00a0", " ")


def test_the_help_is_in_the_locales_language():
    code, out = _run("--help", LANG="fr_FR.UTF-8")
    assert code == 0
    assert "Jouer, étudier et résoudre Clobber" in out and "Commandes" in out
    assert "Jouer une partie dans le terminal" in out  # each command's line, play's...
    assert "Résoudre exactement une position de Clobber" in out  # ...and the others'
    assert "Afficher la version et quitter." in out
    code, out = _run("play", "--help", LANG="fr_FR.UTF-8")
    assert code == 0
    assert "Tapez help à l'invite pour les commandes" in out
    assert "votre place (0 joue en premier) [par défaut : 0]" in out
    assert "[obligatoire]" in out and "Afficher ce message et quitter." in out
    assert "your seat" not in out and "Show this message" not in out
    code, out = _run("play", "--help", LC_ALL="C", LANG="fr_FR.UTF-8")
    assert "your seat (0 moves first)" in out and "Show this message and exit." in out


def test_every_commands_line_in_the_help_has_its_translation():
    """A command's one line in ``parlour --help`` is its docstring's first paragraph, which
    the catalog holds (:data:`parlour.cli.locale.COMMAND_SUMMARIES`): a docstring changed
    without it would show English in French."""
    import typer.main

    from parlour import i18n
    from parlour.cli import app
    from parlour.cli.locale import summary

    french = i18n.translations("fr")
    for name, command in typer.main.get_command(app).commands.items():
        line = summary(command)
        assert french.gettext(line) != line, (name, line)


def test_the_rules_are_printed_in_the_locales_language_with_boards():
    code, out = _run("rules", "clobber", LANG="fr_FR.UTF-8")
    assert code == 0
    assert "Clobber se joue à deux, Blanc et Noir" in out
    assert "a b c d e f" in out and "Blanc (o) au trait" in out  # a picture, drawn as a board
    assert "Le début d'une partie sur le plateau habituel." in out  # ...with its caption
    assert "(C" not in out and "ruling" not in out  # players' words: no ruling ids
    code, english = _run("rules", "stomp-the-plank", LC_ALL="C")
    assert code == 0 and "Stomp the Plank" in english and "(P" not in english
    code, reference = _run("rules", "clobber", "--reference", LANG="fr_FR.UTF-8")
    assert code == 0 and "C6" in reference and "Cannibal" in reference


def test_command_line_errors_are_in_the_locales_language():
    code, out = _run("rules", "chess", LANG="fr_FR.UTF-8")
    assert code == 2 and "erreur : jeu inconnu 'chess' ; jeux connus : clobber" in out
    code, out = _run("play", "clobber", "--seat", "5", LANG="fr_FR.UTF-8")
    assert code == 2 and "erreur : --seat doit valoir de 0 à 1" in out
    code, out = _run("play", "clobber", "--vs", "nobody", LANG="fr_FR.UTF-8")
    assert code == 2 and "adversaire inconnu 'nobody' ; choisissez human ou l'un de" in out
    code, out = _run("rules", LANG="fr_FR.UTF-8")
    assert code == 2 and "Erreur" in out and "Essayez 'parlour rules --help' pour l'aide." in out
