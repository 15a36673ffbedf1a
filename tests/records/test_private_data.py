"""records.private_data: what a record may not hold (home directories, user and host names, secrets), and what is not personal."""

from __future__ import annotations

import pytest

from ruota_docs.records import private_data


@pytest.mark.parametrize("text", [
    "saved to ~/models and <page-dir>/out", "HOME=~ USER=<user>", "git@github.com:org/repo.git",
    "see https://example.org/a", "write to docs@example.org", "TOKENIZERS_PARALLELISM=false", "max_tokens=2048",
    "/home/user/project", "torch 2.13.0+cpu, numpy 2.4.6", "listening on 127.0.0.1:8000",
    "MIOpen kernel cache: <page-dir>/home/.cache/miopen", "ls /home/.snapshots",
])
def test_what_is_not_personal(text):
    assert [f for f in private_data.findings(text, this_machine=False) if f.error] == []


@pytest.mark.parametrize("text", ["x = threading.local()", "pip install git+https://github.com/x/y@main", "@property",
                                  "torch@2.9.1", "ssh git@github.com", "user@host", "Host: huggingface.co",
                                  "ssh root@192.0.2.10", "Hostname: localhost", "username: root"])
def test_what_is_no_user_or_host(text):
    assert private_data.findings(text, this_machine=False) == []


@pytest.mark.parametrize(("text", "kind"), [
    ("ssh bob@10.0.0.5 nvidia-smi", "a user name at an address"),
    ("Hostname: erins-desktop", "a user or host name"),
    ("COMPUTERNAME=ERINS-PC", "a user or host name"),
    ("logname = alice", "a user or host name"),
])
def test_a_user_at_an_address_and_a_reported_host_name(text, kind):
    assert [f.kind for f in private_data.findings(text, this_machine=False) if f.error] == [kind]


def test_what_the_page_publishes_covers_its_example_data():
    known = private_data.Known(["User(username='jdoe')", "engine = create_engine('postgresql://pg:pw@db/x')"])
    text = "username='jdoe'\npostgresql://pg:pw@db/x\nUSER=jdoe2\n"
    assert sorted(f.line for f in private_data.findings(text, this_machine=False)) == [1, 2, 2, 3]
    assert [(f.kind, f.line) for f in private_data.findings(text, this_machine=False, known=known)] == [
        ("a user or host name", 3)]


def test_this_machines_names_are_never_covered(monkeypatch):
    monkeypatch.setenv("HOME", "/srv/people/jdoe")
    words = [(re_, label) for re_, label in __import__("ruota_docs.records.private_data", fromlist=["x"]).private_words()]
    known = private_data.Known(["/srv/people/jdoe is the example"], ["/srv/people/jdoe"])
    found = private_data.findings("at /srv/people/jdoe/x", words=words, known=known)
    assert [f.kind for f in found] == ["this machine's home directory"]


def test_the_allow_list_matches_in_full_and_names_a_bad_entry():
    known = private_data.Known((), ["scolvin", r"[a-z]+@mail\.com"])
    assert private_data.findings("USER=scolvin a@mail.com", this_machine=False, known=known) == []
    assert len(private_data.findings("USER=scolvin2 a@mail.community.org", this_machine=False, known=known)) == 2
    with pytest.raises(private_data.AllowListError, match=r"allow_private\[1\]: '\[' is no regular expression"):
        private_data.compile_allowed(["ok", "["])


_MANY = [
    "", "plain text", "saved to /home/alice/models", "/Users/bob/x", r"C:\Users\carol\y", "mail me: dan@mail.com",
    "erin@desk:~$ ls", "ssh frank@workstation-42", "ssh gail@10.0.0.5", "nas.local:8080", "HOSTNAME=hal",
    "logname = ivy", "token ghp_" + "a" * 36, "hf_" + "b" * 34, "AKIA" + "C" * 16, "Bearer " + "d" * 20,
    "-----BEGIN RSA PRIVATE KEY-----", "xoxb-1234567890", "sk-" + "e" * 40, "AIza" + "f" * 35,
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "postgres://u:pw@db/x", "API_KEY=abc123def456ghi789", "DB_PASSWORD: s3cretvalue1234567", "at 8.8.8.8",
    "GPU-12345678-1234-1234-1234-123456789abc", "mac 00:1a:2b:3c:4d:5e", "max_tokens=2048", "@property",
    # a clue at either end of a text, and texts that would make one only if read together
    "alice@", "desk:~$", "USER", "=jdoe", "/home", "/zed/", "192.168.", "1.1",
]


def test_many_texts_give_what_each_gives_alone(monkeypatch):
    monkeypatch.setenv("HOME", "/srv/people/jdoe")
    words = private_data.private_words()
    texts = _MANY + ["at /srv/people/jdoe/x"] + ["nothing here"] * 50
    alone = {n: found for n, text in enumerate(texts) if (found := private_data.findings(text, words=words))}
    assert private_data.findings_many(texts, words=words) == alone
    assert len(alone) > 25  # the texts above hold something to find
    assert private_data.findings_many(texts, this_machine=False) == {
        n: found for n, text in enumerate(texts) if (found := private_data.findings(text, this_machine=False))}
