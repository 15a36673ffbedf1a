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

ROOT = Path(__file__).resolve().parents[2]
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


def test_there_are_four_workflows():
    assert sorted(p.name for p in WORKFLOWS.glob("*.y*ml")) == ["record-check.yml", "records.yml", "release.yml",
                                                                "site.yml"]


def test_a_version_tag_builds_checks_attests_and_publishes_by_trusted_publishing():
    release = yaml.safe_load((WORKFLOWS / "release.yml").read_text(encoding="utf-8"))
    assert release[True] == {"push": {"tags": ["v*"]}}  # YAML 1.1 reads the key `on` as true
    assert release["permissions"] == {}
    jobs = release["jobs"]
    build = "\n".join(step.get("run", "") for step in jobs["build"]["steps"])
    assert "-m build --outdir dist ." in build and "twine\" check --strict dist/*" in build
    assert ".ci/wheel dist/*.whl" in build
    assert jobs["attest"]["needs"] == "build" and jobs["attest"]["permissions"]["attestations"] == "write"
    assert any(s.get("uses", "").startswith("actions/attest-build-provenance@") for s in jobs["attest"]["steps"])
    publish = jobs["publish"]
    assert publish["needs"] == "attest" and publish["environment"]["name"] == "pypi"
    assert publish["permissions"] == {"id-token": "write"}
    step = publish["steps"][-1]
    assert step["uses"].startswith("pypa/gh-action-pypi-publish@") and "with" not in step  # no token: trusted


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


@pytest.mark.parametrize("path", [SITE, WORKFLOWS / "records.yml", WORKFLOWS / "record-check.yml"],
                         ids=["site", "records", "record-check"])
def test_actions_are_pinned_by_commit_with_their_release(path):
    uses = re.findall(r"^\s*(?:-\s+)?uses:\s*(\S+)(.*)$", path.read_text(encoding="utf-8"), re.MULTILINE)
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
        "attestations": {"contents": "read", "attestations": "read", "actions": "read"},
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


CHECK = WORKFLOWS / "record-check.yml"


@pytest.fixture(scope="module")
def record_check() -> dict:
    data = yaml.safe_load(CHECK.read_text(encoding="utf-8"))
    data["on"] = data.pop(True, data.get("on"))
    return data


def test_a_pull_request_s_records_are_checked_by_the_base_branch_s_checker(record_check):
    """pull_request_target runs the base branch's workflow; the checker is checked out from the base
    commit, installed with hashes, and only the pull request's data folders are taken from it."""
    assert list(record_check["on"]) == ["pull_request_target"] and record_check["permissions"] == {}
    job = record_check["jobs"]["check"]
    assert job["permissions"] == {"contents": "read"}
    assert re.fullmatch(r"debian:bookworm@sha256:[0-9a-f]{64}", job["container"]["image"])
    (checkout,) = [s for s in job["steps"] if s.get("uses", "").startswith("actions/checkout@")]
    assert checkout["with"] == {"ref": "${{ github.event.pull_request.base.sha }}", "path": "base", "fetch-depth": 0,
                                "persist-credentials": False}
    scripts = "\n".join(s.get("run", "") for s in job["steps"])
    assert "--require-hashes --no-deps -r base/constraints/checker.txt" in scripts and "./base" in scripts
    assert 'git archive "$HEAD_SHA" -- docs snippets verification' in scripts
    assert "make " not in scripts and "${{" not in scripts  # nothing of the pull request runs; no template in scripts
    assert "--no-renames --diff-filter=d" in scripts and "record check --from" in scripts


def _replay(script: str, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-e", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, check=False)


def test_every_record_a_pull_request_touches_is_checked_whatever_its_name(record_check, tmp_path):
    """The job's two scripts, replayed on a pull request that renames a record to a dotfile, adds a
    file whose name is shell syntax and replaces a record with a link: each is named and refused, and
    no name runs as a command."""
    from _support import RX7600, record_of, synthetic_record, write_tree

    page = "# Página { #p }\n\n```python\nprint('uno')\n```\n"
    origin = write_tree(tmp_path / "origin", {f"docs/{lang}/p.md": page for lang in ("es", "en", "fr")}
                        | {"snippets/none.py": "pass\n"}, conftest=False)
    (origin / "verification").mkdir()
    text = record_of(synthetic_record(origin, RX7600)).to_json()
    for name in ("rocm-gfx1102.json", "rocm-gfx1102-0000aaaa.json"):
        (origin / "verification" / name).write_text(text, encoding="utf-8")
    git = lambda *a: subprocess.run(["git", "-C", str(origin), "-c", "user.name=t", "-c", "user.email=t@example.org", *a],  # noqa: E731
                                    check=True, capture_output=True, text=True).stdout.strip()
    git("init", "-q", "-b", "main")
    git("add", "-A")
    git("commit", "-qm", "base")
    base = git("rev-parse", "HEAD")
    git("mv", "verification/rocm-gfx1102.json", "verification/.rocm-gfx1102.json")
    (origin / "verification" / ".r;touch PWNED;.json").write_text(text, encoding="utf-8")
    (origin / "verification" / "rocm-gfx1102-0000aaaa.json").unlink()
    (origin / "verification" / "rocm-gfx1102-0000aaaa.json").symlink_to("/dev/zero")
    git("add", "-A")
    git("commit", "-qm", "the pull request")
    head = git("rev-parse", "HEAD")
    git("update-ref", "refs/pull/7/head", head)
    git("checkout", "-q", base)
    runner = tmp_path / "runner"
    subprocess.run(["git", "clone", "-q", str(origin), str(runner / "base")], check=True)
    checker = runner / "checker" / "bin"
    checker.mkdir(parents=True)
    (checker / "ruota-docs").symlink_to(BIN / "ruota-docs")
    steps = {s["name"]: s for s in record_check["jobs"]["check"]["steps"] if "name" in s}
    env = {"PATH": os.environ["PATH"], "RUNNER_TEMP": str(runner), "PR_NUMBER": "7", "BASE_SHA": base, "HEAD_SHA": head,
           "NO_MKDOCS_2_WARNING": "1", "HOME": str(tmp_path)}
    data_step = next(s for n, s in steps.items() if n.startswith("The pull request's data"))
    done = _replay(data_step["run"], runner, env)
    assert done.returncode == 0, done.stderr
    touched = (runner / "touched").read_bytes().split(b"\0")
    assert b"verification/.r;touch PWNED;.json" in touched and b"verification/.rocm-gfx1102.json" in touched
    assert b"verification/rocm-gfx1102-0000aaaa.json" in touched  # the type change (a link now)
    assert (runner / "removed").read_bytes() == b"verification/rocm-gfx1102.json\0"  # the rename's other half
    check_step = next(s for n, s in steps.items() if n.startswith("ruota-docs record check"))
    done = _replay(check_step["run"], runner / "data", env)
    assert done.returncode == 1, done.stdout + done.stderr
    out = done.stdout
    assert "verification/.r;touch PWNED;.json: record: error: a hidden file" in out
    assert "verification/.rocm-gfx1102.json: record: error: a hidden file" in out
    assert "verification/rocm-gfx1102-0000aaaa.json: record: error: a symbolic link" in out
    assert "this pull request removes records" in out and not list(tmp_path.rglob("PWNED"))


def test_main_builds_for_the_pages_address_and_deploys(workflow):
    build, deploy = workflow["jobs"]["build"], workflow["jobs"]["deploy"]
    assert build["needs"] == ["test", "attestations"] and deploy["needs"] == "build"
    assert build["if"] == "github.event_name == 'push' && github.ref == 'refs/heads/main'"
    make_site = next(s for s in build["steps"] if s.get("run") == "make site")
    assert make_site["env"]["SITE_URL"] == "${{ steps.pages.outputs.base_url }}/"
    # the build shows as made by CI only the records whose attestation the attestations job verified
    assert make_site["env"]["RUOTA_DOCS_VERIFIED_RECORDS"] == "${{ runner.temp }}/verified/records.txt"
    verify = workflow["jobs"]["attestations"]["steps"][1]["run"]
    assert "python3 -m ruota_docs.records.attestations verification" in verify and '--repo "$GITHUB_REPOSITORY"' in verify
    upload = next(s for s in build["steps"] if s.get("uses", "").startswith("actions/upload-pages-artifact@"))
    assert upload["with"]["path"] == "site"
    assert deploy["environment"]["name"] == "github-pages"
    assert deploy["concurrency"] == {"group": "pages", "cancel-in-progress": False}
    assert [s["uses"].split("@")[0] for s in deploy["steps"]] == ["actions/deploy-pages"]


# -- the records workflow: the owners' self-hosted runners ------------------------------------------------------------
RECORDS = WORKFLOWS / "records.yml"


@pytest.fixture(scope="module")
def records() -> dict:
    data = yaml.safe_load(RECORDS.read_text(encoding="utf-8"))
    data["on"] = data.pop(True, data.get("on"))
    return data


def test_records_run_only_when_a_maintainer_dispatches_them(records):
    assert list(records["on"]) == ["workflow_dispatch"], "never on pull_request: a fork's code would run on the owner's machine"
    assert records["permissions"] == {}
    target = records["on"]["workflow_dispatch"]["inputs"]["target"]
    assert target["type"] == "choice" and "gfx1102" in target["options"]
    labels = yaml.safe_load((ROOT / ".github" / "actionlint.yaml").read_text(encoding="utf-8"))["self-hosted-runner"]["labels"]
    assert set(target["options"]) <= set(labels)  # every target a runner may be labelled with is known to actionlint


def test_the_suite_runs_on_the_owners_runner_in_a_container_that_sees_the_gpu(records):
    suite = records["jobs"]["suite"]
    assert suite["runs-on"] == ["self-hosted", "linux", "rocm", "${{ inputs.target }}"]
    assert suite["permissions"] == {"contents": "read"}
    assert re.fullmatch(r"rocm/pytorch@sha256:[0-9a-f]{64}", suite["container"]["image"])
    options = suite["container"]["options"]
    assert "--device=/dev/kfd" in options and "--device=/dev/dri" in options and "--privileged" not in options
    assert re.findall(r"--cap-add=(\S+)", options) == ["NET_ADMIN"]  # only to cut its own network
    names = [step.get("name", step.get("uses", "")) for step in suite["steps"]]
    cut, run, back = (next(n for n, name in enumerate(names) if name.startswith(start)) for start in
                      ("Cut the container's network", "Run the suite", "The network back"))
    installed = next(n for n, name in enumerate(names) if name.startswith("Install ruota-docs"))
    upload = next(n for n, name in enumerate(names) if name.startswith("actions/upload-artifact@"))
    assert installed < cut < run < back < upload  # the suite and the check run without network
    assert "ip link set" in suite["steps"][cut]["run"] and "still reachable" in suite["steps"][cut]["run"]
    assert suite["env"]["RUOTA_DOCS_RUNNER_LABELS"] == "self-hosted,linux,rocm,${{ inputs.target }}"
    scripts = "\n".join(step.get("run", "") for step in suite["steps"])
    assert "ruota-docs verify --record" in scripts and "ruota-docs record check" in scripts
    assert "ruota-docs record describe" in scripts and "${{" not in scripts  # inputs reach scripts as variables only


def test_no_token_that_writes_reaches_the_owners_machine(records):
    jobs = records["jobs"]
    assert jobs["attest"]["needs"] == "suite" and jobs["pull-request"]["needs"] == "attest"
    assert jobs["attest"]["permissions"] == {"id-token": "write", "attestations": "write"}
    # the pull request is opened with a fine-grained token from an environment, so it gets the normal CI
    assert jobs["pull-request"]["permissions"] == {} and jobs["pull-request"]["environment"] == "records-pull-request"
    opened = next(s for s in jobs["pull-request"]["steps"] if "gh pr create" in s.get("run", ""))
    assert opened["env"]["GH_TOKEN"] == "${{ secrets.RECORDS_PR_TOKEN }}"
    for name in ("attest", "pull-request"):
        assert not str(jobs[name]["runs-on"]).startswith("self-hosted") and "self-hosted" not in jobs[name]["runs-on"]
    attest = [s for s in jobs["attest"]["steps"] if s.get("uses", "").startswith("actions/attest-build-provenance@")]
    assert attest and attest[0]["with"]["subject-path"] == "out/*.json"
    script = jobs["pull-request"]["steps"][-1]["run"]
    assert 'git add "verification/$name.json"' in script and "gh pr create" in script
    assert '--body-file "$RUNNER_TEMP/record/pull-request.md"' in script


def test_zizmors_self_hosted_runner_audit_runs_and_its_one_finding_is_answered(tmp_path):
    auditor = ("--offline", "--no-progress", "--persona", "auditor")
    result = _run(_tool("zizmor"), *auditor, str(RECORDS))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No findings to report" in result.stdout and "(1 ignored)" in result.stdout
    bare = tmp_path / "records.yml"
    bare.write_text(RECORDS.read_text(encoding="utf-8").replace(" # zizmor: ignore[self-hosted-runner]", ""), encoding="utf-8")
    result = _run(_tool("zizmor"), *auditor, str(bare))
    assert "self-hosted-runner" in result.stdout, result.stdout  # the audit does look at the job


def test_the_record_the_job_writes_passes_the_check_and_opens_this_pull_request(tmp_path, monkeypatch, capsys):
    """What the job does after the suite, on a record written as the engine writes it in that job."""
    from _support import RX7600, results_of, synthetic_record, write_tree
    from ruota_docs.cli import main
    from ruota_docs.records import ledger, provenance
    from ruota_docs.records.schema import Machine

    page = "# Página { #p }\n\n```python\nprint('uno')\n```\n"
    root = write_tree(tmp_path / "project", {f"docs/{lang}/p.md": page for lang in ("es", "en", "fr")}, conftest=False)
    for name, value in {"GITHUB_ACTIONS": "true", "GITHUB_RUN_ID": "4242", "GITHUB_REPOSITORY": "ruota/ruota-docs",
                        "GITHUB_SHA": "c" * 40, "RUOTA_DOCS_RUNNER_LABELS": "self-hosted,linux,rocm,gfx1102"}.items():
        monkeypatch.setenv(name, value)
    entries = list(synthetic_record(root, RX7600)["blocks"].values())
    written = tmp_path / "record" / "rocm-gfx1102.json"
    ledger.record(written, results_of(entries), {e["page"] for e in entries}, Machine.from_json(RX7600))
    name = f"rocm-gfx1102-{provenance.fingerprint()[:8]}"
    record = tmp_path / "out" / f"{name}.json"
    record.parent.mkdir()
    written.rename(record)
    assert main(["--root", str(root), "record", "check", str(record)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "accepted: 1 record, 3 entries (0 stale); 0 errors, 0 warnings"
    assert main(["--root", str(root), "record", "describe", str(record)]) == 0
    body = capsys.readouterr().out
    # described before the attest job has run: nothing verified it yet, and the body says so
    assert body.startswith("A record of the whole suite on **AMD Radeon RX 7600 (ROCm, gfx1102)**, made (claimed CI, unverified) "
                           "by the records workflow, run https://github.com/ruota/ruota-docs/actions/runs/4242 (runner labels: "
                           "self-hosted, linux, rocm, gfx1102).")
    assert f"- commit the suite ran on: `{'c' * 40}`; provenance: ci, claimed" in body and "- blocks: 3 passed" in body


@pytest.mark.parametrize(("verify_exits", "step_exits"), [(0, 0), (1, 0), (2, 2), (130, 130)])
def test_a_record_with_failing_blocks_is_sent_and_a_stopped_run_is_not(records, tmp_path, verify_exits, step_exits):
    """The suite step, run by bash as the runner runs it, with `ruota-docs verify` exiting as given:
    1 (blocks failed, which the record says) goes on to the check and the upload, anything else stops."""
    step = next(s for s in records["jobs"]["suite"]["steps"] if "ruota-docs verify" in s.get("run", ""))
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    fake = tmp_path / ".venv" / "bin" / "ruota-docs"
    fake.write_text(f"#!/bin/sh\nexit {verify_exits}\n", encoding="utf-8")
    fake.chmod(0o755)
    done = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=tmp_path, env={"RUNNER_TEMP": str(tmp_path), "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, check=False)
    assert done.returncode == step_exits, done.stdout + done.stderr


def test_the_pull_request_job_checks_the_record_itself_on_the_commit_that_ran(records):
    jobs = records["jobs"]
    checkouts = [s for name in ("suite", "pull-request") for s in jobs[name]["steps"]
                 if s.get("uses", "").startswith("actions/checkout@")]
    assert [c["with"]["ref"] for c in checkouts] == ["${{ github.sha }}", "${{ github.sha }}"]
    steps = [s.get("run", "") for s in jobs["pull-request"]["steps"]]
    checked = next(n for n, run in enumerate(steps) if "ruota-docs\" record check" in run or "ruota-docs record check" in run)
    opened = next(n for n, run in enumerate(steps) if "gh pr create" in run)
    assert checked < opened
