"""One hand of 卡五星: tiles, notation, shapes, the fan table, rules, scoring, efficiency, EV, danger."""
