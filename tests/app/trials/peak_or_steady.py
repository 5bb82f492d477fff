"""A trainable whose trials rank differently by scope: `shape: peak` reports accuracy 0.9, then
falls to 0.1 and stays there; `shape: steady` reports 0.5 every time. By its last result the
steady trial is best, by its best result the peak one."""
import tunedeck

config = tunedeck.get_config()
curve = [0.9, 0.1, 0.1, 0.1] if config["shape"] == "peak" else [0.5, 0.5, 0.5, 0.5]
for value in curve:
    tunedeck.report({"accuracy": value})
