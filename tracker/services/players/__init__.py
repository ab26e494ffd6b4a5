"""Players: the roster (:mod:`.roster`: add, list, show, edit, seed, remove), finding the player
a user means (:mod:`.refs`), players files and FIDE rating lists (:mod:`.files`,
:mod:`.fide_list`). Each loads on its own: a read that finds a player loads no roster."""
