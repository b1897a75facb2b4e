"""`copilot-eval generate testset|triggers`: draft a set from what an agent says it is (docs/generate.md).

Coverage is dealt in code (``generate.coverage``); the generator agent only writes the text. A
drafted file is never a truth: every row is marked draft in ``FILE.provenance.json``.

Exit codes: 0 written; 2 unusable input (a bad option or file, an existing --out without --force);
3 the generator gave no usable text for some tuples (the gaps are listed; the other rows are written).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from copilot_eval.cli.exits import bad_input, platform_failed

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
    # imported on use: every command module loads with `--help` (see app.py)
    from copilot_eval.evalsets.drafts import provenance_path

    taken = [path for path in (out, provenance_path(out)) if path.exists()]
    if taken and not force:
        raise bad_input(f"{out}: {taken[0]} exists; give --force to overwrite it, or another FILE")


def _gaps_exit(gaps: list, written: Path | None) -> None:
    for gap in gaps:
        typer.echo(
            f"gap: case {gap.tuple.number} ({gap.tuple.flavour}, {gap.tuple.capability.key}): {gap.reason}", err=True
        )
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
    # imported on use: they load the Copilot SDK (about 0.6 s), which `--help` must not
    import asyncio

    from copilot_eval.agent import AgentFileError, load_agent_file
    from copilot_eval.generate.coverage import CoverageError, parse_mix
    from copilot_eval.generate.testset import FORMATS, generate_testset
    from copilot_eval.runtime.process.pool import close_all_pools

    if set_format not in FORMATS:
        raise bad_input(f"--format {set_format}: choose one of {', '.join(FORMATS)}")
    _refuse_overwrite(out, force)
    try:
        agent, generator = load_agent_file(agent_file), load_agent_file(generator_file)
        weights = parse_mix(mix)
    except (AgentFileError, ValueError) as error:
        raise bad_input(str(error)) from None
    try:
        made = asyncio.run(
            generate_testset(
                agent,
                generator,
                out,
                count=count,
                seed=seed,
                mix=weights,
                set_format=set_format,
                knowledge=knowledge or (),
            )
        )
    except CoverageError as error:
        raise bad_input(str(error)) from None
    except RuntimeError as error:
        raise platform_failed(str(error)) from None
    finally:
        close_all_pools()
    written = out if made.test_set.cases else None
    if written:
        typer.echo(f"wrote {len(made.test_set.cases)} draft case(s) to {out} (provenance: {made.sidecar})")
    _gaps_exit(made.gaps, written)


def register(app: typer.Typer) -> None:
    """Add the `generate` command group."""
    generate_app.command(name="testset")(testset)
    app.add_typer(generate_app)
