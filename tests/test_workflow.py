"""The GitHub Actions workflow cannot run here, so it is checked here: actionlint (with
shellcheck for its scripts) and zizmor find nothing in it, and the deploy is wired the
way the README says. The test extra installs both linters; a missing one fails."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOWS = ROOT / ".github" / "workflows"
SITE = WORKFLOWS / "site.yml"
BIN = Path(sys.executable).parent

#: A workflow with one mistake of each kind the linters are there to catch.
FAULTY = """\
name: faulty
on: pull_request
jobs:
  a:
    runs-on: ubuntu-24.04
    steps:
      - uses: actions/checkout@v4
        with:
          no-such-input: 1
      - run: echo ${{ github.event.pull_request.title }} $UNQUOTED
"""


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(BIN)) or shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: pip install -e '.[tests]' installs it", pytrace=False)
    return found


def _run(*command: str) -> subprocess.CompletedProcess:
    # actionlint runs shellcheck from PATH: the one the test extra put beside this Python
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", NO_COLOR="1")
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def faulty(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("workflows") / "faulty.yml"
    path.write_text(FAULTY, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def workflow() -> dict:
    data = yaml.safe_load(SITE.read_text(encoding="utf-8"))
    data["on"] = data.pop(True, data.get("on"))  # YAML 1.1 reads the key `on` as true
    return data


def test_there_is_a_workflow():
    assert sorted(p.name for p in WORKFLOWS.glob("*.y*ml")) == ["site.yml"]


def test_actionlint_finds_nothing():
    result = _run(_tool("actionlint"), "-no-color", *map(str, sorted(WORKFLOWS.glob("*.y*ml"))))
    assert result.returncode == 0, result.stdout + result.stderr


def test_actionlint_and_shellcheck_do_catch_mistakes(faulty):
    """Guard for the test above: the linter runs, knows the actions' inputs, and checks
    scripts with shellcheck."""
    _tool("shellcheck")
    result = _run(_tool("actionlint"), "-no-color", str(faulty))
    assert result.returncode == 1, result.stdout + result.stderr
    for finding in ('input "no-such-input" is not defined', "SC2086", "potentially untrusted"):
        assert finding in result.stdout, (finding, result.stdout)


def test_zizmor_finds_nothing():
    result = _run(_tool("zizmor"), "--offline", "--no-progress", "--strict-collection", str(WORKFLOWS))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No findings to report" in result.stdout, result.stdout


def test_zizmor_does_catch_mistakes(faulty):
    result = _run(_tool("zizmor"), "--offline", "--no-progress", str(faulty))
    assert result.returncode != 0, result.stdout + result.stderr
    for audit in ("template-injection", "unpinned-uses", "artipacked", "excessive-permissions"):
        assert audit in result.stdout, (audit, result.stdout)


def test_actions_are_pinned_by_commit_with_their_release():
    uses = re.findall(r"^\s*(?:-\s+)?uses:\s*(\S+)(.*)$", SITE.read_text(encoding="utf-8"), re.MULTILINE)
    assert uses
    for action, comment in uses:
        assert re.fullmatch(r"actions/[\w-]+@[0-9a-f]{40}", action), action
        assert re.fullmatch(r"\s*# v\d+\.\d+\.\d+", comment), (action, comment)


def test_triggers_and_least_permissions(workflow):
    assert set(workflow["on"]) == {"push", "pull_request"}
    assert workflow["on"]["push"] == {"branches": ["main"]}
    assert workflow["permissions"] == {}, "the workflow grants nothing by default; jobs ask for what they need"
    jobs = workflow["jobs"]
    assert {name: job["permissions"] for name, job in jobs.items()} == {
        "test": {"contents": "read"},
        "records": {"contents": "read"},
        "build": {"contents": "read", "pages": "read"},
        "deploy": {"pages": "write", "id-token": "write"},
    }
    for name, job in jobs.items():
        for step in job["steps"]:
            if step.get("uses", "").startswith("actions/checkout@"):
                assert step["with"]["persist-credentials"] is False, name


def test_the_test_job_runs_the_readmes_command(workflow):
    steps = workflow["jobs"]["test"]["steps"]
    assert [s["run"] for s in steps if "run" in s][-1] == ".ci/run"
    assert "`.ci/run`" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_records_a_pull_request_adds_are_checked(workflow):
    job = workflow["jobs"]["records"]
    assert job["if"] == "github.event_name == 'pull_request'"
    script = job["steps"][-1]["run"]
    assert "--diff-filter=AM" in script and "'verification/*.json'" in script
    assert "make record-check RECORDS=" in script
    assert "record-check:" in (ROOT / "Makefile").read_text(encoding="utf-8")


def test_main_builds_for_the_pages_address_and_deploys(workflow):
    build, deploy = workflow["jobs"]["build"], workflow["jobs"]["deploy"]
    assert build["needs"] == "test" and deploy["needs"] == "build"
    assert build["if"] == "github.event_name == 'push' && github.ref == 'refs/heads/main'"
    make_site = next(s for s in build["steps"] if s.get("run") == "make site")
    assert make_site["env"]["SITE_URL"] == "${{ steps.pages.outputs.base_url }}/"
    upload = next(s for s in build["steps"] if s.get("uses", "").startswith("actions/upload-pages-artifact@"))
    assert upload["with"]["path"] == "site"
    assert deploy["environment"]["name"] == "github-pages"
    assert deploy["concurrency"] == {"group": "pages", "cancel-in-progress": False}
    assert [s["uses"].split("@")[0] for s in deploy["steps"]] == ["actions/deploy-pages"]
