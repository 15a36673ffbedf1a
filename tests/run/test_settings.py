"""The run's settings: from the site configuration, the environment and pytest's options."""

from __future__ import annotations

import json
import os
import textwrap
from types import SimpleNamespace

import pytest

from ruota_docs.records import provenance
from ruota_docs.run import settings


@pytest.fixture
def project(tmp_path):
    (tmp_path / "mkdocs.yml").write_text(textwrap.dedent("""\
        plugins:
          - ruota_docs:
              record_dir: records
          - i18n:
              languages: [{locale: en, default: true}, {locale: es}]
        """), encoding="utf-8")
    return tmp_path


def test_from_the_site_and_the_environment(project):
    found = settings.from_environment(project, {"RUOTA_DOCS_NETWORK": "yes", "RUOTA_DOCS_MEMORY_LIMIT": "1GiB",
                                                "RUOTA_DOCS_RUN_AS": "someone", "RUOTA_DOCS_TIMEOUT": "5"})
    assert (found.root, found.record_dir, found.source_language) == (project, project / "records", "en")
    assert (found.network, found.memory_limit, found.run_as_user, found.run_as_root) == (True, "1GiB", "someone", False)
    assert found.timeout == settings.DEFAULT_TIMEOUT  # not an interface: --block-timeout is
    # named as `contribute` names it: the machine's id and its fingerprint
    assert found.record_path("cpu-x86_64") == project / "records" / f"cpu-x86_64-{provenance.fingerprint()[:8]}.json"


def test_a_record_named_as_before_stays_this_machine_s(project):
    found = settings.from_environment(project, {})
    (project / "records").mkdir(exist_ok=True)
    earlier = project / "records" / "cpu-x86_64.json"
    earlier.write_text(json.dumps({"fingerprint": provenance.fingerprint()}))
    assert found.record_path("cpu-x86_64") == earlier  # not a second file of one machine beside it
    earlier.write_text(json.dumps({"fingerprint": "0" * 32}))  # another machine's
    assert found.record_path("cpu-x86_64") == project / "records" / provenance.record_name("cpu-x86_64")


def _config(root, invoked, **options):
    defaults = {"record": None, "no_record": False, "block_timeout": None, "network": False, "no_reuse": False,
                "reuse_record": False, "update_outputs": False, "run_as_root": False, "isolation": None,
                "allow_env": None, "ledger": None, "no_ledger": False, "reuse_ledger": False}  # the deprecated names
    values = defaults | options
    return SimpleNamespace(getoption=values.__getitem__, rootpath=root, invocation_params=SimpleNamespace(dir=invoked))


def test_from_pytest_options(project, tmp_path_factory):
    elsewhere = tmp_path_factory.mktemp("cwd")
    found = settings.from_pytest(_config(project, elsewhere, record="out/x.json", block_timeout=3.0, update_outputs=True,
                                         reuse_record=True), environ={})
    assert found.record_path("any") == elsewhere / "out" / "x.json"  # relative to where pytest was started
    assert (found.timeout, found.update_outputs, found.reuse_record) == (3.0, True, True)
    assert found.reuse_translations is False  # every translation runs when its #> lines may be rewritten
    off = settings.from_pytest(_config(project, elsewhere, no_record=True, reuse_record=True), environ={})
    assert (off.write_record, off.reuse_record) == (False, False)
    # secrets a page may get by name: the option's and the variable's, together
    allowed = settings.from_pytest(_config(project, elsewhere, allow_env=["HF_TOKEN"]),
                                   environ={"RUOTA_DOCS_ALLOW_ENV": "GH_TOKEN, NPM_TOKEN"})
    assert allowed.allow_env == ("GH_TOKEN", "HF_TOKEN", "NPM_TOKEN")
    assert settings.from_pytest(_config(project, elsewhere), environ={}).allow_env == ()


def test_the_deprecated_option_names_are_read_as_the_new_ones(project, tmp_path_factory):
    elsewhere = tmp_path_factory.mktemp("cwd")
    found = settings.from_pytest(_config(project, elsewhere, ledger="out/x.json", reuse_ledger=True), environ={})
    assert (found.record_path("any"), found.reuse_record) == (elsewhere / "out" / "x.json", True)
    off = settings.from_pytest(_config(project, elsewhere, no_ledger=True, reuse_record=True), environ={})
    assert (off.write_record, off.reuse_record) == (False, False)


def test_the_page_process_gets_one_argument(project):
    found = settings.from_environment(project, {"RUOTA_DOCS_MEMORY_LIMIT": "512MiB", "RUOTA_DOCS_PROCESS_LIMIT": "64",
                                                "RUOTA_DOCS_FILE_SIZE_LIMIT": "1GiB"})
    assert json.loads(found.for_worker("sandbox", 42)) == {
        "limits": {"as": 512 * 2**20, "data": None, "nproc": 64, "fsize": 2**30}, "isolation": "sandbox", "parent": 42,
        "setup": None}
    # outside any namespace, the invoking user's count of processes is not the page's to cap
    assert json.loads(found.for_worker("none", 42))["limits"]["nproc"] is None
    with pytest.raises(AttributeError):
        found.network = True  # frozen: built once, read everywhere


def test_default_limits_and_isolation(project):
    found = settings.from_environment(project, {})
    limits = found.limits()
    assert (found.isolation, found.timeout) == ("auto", 120.0)
    assert (limits.processes, limits.file_size, limits.address_space) == (4096, 16 * 2**30, None)
    assert 0 < limits.memory < os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    assert settings.from_environment(project, {"RUOTA_DOCS_ISOLATION": "User"}).isolation == "user"


def test_network_setting_read_from_the_environment(monkeypatch, tmp_path):
    for value in ("1", "yes", "true"):
        monkeypatch.setenv(settings.NETWORK_VARIABLE, value)
        assert settings.from_environment(tmp_path).network is True
    for value in ("0", "false", "no", ""):
        monkeypatch.setenv(settings.NETWORK_VARIABLE, value)
        assert settings.from_environment(tmp_path).network is False
