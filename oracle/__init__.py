"""The executable rulebook of Тысяча: rule language, rulesets and the reference interpreter."""

from .engine import Action, Game, IllegalAction, Rejection, play_random
from .errors import OracleError, RuleFileError, RulesetError
from .ruleset import Ruleset, load_ruleset

__all__ = ["Action", "Game", "IllegalAction", "OracleError", "Rejection", "RuleFileError", "Ruleset",
           "RulesetError", "load_ruleset", "play_random"]
__version__ = "0.1.0"
