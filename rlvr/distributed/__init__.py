"""Scale-out on Ray: grader actors, rollout workers over several servers, torch.distributed.

Everything here keeps the local interfaces: a `RayGrader` is a Grader (so `collect`,
`grade_items` and the learners run unchanged on an Environment whose grader was swapped), and a
`RayServerPolicy` is a Policy. Ray is an optional dependency (`pip install 'rlvr[ray]'`); this
package imports it only when a cluster is used. torch.distributed helpers live in
`rlvr.distributed.torch_dist` and need no Ray.
"""

from __future__ import annotations

from rlvr.distributed.faults import FaultStats, RetryPolicy

__all__ = ["FaultStats", "RetryPolicy"]
