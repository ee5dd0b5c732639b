"""gunicorn's settings, for a club's server and for `make production` alike."""

import os

# Only the front reaches the app (deploy/Caddyfile): never on a public address.
bind = os.environ.get("SCOREKEEPER_APP", "127.0.0.1:8000")
# Sync workers, one per core: with PostgreSQL on the same cores, more were
# slower here (docs/performance.md). WEB_CONCURRENCY sets another number.
workers = int(os.environ.get("WEB_CONCURRENCY") or os.cpu_count() or 2)
# A reload (HUP, `systemctl reload scorekeeper`) starts new workers on the new
# code while the old ones finish what they are answering, up to this long.
graceful_timeout = 30
timeout = 60  # the biggest import takes a few seconds; nothing takes a minute
# What the phones ask for goes to the front's log; the app's own errors here.
accesslog = None
errorlog = "-"
# The front is the only client: its X-Forwarded-Proto is read by Django
# (TRUSTED_PROXIES), not by gunicorn.
forwarded_allow_ips = ""
# Reloads come as signals (systemd's ExecReload, deploy/production.py): no control
# socket in a home folder, which several gunicorns on one machine would share.
control_socket_disable = True


def worker_exit(server, worker):
    """A stopping worker answers what has queued in its socket before it goes.

    The socket stays open until the last worker has gone, so connections keep
    queuing while the workers finish; unread, they would be reset, and the
    front never sends a reset POST again: a save would meet "restarting".
    Only what is queued now, so a busy server still stops. Then the worker lets go of
    the socket at once rather than when the process has wound down (tens of
    milliseconds with Django loaded): once the last worker has, a connection is
    refused, which the front tries again, instead of queuing to be reset.
    """
    if worker.pid != os.getpid():
        return  # gunicorn's master, tidying up after a worker already gone
    for listener in worker.sockets:
        listener.setblocking(False)
        for _ in range(64):
            try:
                client, addr = listener.accept()
            except OSError:
                break
            client.setblocking(True)
            worker.handle(listener, client, addr)
        listener.close()
