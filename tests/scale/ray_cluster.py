"""A Ray cluster for the tests: a head and worker nodes as separate processes, in a private network.

Ray registers each node under the machine's interface address and probes an outside address to
find it. Here the cluster and its driver run inside a network namespace of their own that holds
only loopback, so every node is at 127.0.0.1 and no packet leaves the machine. Every process is
started here and stopped here by PID (the namespace's own process list), and the namespace is
deleted at the end.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RAY = str(Path(sys.executable).with_name("ray"))
PORT = 6379
ADDRESS = f"127.0.0.1:{PORT}"
START_TIMEOUT_S = 90.0
# Notice a node that left within about ten seconds, not Ray's default half minute. Not faster: with
# checks of 0.5 s failing after 3 misses, a raylet that a loaded two-core CI machine left unscheduled
# for 1.5 s was declared dead (and exited) though nothing had left, failing runs that lost no node.
HEALTH_ENV = {
    "RAY_health_check_period_ms": "1000",
    "RAY_health_check_timeout_ms": "2000",
    "RAY_health_check_failure_threshold": "5",
    "RAY_USAGE_STATS_ENABLED": "0",
}


def unavailable_reason() -> str | None:
    """Why a cluster cannot be started here, or None when it can."""
    try:
        import ray  # noqa: F401
    except ImportError:
        return "Ray is not installed (pip install 'copilot-eval[ray]')"
    if os.geteuid() != 0:
        return "network namespaces need root"
    if shutil.which("ip") is None:
        return "the ip command (iproute2) is missing"
    name = f"ce-probe-{os.getpid()}"
    made = subprocess.run(["ip", "netns", "add", name], capture_output=True, text=True)
    if made.returncode != 0:
        return f"cannot create a network namespace: {made.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", name], capture_output=True)
    return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sweep_stale_clusters() -> list[str]:
    """Stop the clusters of earlier test sessions that were killed before they could stop them.

    A namespace ``ce-ray-<pid>`` belongs to the test process ``pid``; when that process is gone,
    what runs in the namespace is left over from it: killed by PID, and the namespace deleted.
    """
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout.split("\n")
    swept = []
    for line in listed:
        name = line.split(" ", 1)[0]
        owner = name.removeprefix("ce-ray-")
        if not name.startswith("ce-ray-") or not owner.isdigit() or _alive(int(owner)):
            continue
        pids = subprocess.run(["ip", "netns", "pids", name], capture_output=True, text=True).stdout.split()
        for pid in pids:
            try:
                os.kill(int(pid), signal.SIGKILL)
            except ProcessLookupError:
                pass
        subprocess.run(["ip", "netns", "del", name], capture_output=True)
        swept.append(name)
    return swept


def _children(pid: int) -> list[int]:
    """Every descendant of ``pid`` (read from /proc), deepest last."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            parents.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


class RayCluster:
    """A head (no CPUs: it hosts no worker) and ``workers`` nodes of one CPU each."""

    def __init__(self, *, workers: int = 2) -> None:
        self.netns = f"ce-ray-{os.getpid()}"
        self.temp = Path(tempfile.mkdtemp(prefix="ce-ray-"))
        self.workers_wanted = workers
        self.head: subprocess.Popen[bytes] | None = None
        self.workers: list[subprocess.Popen[bytes]] = []
        self.env = {**os.environ, **HEALTH_ENV}
        self.env.pop("RAY_ADDRESS", None)

    def netns_command(self, *args: str) -> list[str]:
        """``args`` run inside the cluster's network namespace."""
        return ["ip", "netns", "exec", self.netns, *args]

    def _node(self, *args: str) -> subprocess.Popen[bytes]:
        log = open(self.temp / f"node-{len(self.workers) + (self.head is not None)}.log", "wb")  # noqa: SIM115
        command = self.netns_command(
            RAY, "start", "--block", "--node-ip-address", "127.0.0.1", "--disable-usage-stats", *args
        )
        return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=self.env)

    def start(self) -> None:
        """Create the namespace and start the head and the workers; wait until all are alive."""
        sweep_stale_clusters()
        subprocess.run(["ip", "netns", "add", self.netns], check=True)
        subprocess.run(self.netns_command("ip", "link", "set", "lo", "up"), check=True)
        self.head = self._node(
            "--head",
            "--port",
            str(PORT),
            "--num-cpus",
            "0",
            "--include-dashboard",
            "false",
            "--temp-dir",
            str(self.temp / "ray"),
        )
        self.wait_for_nodes(1)
        for _ in range(self.workers_wanted):
            self._start_worker()

    def _start_worker(self, attempts: int = 3) -> None:
        """One more worker node, one at a time: Ray gives a starting raylet 30 s to register, which
        several raylets starting at once on a loaded two-core machine can miss; such a node exits, and is started again."""
        wanted = 1 + len([node for node in self.workers if node.poll() is None]) + 1
        for _ in range(attempts):
            self.add_worker()
            try:
                self.wait_for_nodes(wanted, process=self.workers[-1])
                return
            except RuntimeError:
                if self.workers[-1].poll() is None:
                    raise
        raise RuntimeError(f"a Ray worker node did not start in {attempts} attempts")

    def add_worker(self) -> None:
        """Start one more worker node (its own temporary folder: nodes on one machine must not share sockets)."""
        folder = self.temp / f"worker-{len(self.workers)}"
        self.workers.append(self._node("--address", ADDRESS, "--num-cpus", "1", "--temp-dir", str(folder)))

    def nodes(self) -> list[dict]:
        """The cluster's alive nodes as Ray lists them: address and resources."""
        code = (
            "import json, ray; ray.init(address='" + ADDRESS + "', logging_level='ERROR'); "
            "print(json.dumps([{'address': n['NodeManagerAddress'], 'cpus': n['Resources'].get('CPU', 0), "
            "'id': n['NodeID']} for n in ray.nodes() if n['Alive']]))"
        )
        done = subprocess.run(
            self.netns_command(sys.executable, "-c", code), capture_output=True, text=True, env=self.env, timeout=60
        )
        if done.returncode != 0:
            return []
        return json.loads(done.stdout.strip().splitlines()[-1])

    def wait_for_nodes(self, count: int, *, process: subprocess.Popen[bytes] | None = None) -> list[dict]:
        """Until ``count`` nodes are alive (RuntimeError with the logs' tails after START_TIMEOUT_S, or
        as soon as ``process``, the node being started, has exited)."""
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline and (process is None or process.poll() is None):
            nodes = self.nodes()
            if len(nodes) >= count:
                return nodes
            time.sleep(1)
        tails = "\n".join(p.read_text(errors="replace")[-800:] for p in sorted(self.temp.glob("node-*.log")))
        raise RuntimeError(f"the Ray cluster did not reach {count} nodes:\n{tails}")

    def ensure_workers(self) -> None:
        """Start worker nodes again until there are as many as asked for at the start (after one was killed)."""
        alive = [node for node in self.workers if node.poll() is None]
        for _ in range(self.workers_wanted - len(alive)):
            self._start_worker()

    def kill_worker(self, index: int) -> None:
        """The node leaves: its `ray start`, raylet and worker processes are killed at once (SIGKILL)."""
        node = self.workers[index]
        for pid in [*_children(node.pid), node.pid]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        node.wait(timeout=10)

    def stop(self) -> None:
        """Stop every node (workers first), then anything left in the namespace, then delete it."""
        for node in [*self.workers, self.head]:
            if node is not None and node.poll() is None:
                node.send_signal(signal.SIGTERM)
        for node in [*self.workers, self.head]:
            if node is not None:
                try:
                    node.wait(timeout=40)
                except subprocess.TimeoutExpired:
                    node.kill()
        left = subprocess.run(["ip", "netns", "pids", self.netns], capture_output=True, text=True).stdout.split()
        for pid in left:
            try:
                os.kill(int(pid), signal.SIGKILL)
            except ProcessLookupError:
                pass
        subprocess.run(["ip", "netns", "del", self.netns], capture_output=True)
        shutil.rmtree(self.temp, ignore_errors=True)

    def leftover_pids(self) -> list[int]:
        """Processes still in the namespace (none after ``stop``)."""
        out = subprocess.run(["ip", "netns", "pids", self.netns], capture_output=True, text=True)
        return [int(pid) for pid in out.stdout.split()] if out.returncode == 0 else []
