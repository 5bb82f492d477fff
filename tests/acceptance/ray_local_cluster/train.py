import tunedeck

config = tunedeck.get_config()
loss = 1.0
for epoch in range(5):
    loss *= 1.0 - config["lr"]
    tunedeck.report({"loss": loss})
