"""Tournaments past one machine: the workers of a Dask cluster play the games.

:func:`~cluedo_lab.lab.tournament.run_tournament` hands its games, in batches, to any
:class:`concurrent.futures.Executor`; a Dask ``distributed.Client`` gives one
(``client.get_executor()``), so the same tournament runs on one core, on this machine's
processes or on a cluster of many machines, and gives the same result on each: every game is
seeded by the tournament seed and its number alone.

``cluedo-lab simulate ... --scheduler tcp://host:8786`` uses a running cluster (each worker
needs the kit installed, at the same version: ``pip install 'cluedo-lab[cluster]'``);
``--scheduler local`` starts a ``LocalCluster`` on this machine, to try it. Dask is an
optional extra: only this module imports it, and only when asked.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Executor
from contextlib import ExitStack, contextmanager

__all__ = ["LOCAL", "tournament_executor"]

LOCAL = "local"
"""The scheduler address that starts a cluster on this machine."""

CONNECT_TIMEOUT = "10s"
"""How long to wait for a scheduler before saying it is not there."""


@contextmanager
def tournament_executor(scheduler: str | None, workers: int = 1
                        ) -> Iterator[tuple[Executor | None, int]]:
    """The executor to play a tournament with, and how many games it plays at once.

    ``scheduler`` None: no executor (``run_tournament`` then uses ``workers`` processes of
    this machine). ``"local"``: a Dask ``LocalCluster`` of ``workers`` one-thread processes.
    Any other text: the address of a running Dask scheduler. The cluster or the connection
    is closed on leaving the ``with`` block."""
    if scheduler is None:
        yield None, workers
        return
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ValueError("--scheduler needs Dask's distributed package: pip install "
                         "'cluedo-lab[cluster]'") from None
    with ExitStack() as stack:
        try:
            if scheduler == LOCAL:
                cluster = stack.enter_context(LocalCluster(  # type: ignore[no-untyped-call]
                    n_workers=workers, threads_per_worker=1, processes=True,
                    dashboard_address=":0"))
                client = stack.enter_context(Client(cluster))  # type: ignore[no-untyped-call]
            else:
                client = stack.enter_context(
                    Client(scheduler, timeout=CONNECT_TIMEOUT))  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError, ValueError) as error:
            raise ValueError(f"no Dask scheduler at {scheduler!r}: {error}") from None
        threads = sum(client.nthreads().values())
        yield client.get_executor(), max(1, threads)
