"""Commit subjects stay at 72 characters or less (`.ci/check-subjects`, run by `make lint` in CI and by the
pre-commit commit-msg hook): checked here on a scratch repository, so a long subject is known to fail it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

CHECK = Path(__file__).resolve().parents[1] / ".ci" / "check-subjects"


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def _repo_with_check(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / ".ci").mkdir(parents=True)
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "t@example.org")
    _git(repo, "config", "user.name", "t")
    _git(repo, "commit", "-q", "--allow-empty", "-m", "an old commit whose subject is far longer " + "x" * 80)
    shutil.copy(CHECK, repo / ".ci" / "check-subjects")
    _git(repo, "add", ".ci")
    _git(repo, "commit", "-q", "-m", "The subject check comes in")
    return repo


def _check(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(repo / ".ci" / "check-subjects"), *args], capture_output=True, text=True)


def test_subjects_since_the_check_came_in_pass_and_older_ones_are_not_read(tmp_path):
    repo = _repo_with_check(tmp_path)
    _git(
        repo, "commit", "-q", "--allow-empty", "-m", "x" * 72 + "\n\nA body line may be as long as it needs " + "y" * 90
    )
    assert _check(repo).returncode == 0


def test_a_subject_over_72_characters_fails_and_is_named(tmp_path):
    repo = _repo_with_check(tmp_path)
    _git(repo, "commit", "-q", "--allow-empty", "-m", "z" * 73)
    result = _check(repo)
    assert result.returncode == 1 and "z" * 73 in result.stderr


def test_the_commit_msg_hook_reads_the_message_file(tmp_path):
    repo = _repo_with_check(tmp_path)
    message = tmp_path / "COMMIT_EDITMSG"
    message.write_text("a" * 73 + "\n")
    assert _check(repo, str(message)).returncode == 1
    message.write_text("a" * 72 + "\n\n" + "b" * 200 + "\n")
    assert _check(repo, str(message)).returncode == 0
