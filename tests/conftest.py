"""pytest's settings for tests/: the marks the tests use (a mark not registered here is an error under --strict-markers)."""


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: runs a training run through papermill (a minute or more on 2 cores); "
                                       "`-m 'not slow'` leaves it out")
