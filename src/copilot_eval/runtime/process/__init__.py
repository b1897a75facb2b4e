"""The runtime process: versions, install and location, its home folders, the client, the host loop, the pool and its request router."""
