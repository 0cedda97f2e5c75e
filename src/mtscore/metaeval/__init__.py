"""Meta-evaluation: how well metrics agree with human judgments, computed as Google's
mt-metrics-eval computes it, for mtscore's metrics and for scores computed by any other tool.

``read_eval_set`` reads an mt-metrics-eval data folder (``data``); ``select`` chooses the systems as
mt-metrics-eval does (``selection``); ``evaluate`` scores the metrics (``scoring``) and ranks them by
every statistic (``correlations``, ``soft_accuracy``) with PERM-BOTH significance clusters
(``significance``); ``evaluate_tasks`` runs WMT23's task set over several language pairs (``tasksets``). May
import ``metrics``, ``core`` and below; never ``report`` or ``cli``.
"""

from .correlations import TiesOptimised, acc_t, kendall_tau_b
from .data import EvalSet, read_eval_set, read_score_file
from .evaluate import STATISTICS, MetaEvaluation, Ranking, evaluate, statistic_task
from .scoring import MetricScores, read_scores_files, score_metric
from .selection import KNOWN, Defaults, Selection, defaults_for, select
from .significance import PermutationResult, PermutationSettings, assign_ranks, perm_both
from .soft_accuracy import soft_pairwise_accuracy
from .tasksets import TaskSetResult, evaluate_tasks

__all__ = [
    "KNOWN",
    "STATISTICS",
    "Defaults",
    "EvalSet",
    "MetaEvaluation",
    "MetricScores",
    "PermutationResult",
    "PermutationSettings",
    "Ranking",
    "Selection",
    "TaskSetResult",
    "TiesOptimised",
    "acc_t",
    "assign_ranks",
    "defaults_for",
    "evaluate",
    "evaluate_tasks",
    "kendall_tau_b",
    "perm_both",
    "read_eval_set",
    "read_score_file",
    "read_scores_files",
    "score_metric",
    "select",
    "soft_pairwise_accuracy",
    "statistic_task",
]
