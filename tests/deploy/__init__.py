"""`make deploy-test`: the deploy files run for real on this machine's Docker engine.

`engine` installs what is missing and starts dockerd; `images` builds the base images from
Debian's packages (no registry) and the bot's image from the wheelhouse; `compose` brings the
compose files up with the test's settings; `telegram` is the fake Bot API reached from the
containers, delivering updates to the bots' webhooks as Telegram does; `play` plays whole games
through them; `units` checks the systemd units; `__main__` runs it all and prints one JSON line.
"""
