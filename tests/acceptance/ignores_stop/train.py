import os
import signal
import time

import tunedeck

signal.signal(signal.SIGTERM, signal.SIG_IGN)
with open(os.path.join(os.environ["TUNEDECK_TRIAL_DIR"], "pid"), "w") as f:
    f.write(str(os.getpid()))
config = tunedeck.get_config()
step = 0
while True:
    step += 1
    try:
        tunedeck.report({"loss": config["x"] / step})
    except BaseException:
        while True:
            time.sleep(1)
