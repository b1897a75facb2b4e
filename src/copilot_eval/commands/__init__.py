"""The commands floor: each writing command as plan -> play -> finish, above the engine and the gate.

A command module here takes what the entry floor (``cli/``) read from the options, plans (every
refusal before anything is spent), has the engine (``runs/``) play and grade, and hands what was
played to the finisher (``runs.finish``), the only writer of a run folder; the verdict the finisher
returns is the one the command exits by, which the entry floor prints and never amends. It sits above
``gate`` so that the gate can run inside the finisher (``commands.gate_run``) with no import circle.
"""
