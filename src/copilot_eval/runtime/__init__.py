"""runtime layer: the Copilot runtime process (process/), the model-request seam (requests/) and one run's session (session/)."""
