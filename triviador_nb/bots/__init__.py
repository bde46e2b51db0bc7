"""Computer players (bots) with skill levels."""

from .bot import EASY, HARD, MEDIUM, SKILLS, Bot, BotSkill

__all__ = ["Bot", "BotSkill", "EASY", "MEDIUM", "HARD", "SKILLS"]
