"""Shared set-up of the package's tests (helpers live in tests/_support.py)."""


def pytest_configure(config):
    config.addinivalue_line("markers", "realdocs: reads the repository's own docs/ (fails while pages disagree)")
