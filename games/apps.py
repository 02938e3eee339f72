from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        """The close of an occasion checks the night's end against the games' records too."""
        from games.program_selectors import last_act
        from occasions.floor_selectors import LAST_ACT_READERS

        if last_act not in LAST_ACT_READERS:
            LAST_ACT_READERS.append(last_act)
