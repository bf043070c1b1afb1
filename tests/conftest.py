"""pytest's settings for tests/: the marks the tests use (a mark not registered here is an error under --strict-markers)."""


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: half a minute or more on 2 cores (training runs through papermill or torchrun, "
                                       "kill-and-resume variants, the docs site in a browser); `make test` leaves it out, `make test-slow` runs it")
