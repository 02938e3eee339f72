from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        """What the games add to an occasion (``occasions.extensions``): the close is checked
        against the games' records, refused while a game is in play, and told what the games
        leave unsettled (the winners owed, whom the rules judge at the close); the occasion page
        shows the program, the jackpots, the winners and the draw; the floor bar of every page of
        the night shows where the games stand."""
        from games.night_left import night_left
        from games.occasion_sections import SECTIONS, floor_games, game_in_play
        from games.program_selectors import last_act
        from occasions import extensions

        extensions.add_last_act_reader(last_act)
        extensions.add_close_check(game_in_play)
        extensions.add_night_left(night_left)
        extensions.add_floor_games(floor_games)
        for section in SECTIONS:
            extensions.add_section(section)

        import beano.links
        from games.links import FLOOR_PAGES, LINKS

        beano.links.add(*LINKS)  # its links on the pages below it
        extensions.add_floor_pages(FLOOR_PAGES)  # and on the floor bar of the night
