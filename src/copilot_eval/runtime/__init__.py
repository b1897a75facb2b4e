"""runtime layer: the Copilot runtime process (process/), the model-request chain (requests/) and one run's session (session/).

They import one way: requests may use process, session may use both, never the other way round.
"""
