"""A suite with no configuration runs without pytest-asyncio's loop-scope warning; a scope the user set is kept."""

from __future__ import annotations

import pytest

READS_THE_SCOPE = """
def test_scope(request):
    assert request.config.getini("asyncio_default_fixture_loop_scope") == {expected!r}
"""


def test_an_unset_fixture_loop_scope_gets_the_value_pytest_asyncio_will_default_to(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\n")  # nothing about asyncio, as in the folder `copilot-eval init` writes
    pytester.makepyfile(READS_THE_SCOPE.format(expected="function"))
    outcome = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    outcome.assert_outcomes(passed=1)
    assert "is unset" not in outcome.stdout.str() and "warning" not in outcome.stdout.str().lower()


@pytest.mark.parametrize("where", ["ini", "option"])
def test_a_scope_the_user_set_is_kept(pytester: pytest.Pytester, where: str) -> None:
    pytester.makeini("[pytest]\n" + ("asyncio_default_fixture_loop_scope = module\n" if where == "ini" else ""))
    pytester.makepyfile(READS_THE_SCOPE.format(expected="module"))
    extra = ["-o", "asyncio_default_fixture_loop_scope=module"] if where == "option" else []
    pytester.runpytest_inprocess("-p", "no:cacheprovider", *extra).assert_outcomes(passed=1)
