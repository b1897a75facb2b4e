"""Where a session was played: the executor and, for a distributed run, the node and worker process."""

from __future__ import annotations

from pydantic import BaseModel, Field


class PlayedOn(BaseModel):
    """The machine and worker that played a session; absent from evidence of a run in one process."""

    executor: str = Field(description="The executor that moved the work there, e.g. 'ray'.")
    node_id: str | None = Field(default=None, description="The executor's id of the node (a Ray node id).")
    node_address: str | None = Field(default=None, description="The node's address as the executor knows it.")
    hostname: str | None = None
    worker_pid: int | None = Field(default=None, description="Process id of the worker that owned the runtime pool.")


__all__ = ["PlayedOn"]
