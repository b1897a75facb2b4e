"""`copilot-eval generate testset|triggers`: draft a set from what an agent says it is (docs/generate.md).

Coverage is dealt in code (``generate.coverage``); the generator agent only writes the text. A
drafted file is never a truth: every row is marked draft in ``FILE.provenance.json``.

Exit codes: 0 written; 2 unusable input (a bad option or file, an existing --out without --force);
3 the generator gave no usable text for some tuples (the gaps are listed; the other rows are written).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer

from copilot_eval.agent import AgentFileError, CopilotEval, load_agent_file
from copilot_eval.cli.exits import bad_input, platform_failed
from copilot_eval.evalsets.drafts import provenance_path
from copilot_eval.generate.coverage import TRIGGER_FLAVOURS, CoverageError, parse_mix
from copilot_eval.generate.drafting import FLAVOUR_MEANING
from copilot_eval.generate.testset import FORMATS, generate_testset
from copilot_eval.generate.triggers import generate_triggers, pick_entry
from copilot_eval.runtime.process.pool import close_all_pools
from copilot_eval.triggers.catalogue import Catalogue, CatalogueEntry, list_catalogue
from copilot_eval.untrusted.terminal import terminal_text

generate_app = typer.Typer(
    name="generate",
    help="Draft a test set or a trigger set from an agent's own description (docs/generate.md).",
    no_args_is_help=True,
)

GeneratorOption = Annotated[
    Path,
    typer.Option(
        "--generator",
        metavar="FILE",
        help="The generator's agent file (its model writes the text).",
        exists=True,
        dir_okay=False,
    ),
]
CountOption = Annotated[int, typer.Option("--count", metavar="N", help="How many cases to draft.")]
SeedOption = Annotated[int, typer.Option("--seed", metavar="S", help="The seed the coverage tuples are dealt with.")]
OutArgument = Annotated[
    Path, typer.Argument(metavar="FILE", help="The file to write (with FILE.provenance.json beside it).")
]
ForceOption = Annotated[bool, typer.Option("--force", help="Overwrite FILE and its sidecar when they exist.")]


def _refuse_overwrite(out: Path, force: bool) -> None:
    taken = [path for path in (out, provenance_path(out)) if path.exists()]
    if taken and not force:
        raise bad_input(f"{out}: {taken[0]} exists; give --force to overwrite it, or another FILE")


def _say_coverage(results: list) -> None:
    """One line: how many tuples of each flavour were dealt (drafted or not), so the mix is seen to hold."""
    counts = {flavour: sum(1 for r in results if r.tuple.flavour == flavour) for flavour in FLAVOUR_MEANING}
    typer.echo("dealt: " + ", ".join(f"{flavour} {number}" for flavour, number in counts.items() if number))


def _gaps_exit(gaps: list, written: Path | None) -> None:
    for gap in gaps:  # capability names and the generator's reasons are other people's text
        line = f"gap: case {gap.tuple.number} ({gap.tuple.flavour}, {gap.tuple.capability.key}): {gap.reason}"
        typer.echo(terminal_text(line), err=True)
    if gaps:
        where = f"the other rows are in {written}" if written else "nothing was written"
        raise platform_failed(f"the generator gave no usable text for {len(gaps)} case(s); {where}")


def testset(
    out: OutArgument,
    agent_file: Annotated[
        Path, typer.Option("--agent", metavar="FILE", help="The agent to draft cases for.", exists=True, dir_okay=False)
    ],
    generator_file: GeneratorOption,
    knowledge: Annotated[
        list[Path] | None,
        typer.Option(
            "--knowledge",
            metavar="FILE",
            help="A knowledge file to draft from too (repeatable).",
            exists=True,
            dir_okay=False,
        ),
    ] = None,
    count: CountOption = 10,
    seed: SeedOption = 0,
    # each draft's own --mix (other flavours than triggers'), declared inline like run's own options
    # and audit's --pin (alike in shape only)
    mix: Annotated[
        str | None,
        typer.Option(
            "--mix",
            metavar="FLAVOUR=W,...",
            help="Weights of happy, underspecified, out_of_scope, adversarial (default 4,2,2,2).",
        ),
    ] = None,
    set_format: Annotated[
        str, typer.Option("--format", metavar="FORMAT", help="csv (per-row test methods), conversation or prompt.")
    ] = "csv",
    force: ForceOption = False,
) -> None:
    """Draft a test set: coverage tuples dealt from the agent's instructions, custom agents, skills, tools and knowledge."""
    if set_format not in FORMATS:
        raise bad_input(f"--format {set_format}: choose one of {', '.join(FORMATS)}")
    _refuse_overwrite(out, force)
    try:
        agent, generator = load_agent_file(agent_file), load_agent_file(generator_file)
        weights = parse_mix(mix)
    except (AgentFileError, ValueError) as error:
        raise bad_input(str(error)) from None
    sources = tuple(knowledge or ())
    with _drafting():
        made = asyncio.run(
            generate_testset(
                agent, generator, out, count=count, seed=seed, mix=weights, set_format=set_format, knowledge=sources
            )
        )
    for warning in made.warnings:  # names and loader messages from other people's files: shown, never obeyed
        typer.echo(f"warning: {terminal_text(warning, one_line=False)}", err=True)
    _say_coverage([*made.drafted, *made.gaps])
    written = out if made.test_set.cases else None
    if written:
        typer.echo(f"wrote {len(made.test_set.cases)} draft case(s) to {out} (provenance: {made.sidecar})")
    _gaps_exit(made.gaps, written)


@contextlib.contextmanager
def _drafting() -> Iterator[None]:
    """Exit 2 when the agent offers too little to cover, 3 when the runtime failed; the runtimes closed either way."""
    try:
        yield
    except CoverageError as error:
        raise bad_input(str(error)) from None
    except RuntimeError as error:
        raise platform_failed(str(error)) from None
    finally:
        close_all_pools()


def _catalogue_of(target: Path, skill: str | None) -> tuple[Catalogue, CatalogueEntry]:
    """The catalogue the runtime loads for ``target`` and the entry to draft for (a skill folder names its own)."""
    try:
        if target.is_dir():
            if not (target / "SKILL.md").is_file():
                raise bad_input(f"{target}: a folder without SKILL.md; give a skill's folder or an agent file")
            folder = target.resolve().parent  # the session runs elsewhere: a relative folder would not be found
            agent = CopilotEval(name=folder.name or "skills", skill_directories=(folder,))
        else:
            agent = load_agent_file(target)
    except (AgentFileError, ValueError) as error:
        raise bad_input(str(error)) from None
    catalogue = asyncio.run(list_catalogue(agent))
    if target.is_dir() and skill is None:
        skill = next(
            (e.name for e in catalogue.entries if e.path and Path(e.path).parent.resolve() == target.resolve()),
            target.name,
        )
    try:
        return catalogue, pick_entry(catalogue, skill)
    except CoverageError as error:
        raise bad_input(str(error)) from None


def triggers(
    target: Annotated[
        Path,
        typer.Argument(
            metavar="SKILL_DIR_OR_AGENT",
            help="A skill's folder (its siblings: the folder it sits in) or an agent file.",
            exists=True,
        ),
    ],
    out: OutArgument,
    generator_file: GeneratorOption,
    skill: Annotated[
        str | None,
        typer.Option(
            "--skill", metavar="NAME", help="The skill or custom agent to draft for (an agent file with several)."
        ),
    ] = None,
    count: CountOption = 10,
    seed: SeedOption = 0,
    mix: Annotated[
        str | None,
        typer.Option("--mix", metavar="FLAVOUR=W,...", help="Weights of positive, near_miss, control (default 2,2,1)."),
    ] = None,
    force: ForceOption = False,
) -> None:
    """Draft a trigger set: positives for one skill, near-misses from its sibling skills' descriptions, negative controls."""
    _refuse_overwrite(out, force)
    try:
        generator = load_agent_file(generator_file)
        weights = parse_mix(mix, flavours=TRIGGER_FLAVOURS)
    except (AgentFileError, ValueError) as error:
        raise bad_input(str(error)) from None
    try:
        catalogue, entry = _catalogue_of(target, skill)
        made = asyncio.run(generate_triggers(catalogue, entry, generator, out, count=count, seed=seed, mix=weights))
    except (CoverageError, ValueError) as error:
        raise bad_input(str(error)) from None
    finally:
        close_all_pools()
    _say_coverage([*made.drafted, *made.gaps])
    written = out if made.drafted else None
    if written:
        typer.echo(
            terminal_text(
                f"wrote {len(made.drafted)} draft prompt(s) for {made.skill} to {out} (provenance: {made.sidecar})"
            )
        )
    _gaps_exit(made.gaps, written)


def register(app: typer.Typer) -> None:
    """Add the `generate` command group."""
    generate_app.command(name="testset")(testset)
    generate_app.command(name="triggers")(triggers)
    app.add_typer(generate_app)
