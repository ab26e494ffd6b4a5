"""Monthly rating periods: closing and rerating them (:mod:`.closing`), and what the readers
show of them (history, the player's card, the lists, the live list, a period's details).
The rating systems that close them are registered in :mod:`.registry`."""
