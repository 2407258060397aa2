"""Models of the analysis app: the learn pages' verse review cards and the settlement score sheets.

Each area keeps its models in its own module; both are imported here so Django finds them.
"""
from .learn import *  # noqa: F401,F403
from .settlement import *  # noqa: F401,F403
