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
