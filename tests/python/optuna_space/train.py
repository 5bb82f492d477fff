import math

import tunedeck

config = tunedeck.get_config()
loss = (abs(config["sign"]) + config["dropout"] + config["model"]["layers"] / 10
        + abs(math.log10(config["model"]["lr"]) + 2))
tunedeck.report({"loss": loss})
