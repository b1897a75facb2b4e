"""Shared test configuration: the pytester fixture for plugin tests, and the `runtime` marker enforced."""

pytest_plugins = ["pytester", "tests.runtime_guard"]
