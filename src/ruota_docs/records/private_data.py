"""What a published record must not hold: home directories, user and host names, e-mail
addresses, tokens and keys — and, as warnings, network addresses and hardware ids.

`findings(text)` lists what one string gives away, each with a masked excerpt: the
report of a record someone sends is read in public CI logs, so it never repeats a
secret in full. The engine scrubs the running machine's own home directory, user and host
names when it writes a record (`scrub`, at the end of this module); this module is for records
that come from elsewhere, where those names are unknown, so it looks for their shapes.

- **home directory** (error): ``/home/alice/``, ``/Users/alice/``, ``C:\\Users\\alice\\``.
- **this machine** (error / warning): the home directory (error), user or host name (warning) of
  the machine running the check.
- **user or host name** (error): ``USER=alice``, ``HOSTNAME=desk``, a prompt ``alice@desk:~$``,
  ``alice@workstation-42``, a local host ``erins-desktop.local`` — of any machine, not only
  this one.
- **e-mail address** (error): ``alice@mail.example.com`` (example domains and ``git@`` are
  fine).
- **token or key** (error): GitHub ``ghp_…``/``github_pat_…``, Hugging Face ``hf_…``, AWS
  ``AKIA…`` and secret keys, ``Bearer …``, private keys, Slack, OpenAI, Google keys, JWTs,
  passwords in URLs, long values of ``*_TOKEN=``/``*SECRET*=``/``*PASSWORD*=``/``*API_KEY=``.
- **IP address** (warning): any IPv4 address but loopback, ``0.0.0.0`` and the documentation
  ranges; private ones (10/8, 172.16/12, 192.168/16) say so.
- **hardware id** (warning): GPU UUIDs (``GPU-…``), MAC addresses.

Placeholders are fine: ``~``, ``<user>``, ``<host>``, ``<page-dir>`` (what the engine
writes), ``/home/user/``, ``/home/runner/`` (CI's account).

**The docs' own example data** is no leak: a `Known` holds what the site already publishes (the
page's Markdown and its blocks' code) and the site's allow-list (the ``ruota_docs`` plugin's
``allow_private``: regular expressions, each matched in full against the text found: the
address, the name, the URL's credentials). A finding whose text is in one of them is not
reported: ``print(user)`` showing the ``username='jdoe'`` the block wrote, a
``postgres:postgres@localhost`` URL from the page's code. What names *this* machine is
reported whatever the page says: it is never the docs' example.
"""

from __future__ import annotations

import bisect
import dataclasses
import getpass
import ipaddress
import os
import re
import socket
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ruota_docs.records.schema import Result


@dataclass(frozen=True)
class Finding:
    kind: str
    excerpt: str  #: masked: never the whole secret
    line: int  #: 1-based line within the string
    error: bool = True
    #: the text found, in full, to compare with what the page publishes (`Known`); never printed
    found: str = field(default="", repr=False, compare=False)
    mine: bool = False  #: this machine's own name or folder: never the docs' example data

    def describe(self) -> str:
        return f"{self.kind} ({self.excerpt})"


#: Names in home-folder paths that are placeholders or service accounts, not people.
_PLACEHOLDER_NAMES = {"user", "username", "you", "yourname", "me", "runner", "<user>", "<name>", "<you>", "...", "…",
                      "$user", "${user}", "%username%", "shared", "public", "default", "all users"}
_HOME = [
    # not after a placeholder (<page-dir>/home/…), and no hidden folder is a person's name
    re.compile(r"(?<![\w.~>-])(?:/var|/usr)?/home/(?P<name>[^./\s'\"<>:;,()\[\]][^/\s'\"<>:;,()\[\]]*)"),
    re.compile(r"(?<![\w.~>-])/Users/(?P<name>[^./\s'\"<>:;,()\[\]][^/\s'\"<>:;,()\[\]]*)"),
    re.compile(r"(?i)\b[A-Z]:[\\/]+Users[\\/]+(?P<name>[^\\/\s'\"<>:;,()\[\]]+)"),
]
_EMAIL = re.compile(r"(?<![\w.+%-])(?P<local>[A-Za-z0-9._%+-]+)"
                    r"@(?P<domain>[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})(?![\w-])")
_SAFE_DOMAINS = re.compile(r"(?i)(^|\.)"
                           r"(example\.(com|org|net)|example|invalid|localhost|test|users\.noreply\.github\.com)$")
_PROMPT = re.compile(r"(?<![\w.@-])(?P<user>[a-z_][a-z0-9_-]{1,31})@(?P<host>[A-Za-z0-9][\w-]*):(?:~|/)")
#: ``alice@workstation-42``: a user at a host with no domain (an address with one is an e-mail).
_USER_AT_HOST = re.compile(r"(?<![\w.+%@/-])(?P<user>[A-Za-z_][\w.-]{1,31})"
                           r"@(?P<host>[A-Za-z][\w-]*[A-Za-z0-9])(?![\w.@-])")
#: ``erins-desktop.local``: a host of a local network (mDNS, home and office domains); not
#: ``threading.local()``: what follows a host is a space, a port, a path or punctuation.
_LOCAL_HOST = re.compile(r"(?<![\w.-])(?P<host>[A-Za-z0-9][\w-]*(?:\.[A-Za-z0-9][\w-]*)*)"
                         r"\.(?:local|lan|home\.arpa|internal|localdomain|intranet)(?=$|[\s:/'\",;)\]])", re.IGNORECASE)
#: ``ssh bob@10.0.0.5``: a user at an address, whatever the address says.
_USER_AT_ADDRESS = re.compile(r"(?<![\w.+%@/-])(?P<user>[A-Za-z_][\w.-]{1,31})@(?P<host>\d{1,3}(?:\.\d{1,3}){3})\b")
_NOT_HOSTS = {"localhost", "example", "host", "hostname", "your-host", "myhost"}
#: ``HOSTNAME=erins-desktop``, ``Hostname: erins-desktop``: the settings and reports that name a user or a host
#: (``USER``, ``HOST`` and ``HOME`` in capitals only: ``Host: huggingface.co`` is a web request's header).
_IDENTITY = re.compile(r"\b(?P<key>USER|HOST|HOME|USERPROFILE|(?i:username|logname|hostname|computername))"
                       r"\s*[=:]\s*['\"]?(?P<value>[^\s'\",;]+)")
_NEUTRAL_VALUES = re.compile(r"^(~.*|<.*|root|ruota-docs-runner|runner|localhost|127\.0\.0\.1"
                             r"|\$\w+|\$\{\w+\}|%\w+%|None|null|/root.*|/nonexistent|/tmp.*)$")
_TOKENS = [
    ("a GitHub token", re.compile(r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,}\b")),
    ("a GitHub token", re.compile(r"\bgithub_pat_[A-Za-z0-9_]{22,}\b")),
    ("a Hugging Face token", re.compile(r"\bhf_[A-Za-z0-9]{30,}\b")),
    ("an AWS access key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("an AWS secret key", re.compile(r"(?i)aws_secret_access_key\s*[=:]\s*['\"]?[A-Za-z0-9/+=]{40}")),
    ("a bearer token", re.compile(r"\bBearer\s+[A-Za-z0-9._~+/-]{16,}=*")),
    ("a private key", re.compile(r"-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----")),
    ("a Slack token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
    ("an OpenAI key", re.compile(r"\bsk-(?:proj-)?[A-Za-z0-9_-]{32,}")),
    ("a Google API key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b")),
    ("a JSON web token", re.compile(r"\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}")),
    ("a password in a URL", re.compile(r"\b[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s@]+@")),
]
_SECRET_SETTING = re.compile(
    r"(?i)\b(?P<key>[\w.-]*(?:secret|token|passw(?:or)?d|api[_-]?key|access[_-]?key|auth[_-]?key|private[_-]?key|credential)s?)"
    r"\s*[=:]\s*['\"]?(?P<value>[A-Za-z0-9+/=_.-]{16,})")
_IPV4 = re.compile(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w.])")
_DOCUMENTATION_NETS = [ipaddress.ip_network(n) for n in ("192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24")]
_GPU_UUID = re.compile(r"\bGPU-[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b")
_MAC = re.compile(r"(?i)(?<![\w:])(?:[0-9a-f]{2}:){5}[0-9a-f]{2}(?![\w:])")


def mask(text: str, keep: int = 4) -> str:
    """``ghp_…`` — enough to find it, not enough to use it."""
    return text if len(text) <= keep else text[:keep] + "…"


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _ip_finding(text: str, match: re.Match[str]) -> Finding | None:
    try:
        address = ipaddress.ip_address(match.group(0))
    except ValueError:
        return None
    if address.is_loopback or address.is_unspecified or any(address in net for net in _DOCUMENTATION_NETS):
        return None
    if match.group(0).startswith("0") or address.is_multicast or str(address).endswith(".255"):
        return None  # not a host (and often a version or a mask)
    kind = "a private IP address" if address.is_private else "an IP address"
    return Finding(kind, mask(match.group(0), 6), _line(text, match.start()), error=False, found=match.group(0))


class AllowListError(ValueError):
    """An ``allow_private`` entry that is no regular expression."""


class Known:
    """What the site publishes on purpose: texts it already shows (a page's Markdown, its blocks'
    code) and the allow-list's regular expressions. `covers` a finding whose text is in either."""

    def __init__(self, texts: Iterable[str] = (), allowed: Any = ()) -> None:
        self.texts = [t for t in texts if t]
        self.allowed = compile_allowed(allowed)

    def __bool__(self) -> bool:
        return bool(self.texts or self.allowed)

    def covers(self, finding: Finding) -> bool:
        if finding.mine or not finding.found:
            return False
        if any(pattern.fullmatch(finding.found) for pattern in self.allowed):
            return True
        # as a whole word: ``al`` in a page is no cover for ``alice`` (an edge that is no letter is one already)
        found = finding.found
        before = r"(?<![\w.@-])" if re.match(r"\w", found) else ""
        after = r"(?![\w@-])" if re.match(r"\w", found[-1]) else ""
        whole = re.compile(before + re.escape(found) + after)
        return any(found in text and whole.search(text) for text in self.texts)


def compile_allowed(entries: Any) -> list[re.Pattern[str]]:
    """The ``allow_private`` option's entries as patterns; raises `AllowListError` naming the bad one."""
    if entries is None:
        return []
    if isinstance(entries, str) or not isinstance(entries, (list, tuple)):
        raise AllowListError(f"allow_private must be a list of regular expressions, not {entries!r}")
    patterns = []
    for n, entry in enumerate(entries):
        try:
            patterns.append(entry if isinstance(entry, re.Pattern) else re.compile(str(entry)))
        except re.error as error:
            raise AllowListError(f"allow_private[{n}]: {entry!r} is no regular expression ({error})") from None
    return patterns


def findings(text: str, this_machine: bool = True, words: list[Any] | None = None,
             known: Known | None = None) -> list[Finding]:
    """What ``text`` gives away. ``this_machine``: also look for the home directory, user and host
    names of the machine running the check (a contributor checking their own record); ``words``:
    those names as `ruota_docs.records.ledger` finds them, found once for the many strings of a record;
    ``known``: what the site publishes on purpose, left out (this machine's names never are)."""
    if not text:
        return []
    found = _home_folders(text) + _emails(text) + _user_and_host_names(text) + _secrets(text) + _machine_ids(text)
    if this_machine:
        found += _this_machine(text, private_words() if words is None else words)
    if known:
        found = [finding for finding in found if not known.covers(finding)]
    return found


#: What each pattern above needs in a text, found far faster than the patterns (a literal, or a key
#: before ``=``/``:``): a text none of these finds in has no finding but this machine's names.
_CLUES = [
    re.compile(r"/home/|/Users/|@|GPU-|\d\.\d+\.\d+\.\d|[0-9a-fA-F]:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}:"),
    re.compile(r"gh[opusr]_|github_pat_|hf_|AKIA|ASIA|Bearer|-----BEGIN|xox|sk-|AIza|eyJ"),
    re.compile(r"(?:USER(?:PROFILE)?|HOST|HOME)\s*[=:]"),
    re.compile(r"(?i)users[\\/]|\.(?:local|lan|home\.arpa|internal|localdomain|intranet)"
               r"|(?:username|logname|hostname|computername|aws_secret_access_key)\s*[=:]"
               r"|(?:secret|token|passw(?:or)?d|api[_-]?key|access[_-]?key|auth[_-]?key|private[_-]?key|credential)s?"
               r"\s*[=:]"),
]
#: Between texts searched as one: what no pattern reads across (no word character, no path, a line's end).
_BETWEEN = "\n\x00\n"


def findings_many(texts: list[str], this_machine: bool = True,
                  words: list[Any] | None = None) -> dict[int, list[Finding]]:
    """`findings` of each of many texts (a record's thousands of strings), by index, those with any only.

    The texts are searched as one for what each pattern needs (`_CLUES`) and for this machine's names, and
    only the texts something was found in are searched in full: a record of 25,000 strings took 0.4 s
    string by string, and few strings hold anything. ``_BETWEEN`` keeps a clue from starting in one text
    and ending in the next; the texts a clue is in are a superset of those with a finding."""
    if this_machine and words is None:
        words = private_words()
    joined = _BETWEEN.join(texts)
    starts, position = [], 0
    for text in texts:
        starts.append(position)
        position += len(text) + len(_BETWEEN)
    flagged: set[int] = set()
    for clue in _CLUES + ([pattern for pattern, _ in words or ()] if this_machine else []):
        at = 0
        while (match := clue.search(joined, at)) is not None:
            index = bisect.bisect_right(starts, match.start()) - 1
            flagged.add(index)
            if index + 1 >= len(starts):
                break
            at = starts[index + 1]  # the next text: this one is searched in full already
    found = {index: findings(texts[index], this_machine, words) for index in sorted(flagged)}
    return {index: items for index, items in found.items() if items}


def _home_folders(text: str) -> list[Finding]:
    found = []
    for pattern in _HOME:
        for match in pattern.finditer(text):
            if match["name"].lower() not in _PLACEHOLDER_NAMES:
                start = match.group(0)[: match.start("name") - match.start()]
                # <…> around the masked name: a report quoting it is no home directory itself
                found.append(Finding("a home directory", f"{start}<{mask(match['name'], 1)}>",
                                     _line(text, match.start()), found=match.group(0)))
    return found


def _emails(text: str) -> list[Finding]:
    return [Finding("an e-mail address", mask(match.group(0), 2), _line(text, match.start()), found=match.group(0))
            for match in _EMAIL.finditer(text)
            if match["local"].lower() not in ("git",) and not _SAFE_DOMAINS.search(match["domain"])]


def _user_and_host_names(text: str) -> list[Finding]:
    """Shell prompts, user@host, local host names and USER=/HOSTNAME= style settings."""
    return [*_prompts(text), *_users_at_hosts(text), *_names_and_settings(text)]


def _prompts(text: str) -> list[Finding]:
    """Shell prompts (``me@desk:~$``) that name a user other than root or git."""
    return [Finding("a user and host name (a shell prompt)", mask(match.group(0), 2), _line(text, match.start()),
                    found=f"{match['user']}@{match['host']}")
            for match in _PROMPT.finditer(text)
            if not _EMAIL.fullmatch(match.group(0).rstrip(":~/")) and match["user"] not in ("root", "git")]


def _users_at_hosts(text: str) -> list[Finding]:
    """``user@host`` outside a prompt, where neither is a placeholder or a common word."""
    found = []
    prompts = [m.span() for m in _PROMPT.finditer(text)]
    for match in _USER_AT_HOST.finditer(text):
        in_prompt = any(a <= match.start() < b for a, b in prompts)
        if in_prompt or match["user"].lower() in {"git", "root"} | _PLACEHOLDER_NAMES:
            continue
        if match["host"].lower() not in _NOT_HOSTS:
            found.append(Finding("a user and host name", mask(match.group(0), 2), _line(text, match.start()),
                                 found=match.group(0)))
    return found


def _names_and_settings(text: str) -> list[Finding]:
    """A user name at an address, a local host name, and USER=/HOSTNAME= style settings."""
    found = []
    for match in _USER_AT_ADDRESS.finditer(text):
        if match["user"].lower() not in {"git", "root"} | _PLACEHOLDER_NAMES:
            found.append(Finding("a user name at an address", mask(match.group(0), 2), _line(text, match.start()),
                                 found=match.group(0)))
    for match in _LOCAL_HOST.finditer(text):
        if match["host"].lower() not in _NOT_HOSTS:
            found.append(Finding("a host name", mask(match.group(0), 2), _line(text, match.start()),
                                 found=match.group(0)))
    for match in _IDENTITY.finditer(text):
        if not _NEUTRAL_VALUES.match(match["value"]):
            found.append(Finding("a user or host name", f"{match['key']}=<{mask(match['value'], 1)}>",
                                 _line(text, match.start()), found=match["value"]))
    return found


def _secrets(text: str) -> list[Finding]:
    """Tokens of a known kind, then secret-looking settings that are not one of them."""
    found, tokens = [], []
    for kind, pattern in _TOKENS:
        for match in pattern.finditer(text):
            tokens.append(match.span())
            found.append(Finding(kind, mask(match.group(0)), _line(text, match.start()), found=match.group(0)))
    for match in _SECRET_SETTING.finditer(text):
        value, (start, end) = match["value"], match.span("value")
        if any(a < end and start < b for a, b in tokens):
            continue  # already named by its kind
        if re.search(r"\d", value) and re.search(r"[A-Za-z]", value):
            found.append(Finding("a secret setting", f"{match['key']}={mask(value, 2)}", _line(text, match.start()),
                                 found=value))
    return found


def _machine_ids(text: str) -> list[Finding]:
    """IP addresses, GPU ids and MAC addresses (warnings)."""
    found = [finding for match in _IPV4.finditer(text) if (finding := _ip_finding(text, match))]
    for kind, pattern in (("a GPU's unique id", _GPU_UUID), ("a MAC address", _MAC)):
        for match in pattern.finditer(text):
            found.append(Finding(kind, mask(match.group(0), 6), _line(text, match.start()), error=False,
                                 found=match.group(0)))
    return found


def _this_machine(text: str, words: list[Any]) -> list[Finding]:
    """This machine's home directory (error), user or host name (warning: it may be a common word)."""
    found = []
    for pattern, label in words:
        if label == "<page-dir>" or (label == "~" and pattern.pattern.startswith(re.escape("/root"))):
            continue  # root's home is no person's
        match = pattern.search(text)
        if match:
            kind = {"~": "this machine's home directory", "<user>": "this machine's user name",
                    "<host>": "this machine's host name"}[label]
            found.append(Finding(kind, mask(match.group(0), 2), _line(text, match.start()), error=label == "~",
                                 found=match.group(0), mine=True))
    return found


# -- scrubbing: nothing published names the home directory, the user or the host ------
def private_words() -> list[tuple[re.Pattern[str], str]]:
    pairs = []
    home = os.path.expanduser("~")
    if home and home not in ("/", ""):
        pairs.append((re.compile(re.escape(home) + r"(?![\w.-])"), "~"))
    # the page's own folder; HOME inside it (the unprivileged user's) reads as any home does
    page_dir = re.escape(tempfile.gettempdir()) + r"/ruota-page-[A-Za-z0-9_]+"
    pairs.append((re.compile(page_dir + r"/home(?![\w.-])"), "~"))
    pairs.append((re.compile(page_dir), "<page-dir>"))
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = ""
    host = socket.gethostname()
    for word, label in ((host, "<host>"), (user, "<user>")):
        if word and len(word) >= 3 and word not in ("root",):
            pairs.append((re.compile(rf"\b{re.escape(word)}\b"), label))
    return pairs


def scrub(text: str | None) -> str | None:
    if not text:
        return text
    for pattern, label in private_words():
        text = pattern.sub(label, text)
    return text


def scrub_result(result: Result) -> Result:
    """``result`` with this machine's home directory, user and host name replaced in what it printed and said."""
    return dataclasses.replace(result, output=scrub(result.output) or "", reason=scrub(result.reason),
                               error=scrub(result.error), reason_code=_scrub_all(result.reason_code))


def _scrub_all(value: Any) -> Any:
    """Every string in a JSON value scrubbed (a reason code's arguments: file names, messages)."""
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, dict):
        return {k: _scrub_all(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub_all(v) for v in value]
    return value

